import { useQuery } from "@tanstack/react-query";
import { SlugSchema } from "#shared/rules/slug.ts";
import { api, call } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { Field, inputClasses } from "../ui/field.tsx";
import { invalidProps } from "../ui/field-error.tsx";

type Check = { tone: "error" | "ok" | "plain"; text: string };

function describe(value: string, format: ReturnType<typeof SlugSchema.safeParse> | null, answer?: { available: boolean }): Check {
  if (!value) return { tone: "plain", text: "Lower-case letters, digits and hyphens." };
  if (format && !format.success) return { tone: "error", text: format.error.issues[0]?.message ?? "Not a valid address" };
  if (answer?.available === false) return { tone: "error", text: `/${value} belongs to another school already. Choose another address.` };
  if (answer?.available === true) return { tone: "ok", text: `Free: teachers will use /${value} or ${value}.<your domain>` };
  return { tone: "plain", text: `Teachers will use /${value} or ${value}.<your domain>` };
}

/**
 * The portal address of a new school, checked while the admin types: the format and reserved
 * words at once (the server's own SlugSchema), then whether a school has it already. The server
 * checks again on save; this only spares a round trip to a refusal, whose sentence (`error`) shows
 * beside the field too.
 */
export function SlugField({
  value,
  onChange,
  name,
  error,
}: {
  value: string;
  onChange: (slug: string) => void;
  name?: string;
  error?: string | null;
}) {
  const settled = useDebounced(value, 300);
  const format = value ? SlugSchema.safeParse(value) : null;
  const availability = useQuery({
    queryKey: ["slug-taken", settled],
    enabled: settled !== "" && SlugSchema.safeParse(settled).success,
    staleTime: 10_000,
    retry: false,
    queryFn: () => call(() => api.api.schools["slug-available"].$get({ query: { slug: settled } }), "Could not check the address"),
  });

  const answer = value && settled === value ? availability.data : undefined;
  // The route's inferred type drops `suggestion` (its two "not available" answers merge), so it is checked here.
  const suggestion = answer && !answer.available ? answer.suggestion : undefined;
  const check = describe(value, format, answer);

  const tones = {
    error: "text-red-700 dark:text-red-300",
    ok: "text-emerald-700 dark:text-emerald-300",
    plain: "text-slate-500 dark:text-slate-400",
  };
  return (
    <Field
      label="Portal address (slug)"
      htmlFor="school-slug"
      error={error}
      hint={
        <>
          <span id="school-slug-check" className={tones[check.tone]} data-tone={check.tone} aria-live="polite">
            {check.text}
          </span>
          {suggestion && (
            <button
              type="button"
              onClick={() => onChange(suggestion)}
              className="ml-2 font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            >
              Use {suggestion}
            </button>
          )}
        </>
      }
    >
      <input
        id="school-slug"
        name={name}
        className={`${inputClasses} font-mono`}
        {...invalidProps("school-slug", error, "school-slug-check")}
        // Marked too while the typed address fails the check, described by it.
        aria-invalid={check.tone === "error" || Boolean(error) || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value.toLowerCase())}
      />
    </Field>
  );
}

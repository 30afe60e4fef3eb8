import { useRef } from "react";
import { useFetcher } from "react-router";
import type { action } from "../../../routes/admin-school.tsx";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";

export interface SignInSettingsView {
  google: { enabled: boolean; domains: string[]; available: boolean };
  microsoft: { enabled: boolean; domains: string[]; tenantId: string | null; available: boolean };
}

const LABELS = { google: "Google", microsoft: "Microsoft" } as const;

/**
 * The school's sign-in with its Google or Microsoft accounts (docs/decisions/0029): each provider
 * on or off with the e-mail domains it accepts, and Microsoft's tenant. Posted to the page's action
 * (`intent=sign-in`), which runs the command PUT /api/schools/{id}/sign-in runs.
 */
export function SignInSettings({ settings }: { settings: SignInSettingsView }) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data?.intent === "sign-in" ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";
  // A refused domain or tenant ("google.domains.1") is marked on its input.
  const refused = busy ? null : answer;
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, answer);
  return (
    <section className={cardClasses} aria-labelledby="sign-in-title">
      <h2 id="sign-in-title" className="font-semibold">
        Sign-in with school accounts
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Teachers sign in with their school's Google or Microsoft account: no password to keep, and a teacher whose school account is closed
        can no longer sign in. The e-mail form stays for everyone else.
      </p>
      <fetcher.Form ref={form} method="post" className="mt-4 space-y-5">
        <input type="hidden" name="intent" value="sign-in" />
        {(["google", "microsoft"] as const).map((provider) => {
          const current = settings[provider];
          const domainsError = fieldError(refused, `${provider}.domains`);
          return (
            <fieldset key={provider} className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
              <legend className="px-1 text-sm font-semibold">{LABELS[provider]}</legend>
              {!current.available && (
                <p className="text-sm text-amber-800 dark:text-amber-300">
                  {`Not set up for this deployment: the publisher's ${LABELS[provider]} client id and secret are missing (see the README).`}
                </p>
              )}
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={`${provider}.enabled`}
                  defaultChecked={current.enabled}
                  disabled={!current.available}
                  className="size-4"
                />
                {`Sign in with ${LABELS[provider]}`}
              </label>
              <label className="block text-sm">
                <span className="mb-1 block font-medium">E-mail domains allowed (comma-separated)</span>
                <input
                  id={`sign-in-${provider}-domains`}
                  name={`${provider}.domains`}
                  defaultValue={current.domains.join(", ")}
                  placeholder="lincoln.k12.example.org"
                  className={inputClasses}
                  {...invalidProps(`sign-in-${provider}-domains`, domainsError)}
                />
              </label>
              <FieldError inputId={`sign-in-${provider}-domains`} message={domainsError} />
              {provider === "microsoft" && (
                <>
                  <label className="block text-sm">
                    <span className="mb-1 block font-medium">Tenant id (optional: only accounts of this organisation)</span>
                    <input
                      id="sign-in-microsoft-tenant"
                      name="microsoft.tenantId"
                      defaultValue={settings.microsoft.tenantId ?? ""}
                      placeholder="72f988bf-86f1-41af-91ab-2d7cd011db47"
                      className={`${inputClasses} font-mono`}
                      {...invalidProps("sign-in-microsoft-tenant", fieldError(refused, "microsoft.tenantId"))}
                    />
                  </label>
                  <FieldError inputId="sign-in-microsoft-tenant" message={fieldError(refused, "microsoft.tenantId")} />
                </>
              )}
            </fieldset>
          );
        })}
        {answer && (
          <MessageBox text={"message" in answer ? answer.message : answer.error} tone={"message" in answer ? "success" : undefined} />
        )}
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : "Save sign-in"}
        </Button>
      </fetcher.Form>
    </section>
  );
}

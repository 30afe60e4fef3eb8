import { useRef, useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { slugFromName as suggestSlug } from "#shared/rules/slug-from-name.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { createSchoolCommand } from "../../workers/schools/commands.ts";
import { nextSchoolId } from "../../workers/schools/editing.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { SlugField } from "../components/admin/slug-field.tsx";
import { TextField } from "../components/ui/field.tsx";
import { fieldError, useFocusInvalid } from "../components/ui/field-error.tsx";
import { FormFooter } from "../components/ui/form-footer.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-add-school";

export const meta: Route.MetaFunction = () => [{ title: "Add School · Lectern Admin" }];

const FIELDS = [
  { key: "schoolName", label: "School name", required: true, autoComplete: "organization" },
  { key: "address1", label: "Address line 1", required: true, autoComplete: "address-line1" },
  { key: "address2", label: "Address line 2", required: false, autoComplete: "address-line2" },
  { key: "address3", label: "Address line 3", required: false, autoComplete: "address-line3" },
  { key: "city", label: "City", required: true, autoComplete: "address-level2" },
  { key: "state", label: "State", required: true, autoComplete: "address-level1" },
  { key: "zipCode", label: "ZIP code", required: true, autoComplete: "postal-code" },
  { key: "email", label: "School e-mail", required: true, autoComplete: "email" },
  { key: "principal", label: "Principal", required: false, autoComplete: "off" },
] as const;

type Key = (typeof FIELDS)[number]["key"];
/** What the admin typed, sent back with a refusal so a page posted without JavaScript keeps it. */
type Entered = Record<Key | "slug" | "teacherLimit", string>;

export async function loader({ context }: Route.LoaderArgs) {
  return { nextId: await nextSchoolId(context.get(appContext).db) };
}

/** As POST /api/schools: the same schema, the same refusals, the same audit entry; then the new school's page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const entered = Object.fromEntries([...FIELDS.map((f) => f.key), "slug", "teacherLimit"].map((key) => [key, text(key)])) as Entered;
  const missing = FIELDS.filter((f) => f.required && !entered[f.key].trim());
  if (missing[0]) {
    const refused = failure("invalid", `Please fill in: ${missing.map((f) => f.label).join(", ")}`, missing[0].key);
    return reply(refused, { entered });
  }
  const outcome = await runCommand({ context, request }, createSchoolCommand, {
    ...Object.fromEntries(FIELDS.map((f) => [f.key, entered[f.key]]).filter(([, v]) => v?.trim() !== "")),
    slug: entered.slug || undefined,
    teacherLimit: entered.teacherLimit,
  });
  if (!outcome.ok) return reply(outcome, { entered });
  return redirect(`/admin/school/${outcome.value.school.id}`);
}

export default function AdminAddSchool({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const entered = actionData?.entered;
  const [values, setValues] = useState<Record<Key, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f.key, entered?.[f.key] ?? ""])) as Record<Key, string>,
  );
  const [slug, setSlug] = useState(entered?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(Boolean(entered?.slug));
  const [teacherLimit, setTeacherLimit] = useState(entered?.teacherLimit ?? "25");
  const effectiveSlug = slugEdited ? slug : suggestSlug(values.schoolName);
  // Busy from the post until the new school's page has loaded, as the page was before.
  const saving = navigation.formData !== undefined;
  // The refusal stands until the next post: its message above the button, its field marked.
  const refused = navigation.state === "submitting" ? undefined : actionData;
  const error = refused?.error;
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);

  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Add School" description={`This will be school #${loaderData.nextId}.`} />
      <Form ref={form} method="post" noValidate className={`${cardClasses} grid gap-4 sm:grid-cols-2`}>
        {FIELDS.map((field) => (
          <div key={field.key} className={field.key === "schoolName" || field.key.startsWith("address") ? "sm:col-span-2" : ""}>
            <TextField
              id={`school-${field.key}`}
              label={`${field.label}${field.required ? "" : " (optional)"}`}
              error={fieldError(refused, field.key)}
              name={field.key}
              autoComplete={field.autoComplete}
              value={values[field.key]}
              onChange={(e) => setValues((v) => ({ ...v, [field.key]: e.target.value }))}
            />
          </div>
        ))}
        <SlugField
          name="slug"
          error={fieldError(refused, "slug")}
          value={effectiveSlug}
          onChange={(next) => {
            setSlugEdited(true);
            setSlug(next);
          }}
        />
        <TextField
          id="school-limit"
          label="Teacher limit"
          hint="How many teachers may register."
          error={fieldError(refused, "teacherLimit")}
          name="teacherLimit"
          type="number"
          min={1}
          max={10000}
          value={teacherLimit}
          onChange={(e) => setTeacherLimit(e.target.value)}
        />
        <FormFooter error={error} busy={saving} label="Add School" busyLabel="Saving..." />
      </Form>
    </div>
  );
}

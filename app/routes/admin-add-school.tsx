import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { slugFromName as suggestSlug } from "../../workers/schools/slug-from-name.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { SlugField } from "../components/admin/slug-field.tsx";
import { Button } from "../components/ui/button.tsx";
import { Field, inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
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

export default function AdminAddSchool() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Key, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f.key, ""])) as Record<Key, string>,
  );
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [teacherLimit, setTeacherLimit] = useState("25");
  const [error, setError] = useState<string | null>(null);
  const nextId = useQuery({
    queryKey: ["next-school-id"],
    queryFn: () => requestJson<{ nextId: number }>("/api/schools/next-id", { fallback: "" }),
  });
  const effectiveSlug = slugEdited ? slug : suggestSlug(values.schoolName);

  const create = useMutation({
    mutationFn: () =>
      requestJson<{ school: { id: number } }>("/api/schools", {
        body: {
          ...Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== "")),
          slug: effectiveSlug || undefined,
          teacherLimit: Number(teacherLimit),
        },
        fallback: "Failed to create the school",
      }),
    onSuccess: ({ school }) => navigate(`/admin/school/${school.id}`),
    onError: (e) => setError(e.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const missing = FIELDS.filter((f) => f.required && !values[f.key].trim()).map((f) => f.label);
    if (missing.length) return setError(`Please fill in: ${missing.join(", ")}`);
    create.mutate();
  }

  return (
    <div className="max-w-3xl">
      <AdminPageHeader
        title="Add School"
        description={
          nextId.data ? `This will be school #${nextId.data.nextId}.` : "Add one school by hand, or import many from a CSV file."
        }
      />
      <form onSubmit={submit} noValidate className={`${cardClasses} grid gap-4 sm:grid-cols-2`}>
        {FIELDS.map((field) => (
          <div key={field.key} className={field.key === "schoolName" || field.key.startsWith("address") ? "sm:col-span-2" : ""}>
            <Field label={`${field.label}${field.required ? "" : " (optional)"}`} htmlFor={`school-${field.key}`}>
              <input
                id={`school-${field.key}`}
                className={inputClasses}
                autoComplete={field.autoComplete}
                value={values[field.key]}
                onChange={(e) => setValues((v) => ({ ...v, [field.key]: e.target.value }))}
              />
            </Field>
          </div>
        ))}
        <SlugField
          value={effectiveSlug}
          onChange={(next) => {
            setSlugEdited(true);
            setSlug(next);
          }}
        />
        <Field label="Teacher limit" htmlFor="school-limit" hint="How many teachers may register.">
          <input
            id="school-limit"
            type="number"
            min={1}
            max={10000}
            className={inputClasses}
            value={teacherLimit}
            onChange={(e) => setTeacherLimit(e.target.value)}
          />
        </Field>
        {error && (
          <div className="sm:col-span-2">
            <MessageBox text={error} />
          </div>
        )}
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Saving..." : "Add School"}
          </Button>
        </div>
      </form>
    </div>
  );
}

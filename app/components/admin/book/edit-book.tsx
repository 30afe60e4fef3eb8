import { useRef } from "react";
import { Form, useNavigation } from "react-router";
import { formatFileSize } from "../../../lib/format-size.ts";
import type { Route } from "../../../routes/+types/admin-book";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { FormFooter } from "../../ui/form-footer.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { GradeOptions } from "../../ui/options.tsx";

type BookPageData = Route.ComponentProps["loaderData"];
type BookActionData = Route.ComponentProps["actionData"];

const TEXT_FIELDS = [
  ["title", "Title"],
  ["author1", "Author"],
  ["author2", "Second author"],
  ["isbn", "ISBN"],
  ["subject", "Subject"],
] as const;

/** "1.2 MB, 24 pages", "1.2 MB · Preparing pages" (an upload whose pages are not ready yet) or "none". */
function pdfSummary(book: BookPageData["book"]): string {
  if (book.pdfState === "none") return "none";
  const size = book.pdfSize === null ? null : formatFileSize(book.pdfSize);
  if (book.pdfState === "preparing") return [size, "Preparing pages"].filter(Boolean).join(" · ");
  return [size, `${book.pageCount ?? "?"} pages`].filter(Boolean).join(", ");
}

/** The book's details, posted to the page's action (intent "update"); a refusal shows under the form, and beside the field it names. */
export function EditBook({ book, answer }: { book: BookPageData["book"]; answer: BookActionData }) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "update";
  const refused = answer && "error" in answer && answer.intent === "update" ? answer : null;
  const error = refused?.error;
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  return (
    <Form ref={form} method="post" preventScrollReset className="grid gap-3 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value="update" />
      {/* A refusal's sentence sits outside the label, so that it does not become part of the field's name. */}
      {TEXT_FIELDS.map(([key, label]) => (
        <div key={key}>
          <label className="block text-sm" htmlFor={`edit-${key}`}>
            <span className="font-medium">{label}</span>
            <input
              id={`edit-${key}`}
              name={key}
              className={`${inputClasses} mt-1`}
              defaultValue={book[key] ?? ""}
              {...invalidProps(`edit-${key}`, fieldError(refused, key))}
            />
          </label>
          <FieldError inputId={`edit-${key}`} message={fieldError(refused, key)} className="mt-1" />
        </div>
      ))}
      <div>
        <label className="block text-sm" htmlFor="edit-grade">
          <span className="font-medium">Grade level</span>
          <select
            id="edit-grade"
            name="gradeLevel"
            className={`${inputClasses} mt-1`}
            defaultValue={book.gradeLevel ? String(book.gradeLevel) : ""}
            {...invalidProps("edit-grade", fieldError(refused, "gradeLevel"))}
          >
            <option value="">Not for one grade</option>
            <GradeOptions />
          </select>
        </label>
        <FieldError inputId="edit-grade" message={fieldError(refused, "gradeLevel")} className="mt-1" />
      </div>
      <div className="sm:col-span-2">
        <label className="block text-sm" htmlFor="edit-description">
          <span className="font-medium">Description</span>
          <textarea
            id="edit-description"
            name="description"
            rows={3}
            className={`${inputClasses} mt-1`}
            defaultValue={book.description}
            {...invalidProps("edit-description", fieldError(refused, "description"))}
          />
        </label>
        <FieldError inputId="edit-description" message={fieldError(refused, "description")} className="mt-1" />
      </div>
      <p className="text-xs text-slate-500 sm:col-span-2">
        PDF: {pdfSummary(book)} · Added <LocalDateTime value={book.createdAt} />
      </p>
      <FormFooter error={error} busy={saving} label="Save changes" busyLabel="Saving..." atStart />
    </Form>
  );
}

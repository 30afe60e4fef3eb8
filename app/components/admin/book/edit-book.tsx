import { Form, useNavigation } from "react-router";
import { formatFileSize } from "../../../lib/format-size.ts";
import type { Route } from "../../../routes/+types/admin-book";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { MessageBox } from "../../ui/message-box.tsx";

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

/** The book's details, posted to the page's action (intent "update"); a refusal shows under the form. */
export function EditBook({ book, answer }: { book: BookPageData["book"]; answer: BookActionData }) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "update";
  const error = answer && "error" in answer && answer.intent === "update" ? answer.error : null;
  return (
    <Form method="post" preventScrollReset className="grid gap-3 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value="update" />
      {TEXT_FIELDS.map(([key, label]) => (
        <label key={key} className="block text-sm" htmlFor={`edit-${key}`}>
          <span className="font-medium">{label}</span>
          <input id={`edit-${key}`} name={key} className={`${inputClasses} mt-1`} defaultValue={book[key] ?? ""} />
        </label>
      ))}
      <label className="block text-sm" htmlFor="edit-grade">
        <span className="font-medium">Grade level</span>
        <select
          id="edit-grade"
          name="gradeLevel"
          className={`${inputClasses} mt-1`}
          defaultValue={book.gradeLevel ? String(book.gradeLevel) : ""}
        >
          <option value="">Not for one grade</option>
          {Array.from({ length: 12 }, (_, i) => String(i + 1)).map((g) => (
            <option key={g} value={g}>
              Standard {g}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm sm:col-span-2" htmlFor="edit-description">
        <span className="font-medium">Description</span>
        <textarea id="edit-description" name="description" rows={3} className={`${inputClasses} mt-1`} defaultValue={book.description} />
      </label>
      <p className="text-xs text-slate-500 sm:col-span-2">
        PDF: {pdfSummary(book)} · Added <LocalDateTime value={book.createdAt} />
      </p>
      {error && (
        <div className="sm:col-span-2">
          <MessageBox text={error} />
        </div>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save changes"}
        </Button>
      </div>
    </Form>
  );
}

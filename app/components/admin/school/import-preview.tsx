import type { ImportValidation } from "../../../../workers/schools/import-rows.ts";
import { Button } from "../../ui/button.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses, rowClasses, TableHead, tableClasses } from "../admin-page.tsx";

/** The three ways to save a checked file (the page's action intents, as the API's three endpoints). */
export type SaveIntent = "bulk" | "save-generated" | "update-duplicates";

const STATUS = {
  new: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  duplicate: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  invalid: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

/** A field of a checked row as text (rows carry what the file said, or the values the schema made of it). */
const shown = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");

/** The checked rows with their status and problems, and the save buttons the check allows. */
export function ImportPreview({
  validation,
  busy,
  onSave,
}: {
  validation: ImportValidation;
  busy: boolean;
  onSave: (intent: SaveIntent, label: string) => void;
}) {
  const { summary } = validation;
  const missingSlugs = validation.rows.some((r) => r.status === "new" && !r.data.slug);
  return (
    <section className={cardClasses} aria-labelledby="preview-title">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="preview-title" className="font-semibold">
          Preview: {summary.new} new, {summary.duplicate} already there, {summary.invalid} with errors
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => onSave("bulk", "Saving...")}
            disabled={busy || summary.invalid > 0 || summary.duplicate > 0 || summary.new === 0 || missingSlugs}
          >
            Save {summary.new} new schools
          </Button>
          {missingSlugs && (
            <Button
              onClick={() => onSave("save-generated", "Saving with generated slugs...")}
              disabled={busy || summary.invalid > 0 || summary.duplicate > 0}
            >
              Save with generated slugs
            </Button>
          )}
          {summary.duplicate > 0 && (
            <Button variant="secondary" onClick={() => onSave("update-duplicates", "Updating...")} disabled={busy || summary.invalid > 0}>
              Update {summary.duplicate} existing
            </Button>
          )}
        </div>
      </div>
      {summary.invalid > 0 && (
        <MessageBox text="Fix the rows marked invalid in the file and choose it again: the import is all or nothing." />
      )}
      <div className="mt-3 max-h-[32rem] overflow-auto">
        <table className={tableClasses}>
          <TableHead columns={["Row", "Status", "School", "Slug", "Problems"]} pad="pr-3" />
          <tbody>
            {validation.rows.map((row) => (
              <tr key={row.index} className={`${rowClasses} align-top`}>
                <td className="py-2 pr-3 tabular-nums">{row.row}</td>
                <td className="py-2 pr-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS[row.status]}`}>{row.status}</span>
                </td>
                <td className="py-2 pr-3">{shown(row.data.schoolName) || shown(row.data.name) || "—"}</td>
                <td className="py-2 pr-3 font-mono text-xs">
                  {shown(row.data.slug) || (row.generatedSlug ? `${row.generatedSlug} (generated)` : "—")}
                </td>
                <td className="py-2 pr-3 text-red-700 dark:text-red-300">{row.errors.join("; ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

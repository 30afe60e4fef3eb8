import type { ImportValidation } from "../../../../workers/schools/import-rows.ts";
import { Button } from "../../ui/button.tsx";
import { CheckedRows, ROW_TONES } from "../checked-rows.tsx";

/** The three ways to save a checked file (the page's action intents, as the API's three endpoints). */
export type SaveIntent = "bulk" | "save-generated" | "update-duplicates";

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
    <CheckedRows
      titleId="preview-title"
      title={`Preview: ${summary.new} new, ${summary.duplicate} already there, ${summary.invalid} with errors`}
      actions={
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
      }
      invalid={summary.invalid}
      columns={["School", "Slug"]}
      rows={validation.rows}
      rowKey={(row) => row.index}
      badge={(row) => ({ label: row.status, classes: ROW_TONES[row.status] })}
      cells={(row) => (
        <>
          <td className="py-2 pr-3">{shown(row.data.schoolName) || shown(row.data.name) || "—"}</td>
          <td className="py-2 pr-3 font-mono text-xs">
            {shown(row.data.slug) || (row.generatedSlug ? `${row.generatedSlug} (generated)` : "—")}
          </td>
        </>
      )}
    />
  );
}

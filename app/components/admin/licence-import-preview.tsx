import { formatDay } from "#shared/rules/licence.ts";
import type { LicenceImportStatus, LicenceImportValidation } from "../../../workers/licences/import.ts";
import { Button } from "../ui/button.tsx";
import { CheckedRows, ROW_TONES } from "./checked-rows.tsx";

const STATUS: Record<LicenceImportStatus, { label: string; classes: string }> = {
  new: { label: "new", classes: ROW_TONES.new },
  change: { label: "changes", classes: ROW_TONES.change },
  unchanged: { label: "unchanged", classes: ROW_TONES.unchanged },
  invalid: { label: "invalid", classes: ROW_TONES.invalid },
};

/** The checked rows with what importing each does and its problems, and the import button the check allows. */
export function LicenceImportPreview({
  validation,
  busy,
  onImport,
}: {
  validation: LicenceImportValidation;
  busy: boolean;
  onImport: () => void;
}) {
  const { summary } = validation;
  const writes = summary.new + summary.change;
  return (
    <CheckedRows
      titleId="licence-preview-title"
      title={`Preview: ${summary.new} new, ${summary.change} to change, ${summary.unchanged} unchanged, ${summary.invalid} with errors`}
      actions={
        <Button onClick={onImport} disabled={busy || summary.invalid > 0 || writes === 0}>
          {`Import ${writes} licence(s)`}
        </Button>
      }
      invalid={summary.invalid}
      columns={["School", "Book", "Period", "Seats"]}
      rows={validation.rows}
      rowKey={(row) => row.row}
      badge={(row) => STATUS[row.status]}
      cells={(row) => (
        <>
          <td className="py-2 pr-3">{row.school || "—"}</td>
          <td className="py-2 pr-3">{row.book || "—"}</td>
          <td className="py-2 pr-3 whitespace-nowrap">
            {row.startsOn ? `${formatDay(row.startsOn)} – ${row.endsOn ? formatDay(row.endsOn) : "no end"}` : "—"}
          </td>
          <td className="py-2 pr-3 tabular-nums">{row.status === "invalid" && !row.startsOn ? "—" : (row.seats ?? "Unlimited")}</td>
        </>
      )}
    />
  );
}

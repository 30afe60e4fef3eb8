import { formatDay } from "#shared/rules/licence.ts";
import type { LicenceImportStatus, LicenceImportValidation } from "../../../workers/licences/import.ts";
import { Button } from "../ui/button.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { cardClasses, rowClasses, TableHead, tableClasses } from "./admin-page.tsx";

const STATUS: Record<LicenceImportStatus, { label: string; classes: string }> = {
  new: { label: "new", classes: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200" },
  change: { label: "changes", classes: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200" },
  unchanged: { label: "unchanged", classes: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200" },
  invalid: { label: "invalid", classes: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200" },
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
    <section className={cardClasses} aria-labelledby="licence-preview-title">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="licence-preview-title" className="font-semibold">
          {`Preview: ${summary.new} new, ${summary.change} to change, ${summary.unchanged} unchanged, ${summary.invalid} with errors`}
        </h2>
        <Button onClick={onImport} disabled={busy || summary.invalid > 0 || writes === 0}>
          {`Import ${writes} licence(s)`}
        </Button>
      </div>
      {summary.invalid > 0 && (
        <MessageBox text="Fix the rows marked invalid in the file and choose it again: the import is all or nothing." />
      )}
      <div className="mt-3 max-h-[32rem] overflow-auto">
        <table className={tableClasses}>
          <TableHead columns={["Row", "Status", "School", "Book", "Period", "Seats", "Problems"]} pad="pr-3" />
          <tbody>
            {validation.rows.map((row) => (
              <tr key={row.row} className={`${rowClasses} align-top`}>
                <td className="py-2 pr-3 tabular-nums">{row.row}</td>
                <td className="py-2 pr-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS[row.status].classes}`}>
                    {STATUS[row.status].label}
                  </span>
                </td>
                <td className="py-2 pr-3">{row.school || "—"}</td>
                <td className="py-2 pr-3">{row.book || "—"}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {row.startsOn ? `${formatDay(row.startsOn)} – ${row.endsOn ? formatDay(row.endsOn) : "no end"}` : "—"}
                </td>
                <td className="py-2 pr-3 tabular-nums">{row.status === "invalid" && !row.startsOn ? "—" : (row.seats ?? "Unlimited")}</td>
                <td className="py-2 pr-3 text-red-700 dark:text-red-300">{row.errors.join("; ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import type { ReactNode } from "react";
import { MessageBox } from "../ui/message-box.tsx";
import { cardClasses, rowClasses, TableHead, tableClasses } from "./admin-page.tsx";

/** A checked row's status badge colours, by what saving the file would do with the row. */
export const ROW_TONES = {
  new: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  change: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  unchanged: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  duplicate: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  invalid: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

/**
 * A checked CSV file before it is saved (Import Schools, Import Licences): the counts in the heading,
 * the buttons the check allows, and every row with the file's row number, its status and its
 * problems around the import's own columns. An import is all or nothing, so one invalid row stops it.
 */
export function CheckedRows<Row extends { row: number; errors: string[] }>({
  titleId,
  title,
  actions,
  invalid,
  columns,
  rows,
  rowKey,
  badge,
  cells,
}: {
  titleId: string;
  title: string;
  actions: ReactNode;
  invalid: number;
  columns: string[];
  rows: Row[];
  rowKey: (row: Row) => number;
  badge: (row: Row) => { label: string; classes: string };
  cells: (row: Row) => ReactNode;
}) {
  return (
    <section className={cardClasses} aria-labelledby={titleId}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {invalid > 0 && <MessageBox text="Fix the rows marked invalid in the file and choose it again: the import is all or nothing." />}
      <div className="mt-3 max-h-[32rem] overflow-auto">
        <table className={tableClasses}>
          <TableHead columns={["Row", "Status", ...columns, "Problems"]} pad="pr-3" />
          <tbody>
            {rows.map((row) => {
              const { label, classes } = badge(row);
              return (
                <tr key={rowKey(row)} className={`${rowClasses} align-top`}>
                  <td className="py-2 pr-3 tabular-nums">{row.row}</td>
                  <td className="py-2 pr-3">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${classes}`}>{label}</span>
                  </td>
                  {cells(row)}
                  <td className="py-2 pr-3 text-red-700 dark:text-red-300">{row.errors.join("; ")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import { Link } from "react-router";
import { dayOf, formatDay } from "#shared/rules/licence.ts";
import type { BatchSummary, LabelTotals } from "../../../../workers/codes/batches.ts";
import { rowClasses, TableHead, tableClasses } from "../admin-page.tsx";
import { batchState, booksLine, termsLine } from "./terms.ts";

const linkClasses = "text-indigo-700 underline underline-offset-2 dark:text-indigo-300";
const stateClasses = {
  Open: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  Expired: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  Withdrawn: "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
};

/** A batch's state as a badge. */
export function BatchStateBadge({ batch }: { batch: Pick<BatchSummary, "revokedAt" | "expired"> }) {
  const state = batchState(batch);
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${stateClasses[state]}`}>{state}</span>;
}

/** The batches, newest first: each one's label and books, the terms a code gives, its counts and state. */
export function BatchesTable({ batches }: { batches: BatchSummary[] }) {
  return (
    // On a phone the table scrolls sideways in its card, not the page.
    <div className="-mx-2 overflow-x-auto px-2">
      <table className={`${tableClasses} min-w-[52rem]`}>
        <caption className="sr-only">Batches of bookstore codes, newest first</caption>
        <TableHead columns={["Batch", "Books", "Each code gives", "Issued", "Redeemed", "Withdrawn", "Redeem by", "State"]} />
        <tbody>
          {batches.map((batch) => (
            <tr key={batch.id} className={`${rowClasses} align-top`}>
              <th scope="row" className="min-w-40 py-2 pr-4 font-medium">
                <Link to={`/admin/codes/${batch.id}`} className={linkClasses}>
                  {batch.label}
                </Link>
                <span className="block text-xs font-normal text-slate-500">
                  Batch {batch.id}, made {formatDay(dayOf(batch.createdAt))}
                </span>
              </th>
              <td className="max-w-56 py-2 pr-4">{booksLine(batch.books)}</td>
              <td className="min-w-48 max-w-64 py-2 pr-4 text-slate-700 dark:text-slate-300">{termsLine(batch)}</td>
              <td className="py-2 pr-4 tabular-nums">{batch.issued.toLocaleString("en-US")}</td>
              <td className="py-2 pr-4 tabular-nums">{batch.redeemed.toLocaleString("en-US")}</td>
              <td className="py-2 pr-4 tabular-nums">{batch.revoked.toLocaleString("en-US")}</td>
              <td className="py-2 pr-4 whitespace-nowrap">{batch.redeemBy ? formatDay(batch.redeemBy) : "—"}</td>
              <td className="py-2 pr-4">
                <BatchStateBadge batch={batch} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Totals per bookstore label (what each channel sold), each label a link to its batches. */
export function LabelTotalsTable({ labels }: { labels: LabelTotals[] }) {
  return (
    <table className={tableClasses}>
      <caption className="sr-only">Codes per bookstore label</caption>
      <TableHead columns={["Label", "Batches", "Issued", "Redeemed", "Withdrawn"]} />
      <tbody>
        {labels.map((row) => (
          <tr key={row.label} className={rowClasses}>
            <th scope="row" className="py-2 pr-4 font-medium">
              <Link to={`/admin/codes?label=${encodeURIComponent(row.label)}`} className={linkClasses}>
                {row.label}
              </Link>
            </th>
            <td className="py-2 pr-4 tabular-nums">{row.batches.toLocaleString("en-US")}</td>
            <td className="py-2 pr-4 tabular-nums">{row.issued.toLocaleString("en-US")}</td>
            <td className="py-2 pr-4 tabular-nums">{row.redeemed.toLocaleString("en-US")}</td>
            <td className="py-2 pr-4 tabular-nums">{row.revoked.toLocaleString("en-US")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

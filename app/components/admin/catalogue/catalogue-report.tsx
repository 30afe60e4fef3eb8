import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { UploadPhase } from "../../../lib/catalogue-upload.client.ts";
import { Button } from "../../ui/button.tsx";
import { rowClasses, TableHead, tableClasses } from "../admin-page.tsx";
import { PreparingProgress } from "../preparation/progress-bar.tsx";
import { type CatalogueReport, fetchReport, type ReportRow, reportKey } from "./catalogue-calls.ts";

/** While pages are being prepared or files go up the report moves every few seconds; else it stays put. */
export const REPORT_POLL_MS = 3_000;

const tones: Record<ReportRow["state"], string> = {
  waiting: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  uploading: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  preparing: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
  ready: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  refused: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  removed: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
};

/** The row's state in words: the server's, or this browser's upload while it runs. */
export function stateText(row: ReportRow, phase: UploadPhase | undefined): { label: ReportRow["state"]; detail: string | null } {
  if (row.state === "waiting" && phase) {
    if (phase.kind === "queued") return { label: "waiting", detail: "Queued to upload" };
    if (phase.kind === "cover") return { label: "uploading", detail: "Sending the cover" };
    if (phase.kind === "pdf") return { label: "uploading", detail: `Uploading the PDF: ${Math.round(phase.progress * 100)}%` };
    if (phase.kind === "failed") return { label: "waiting", detail: `Upload failed: ${phase.error}` };
  }
  const note = phase?.kind === "done" ? phase.note : null;
  switch (row.state) {
    case "waiting":
      return { label: "waiting", detail: "Waiting for its PDF" };
    case "uploading":
      return { label: "uploading", detail: note };
    case "preparing":
      return { label: "preparing", detail: note };
    case "ready": {
      const pages = `${row.pageCount ?? row.handled} pages`;
      return { label: "ready", detail: row.failed ? `${pages}, ${row.failed} could not be displayed` : note ? `${pages}. ${note}` : pages };
    }
    case "refused":
      return { label: "refused", detail: row.reason };
    case "removed":
      return { label: "removed", detail: "The book was deleted" };
  }
}

/** The import's books, live: polled while any is uploading or being prepared, or this browser still sends files. */
export function CatalogueReportView({
  initial,
  phases,
  sending,
  onRetry,
}: {
  initial: CatalogueReport;
  phases: Record<number, UploadPhase>;
  sending: boolean;
  onRetry: ((row: number) => void) | null;
}) {
  const query = useQuery({
    queryKey: reportKey(initial.id),
    queryFn: () => fetchReport(initial.id),
    initialData: initial,
    refetchInterval: (q) => {
      const counts = q.state.data?.counts;
      return sending || (counts && counts.uploading + counts.preparing > 0) ? REPORT_POLL_MS : false;
    },
  });
  const report = query.data;
  // Counted as the rows show them: a book this browser is sending reads "uploading" before the server knows.
  const counts = { waiting: 0, uploading: 0, preparing: 0, ready: 0, refused: 0, removed: 0 };
  for (const row of report.rows) counts[stateText(row, phases[row.row]).label]++;
  const summary = `${counts.ready} ready, ${counts.preparing} being prepared, ${counts.uploading} uploading, ${counts.waiting} waiting for a file, ${counts.refused} refused`;
  return (
    <section aria-labelledby="report-title" className="space-y-3">
      <h2 id="report-title" className="font-semibold">
        {`${report.rows.length} books: ${summary}`}
      </h2>
      {query.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {(query.error as Error).message}. Trying again...
        </p>
      )}
      <div className="max-h-[40rem] overflow-auto">
        <table className={tableClasses}>
          <TableHead columns={["Row", "Book", "PDF", "State"]} pad="pr-3" />
          <tbody>
            {report.rows.map((row) => (
              <ReportLine key={row.row} row={row} phase={phases[row.row]} onRetry={onRetry} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ReportLine({ row, phase, onRetry }: { row: ReportRow; phase: UploadPhase | undefined; onRetry: ((row: number) => void) | null }) {
  const { label, detail } = stateText(row, phase);
  const gone = row.state === "refused" || row.state === "removed";
  return (
    <tr className={`${rowClasses} align-top`}>
      <td className="py-2 pr-3 tabular-nums">{row.row}</td>
      <td className="py-2 pr-3 font-medium">
        {gone ? (
          row.title
        ) : (
          <Link to={`/admin/book/${row.bookId}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
            {row.title}
          </Link>
        )}
      </td>
      <td className="py-2 pr-3 break-all">{row.pdfFile}</td>
      <td className="w-2/5 space-y-1 py-2 pr-3">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tones[label]}`}>{label}</span>
        {row.state === "preparing" && (
          <PreparingProgress handled={row.handled} total={row.pageCount} label={`Pages of ${row.title} prepared`} />
        )}
        {detail && <p className="text-slate-600 dark:text-slate-400">{detail}</p>}
        {phase?.kind === "failed" && row.state === "waiting" && onRetry && (
          <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => onRetry(row.row)}>
            Try again
          </Button>
        )}
      </td>
    </tr>
  );
}

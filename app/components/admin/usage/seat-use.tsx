import { Link } from "react-router";
import { formatDay } from "#shared/rules/licence.ts";
import type { LicenceSeatUse } from "../../../../workers/licences/seat-use.ts";
import type { DayRange } from "../../../../workers/reports/range.ts";
import { count, longDay } from "./format.ts";
import { CsvLink, ReportCard, ReportTable, reportUrl } from "./usage-parts.tsx";

/** "4 of 5" for a licence with seats, "4" without a limit. */
export function peakText(use: Pick<LicenceSeatUse, "peakReaders" | "seats">): string {
  return use.seats === null ? count(use.peakReaders) : `${count(use.peakReaders)} of ${count(use.seats)}`;
}

/** "3 days (5 teachers)", or "None". */
export function turnedAwayText(use: Pick<LicenceSeatUse, "daysTurnedAway" | "turnedAway">): string {
  if (use.daysTurnedAway === 0) return "None";
  const days = use.daysTurnedAway === 1 ? "1 day" : `${count(use.daysTurnedAway)} days`;
  const teachers = use.turnedAway === 1 ? "1 teacher" : `${count(use.turnedAway)} teachers`;
  return `${days} (${teachers})`;
}

/**
 * Each licence's seats over the report's range, on a school's page (one row per book) or a book's
 * page (one row per school): the most teachers reading at once, the days every seat was taken, and
 * the days a teacher was turned away, the licences that turned teachers away first.
 */
export function SeatUse({
  uses,
  range,
  by,
  scope,
}: {
  uses: LicenceSeatUse[];
  range: DayRange;
  /** What each row names: the book (a school's page) or the school (a book's page). */
  by: "book" | "school";
  scope: { schoolId: number } | { bookId: number };
}) {
  const rangeText = `${longDay(range.from)} – ${longDay(range.to)}`;
  const short = uses.filter((use) => use.daysTurnedAway > 0).length;
  return (
    <ReportCard title="Licences and seats" actions={<CsvLink href={reportUrl("seats", range, scope)}>Download CSV (per day)</CsvLink>}>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
        {short === 0
          ? "The most teachers reading each book at once. No teacher was turned away for want of a seat in this range."
          : `${short} licence(s) turned teachers away for want of a seat in this range: they may need more seats.`}
      </p>
      <ReportTable
        caption={`Seats per licence, ${rangeText}`}
        columns={[
          by === "book"
            ? {
                name: "Book",
                cell: (use) => (
                  <Link to={`/admin/book/${use.bookId}`} className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
                    {use.title}
                  </Link>
                ),
              }
            : {
                name: "School",
                cell: (use) => (
                  <Link to={`/admin/school/${use.schoolId}`} className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
                    {use.school}
                  </Link>
                ),
              },
          { name: "Licence", cell: (use) => `${formatDay(use.startsOn)} – ${use.endsOn ? formatDay(use.endsOn) : "no end"}` },
          { name: "Peak readers at once", cell: peakText, numeric: true },
          { name: "Days all seats in use", cell: (use) => (use.seats === null ? "—" : count(use.daysFull)), numeric: true },
          {
            name: "Turned away",
            cell: (use) => (
              <span className={use.daysTurnedAway ? "font-semibold text-amber-800 dark:text-amber-300" : undefined}>
                {turnedAwayText(use)}
              </span>
            ),
            numeric: true,
          },
        ]}
        rows={uses}
        rowKey={(use) => use.licenceId}
        empty={by === "book" ? "The school has no licences." : "No school has a licence for this book."}
      />
    </ReportCard>
  );
}

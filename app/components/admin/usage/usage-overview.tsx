import { Link } from "react-router";
import type { UsageOverview as Overview } from "../../../../workers/reports/overview.ts";
import type { Ranked } from "../../../../workers/reports/rankings.ts";
import { count, hours, longDay } from "./format.ts";
import { CsvLink, Figure, RangePicker, ReportCard, ReportTable, reportUrl } from "./usage-parts.tsx";
import { UsageTrend } from "./usage-trend.tsx";

const rankedColumns = (kind: "book" | "school") =>
  [
    {
      name: kind === "book" ? "Book" : "School",
      cell: (row: Ranked) => (
        <Link to={`/admin/${kind}/${row.id}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          {row.name}
        </Link>
      ),
    },
    { name: "Readers", cell: (row: Ranked) => count(row.readers), numeric: true },
    { name: "Pages", cell: (row: Ranked) => count(row.pagesRead), numeric: true },
    { name: "Hours", cell: (row: Ranked) => hours(row.readingMinutes), numeric: true },
  ] as const;

const time = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false });

/** The admin home's usage overview: who reads, how much, what, where, and which schools have gone quiet. */
export function UsageOverview({ overview }: { overview: Overview }) {
  const { usage, active, rankings, inactive, days } = overview;
  const range = { from: usage.from, to: usage.to };
  const rangeText = `${longDay(usage.from)} – ${longDay(usage.to)}`;
  const updated = rankings.computedAt === null ? undefined : `Updated ${time.format(rankings.computedAt)} UTC`;
  return (
    <section aria-labelledby="usage-heading" className="mb-8 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="usage-heading" className="text-xl font-bold tracking-tight">
            Usage
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">{rangeText} (UTC days)</p>
        </div>
        <RangePicker current={days} />
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Figure label="Active teachers" value={count(active.last7Days)} note={`last 7 days, of ${count(active.teachers)}`} />
        <Figure label="Active teachers" value={count(active.last30Days)} note={`last 30 days, of ${count(active.teachers)}`} />
        <Figure label="Books opened" value={count(usage.totals.booksOpened)} note={`${count(usage.totals.activeTeachers)} readers`} />
        <Figure label="Pages read" value={count(usage.totals.pagesRead)} />
        <Figure label="Reading hours" value={hours(usage.totals.readingMinutes)} />
        <Figure label="Quiet schools" value={count(inactive.count)} note="no reading in 30 days" />
      </div>
      <ReportCard title="Reading per day" actions={<CsvLink href={reportUrl("usage", range)} />}>
        <UsageTrend days={usage.days} scope="all schools" />
      </ReportCard>
      <div className="grid gap-4 lg:grid-cols-2">
        <ReportCard title="Top books" actions={<CsvLink href={reportUrl("books", range)} />}>
          <ReportTable
            caption={`Top books, ${rangeText}`}
            columns={rankedColumns("book")}
            rows={rankings.books}
            rowKey={(row) => row.id}
            empty="No book was read in this range."
          />
          {updated && <p className="mt-2 text-xs text-slate-500">{updated}</p>}
        </ReportCard>
        <ReportCard title="Top schools" actions={<CsvLink href={reportUrl("schools", range)} />}>
          <ReportTable
            caption={`Top schools, ${rangeText}`}
            columns={rankedColumns("school")}
            rows={rankings.schools}
            rowKey={(row) => row.id}
            empty="No school read in this range."
          />
          {updated && <p className="mt-2 text-xs text-slate-500">{updated}</p>}
        </ReportCard>
      </div>
      <ReportCard
        title="Schools with no reading in 30 days"
        actions={<CsvLink href="/api/reports/inactive-schools?format=csv">Download all as CSV</CsvLink>}
      >
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          {inactive.count === 0
            ? "Every school has read in the last 30 days."
            : `${count(inactive.count)} school${inactive.count === 1 ? "" : "s"} added over 30 days ago have not read since ${longDay(inactive.since)}: the renewals at risk.`}
        </p>
        {inactive.count > 0 && (
          <ReportTable
            caption="Schools with no reading in 30 days, longest quiet first"
            columns={[
              {
                name: "School",
                cell: (row) => (
                  <Link to={`/admin/school/${row.id}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                    {row.name}
                  </Link>
                ),
              },
              { name: "Teachers", cell: (row) => count(row.teachers), numeric: true },
              { name: "Last reading", cell: (row) => (row.lastActiveDay ? longDay(row.lastActiveDay) : "Never"), numeric: true },
            ]}
            rows={inactive.schools}
            rowKey={(row) => row.id}
            empty=""
          />
        )}
      </ReportCard>
    </section>
  );
}

import { Link } from "react-router";
import type { UsageOverview as Overview } from "../../../../workers/reports/overview.ts";
import { count, hours, longDay } from "./format.ts";
import { ActiveFigures, CsvLink, Figure, ReportCard, ReportTable, readingColumns, reportUrl, UsageHeading } from "./usage-parts.tsx";
import { UsageTrend } from "./usage-trend.tsx";

const time = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false });

/** The admin home's usage overview: who reads, how much, what, where, and which schools have gone quiet. */
export function UsageOverview({ overview }: { overview: Overview }) {
  const { usage, active, rankings, inactive, days } = overview;
  const range = { from: usage.from, to: usage.to };
  const rangeText = `${longDay(usage.from)} – ${longDay(usage.to)}`;
  const updated = rankings.computedAt === null ? undefined : `Updated ${time.format(rankings.computedAt)} UTC`;
  return (
    <section aria-labelledby="usage-heading" className="mb-8 space-y-4">
      <UsageHeading
        id="usage-heading"
        days={days}
        {...range}
        large
        freshness="Reading reaches these figures within 5 minutes; a school's own page is up to the minute."
      />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <ActiveFigures active={active} />
        <Figure label="Books opened" value={count(usage.totals.booksOpened)} note={`${count(usage.totals.activeTeachers)} readers`} />
        <Figure label="Pages read" value={count(usage.totals.pagesRead)} />
        <Figure label="Reading hours" value={hours(usage.totals.readingMinutes)} />
        <Figure label="Quiet schools" value={count(inactive.count)} note="no reading in 30 days" />
      </div>
      <ReportCard title="Reading per day" actions={<CsvLink href={reportUrl("usage", range)} />}>
        <UsageTrend days={usage.days} scope="all schools" />
      </ReportCard>
      <div className="grid gap-4 lg:grid-cols-2">
        {[
          { kind: "book" as const, rows: rankings.books, empty: "No book was read in this range." },
          { kind: "school" as const, rows: rankings.schools, empty: "No school read in this range." },
        ].map(({ kind, rows, empty }) => (
          <ReportCard key={kind} title={`Top ${kind}s`} actions={<CsvLink href={reportUrl(`${kind}s`, range)} />}>
            <ReportTable
              caption={`Top ${kind}s, ${rangeText}`}
              columns={readingColumns(kind)}
              rows={rows}
              rowKey={(row) => row.id}
              empty={empty}
            />
            {updated && <p className="mt-2 text-xs text-slate-500">{updated}</p>}
          </ReportCard>
        ))}
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

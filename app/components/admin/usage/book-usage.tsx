import type { bookReport } from "../../../../workers/reports/detail.ts";
import type { DayRange } from "../../../../workers/reports/range.ts";
import { BarChart } from "./bar-chart.tsx";
import { count, hours, longDay } from "./format.ts";
import { CsvLink, Figure, ReportCard, ReportTable, readingColumns, reportUrl, UsageHeading } from "./usage-parts.tsx";
import { UsageTrend } from "./usage-trend.tsx";

type Report = Awaited<ReturnType<typeof bookReport>>;

const pagesLabel = (from: number, to: number) => (from === to ? `Page ${from}` : `Pages ${from}–${to}`);

/** A book's reading: its figures and days, the schools reading it, and where readers stop. */
export function BookUsage({ bookId, days, report }: { bookId: number; days: number; report: Report }) {
  const { usage, schools, stops } = report;
  const range: DayRange = { from: usage.from, to: usage.to };
  const rangeText = `${longDay(usage.from)} – ${longDay(usage.to)}`;
  const stopped = stops.reduce((n, bucket) => n + bucket.readers, 0);
  const most = stops.reduce((best, bucket) => (bucket.readers > best.readers ? bucket : best), stops[0] ?? { from: 1, to: 1, readers: 0 });
  return (
    <section aria-labelledby="book-usage-heading" className="space-y-4">
      <UsageHeading id="book-usage-heading" days={days} {...range} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label="Schools reading" value={count(schools.length)} />
        <Figure label="Readers" value={count(usage.totals.activeTeachers)} note={`opened ${count(usage.totals.booksOpened)} times`} />
        <Figure label="Pages read" value={count(usage.totals.pagesRead)} />
        <Figure label="Reading hours" value={hours(usage.totals.readingMinutes)} />
      </div>
      <ReportCard title="Reading per day" actions={<CsvLink href={reportUrl("usage", range, { bookId })} />}>
        <UsageTrend days={usage.days} scope="this book" />
      </ReportCard>
      <div className="grid gap-4 xl:grid-cols-2">
        <ReportCard title="Schools reading it" actions={<CsvLink href={reportUrl("schools", range, { bookId })} />}>
          <ReportTable
            caption={`Schools reading this book, ${rangeText}`}
            columns={readingColumns("school")}
            rows={schools}
            rowKey={(row) => row.id}
            empty="No school read this book in this range."
          />
        </ReportCard>
        <ReportCard title="Where readers stop" actions={<CsvLink href={reportUrl("stop-pages", range, { bookId })} />}>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">The page each teacher who read in this range was last on.</p>
          {stopped === 0 ? (
            <p className="py-4 text-sm text-slate-500 dark:text-slate-400">No reader has a saved place in this range.</p>
          ) : (
            <BarChart
              points={stops.map((bucket) => ({
                key: String(bucket.from),
                tick: String(bucket.from),
                label: pagesLabel(bucket.from, bucket.to),
                value: bucket.readers,
              }))}
              valueName="Readers"
              keyName="Pages"
              summary={`Where ${stopped} readers stopped: most (${most.readers}) at ${pagesLabel(most.from, most.to).toLowerCase()}.`}
              tableCaption="Readers by the page they stopped at"
            />
          )}
        </ReportCard>
      </div>
    </section>
  );
}

import type { schoolReport } from "../../../../workers/reports/detail.ts";
import type { DayRange } from "../../../../workers/reports/range.ts";
import { count, hours, longDay } from "./format.ts";
import { ActiveFigures, CsvLink, Figure, ReportCard, ReportTable, readingColumns, reportUrl, UsageHeading } from "./usage-parts.tsx";
import { UsageTrend } from "./usage-trend.tsx";

type Report = Awaited<ReturnType<typeof schoolReport>>;

/** Where a CSV of the school's report downloads from: the admins' reports API, or the coordinator's. */
export type SchoolCsvHref = (report: "usage" | "books" | "teachers", range: DayRange) => string;

/**
 * A school's reading: its figures, days, top books and each teacher's reading, for admins and for
 * the school's coordinators (whose CSVs come from their own endpoint: `csvHref`).
 */
export function SchoolUsage({
  schoolId,
  days,
  report,
  csvHref,
  bookHref,
}: {
  schoolId: number;
  days: number;
  report: Report;
  csvHref?: SchoolCsvHref;
  /** Where a top book leads: the admin's book page, or (a coordinator's) the book in the school's library. */
  bookHref?: (bookId: number) => string;
}) {
  const { usage, active, topBooks, teachers } = report;
  const range: DayRange = { from: usage.from, to: usage.to };
  const csv: SchoolCsvHref = csvHref ?? ((what, r) => reportUrl(what, r, { schoolId }));
  const rangeText = `${longDay(usage.from)} – ${longDay(usage.to)}`;
  return (
    <section aria-labelledby="school-usage-heading" className="space-y-4">
      <UsageHeading id="school-usage-heading" days={days} {...range} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        <ActiveFigures active={active} />
        <Figure label="Books opened" value={count(usage.totals.booksOpened)} note={`${count(usage.totals.activeTeachers)} readers`} />
        <Figure label="Pages read" value={count(usage.totals.pagesRead)} />
        <Figure label="Reading hours" value={hours(usage.totals.readingMinutes)} />
      </div>
      <ReportCard title="Reading per day" actions={<CsvLink href={csv("usage", range)} />}>
        <UsageTrend days={usage.days} scope="this school" />
      </ReportCard>
      <div className="grid gap-4 xl:grid-cols-[2fr_3fr]">
        <ReportCard title="Top books" actions={<CsvLink href={csv("books", range)} />}>
          <ReportTable
            caption={`The school's top books, ${rangeText}`}
            columns={readingColumns("book", bookHref)}
            rows={topBooks}
            rowKey={(row) => row.id}
            empty="No book was read in this range."
          />
        </ReportCard>
        <ReportCard title="Reading by teacher" actions={<CsvLink href={csv("teachers", range)} />}>
          <ReportTable
            caption={`Each teacher's reading, ${rangeText}`}
            columns={[
              {
                name: "Teacher",
                cell: (row) => (
                  <span>
                    <span className="font-medium">{row.name}</span>
                    {row.disabled && <span className="ml-1 text-xs text-amber-700 dark:text-amber-300">(disabled)</span>}
                    <span className="block text-xs text-slate-500">{row.email}</span>
                  </span>
                ),
              },
              { name: "Last active", cell: (row) => (row.lastActiveDay ? longDay(row.lastActiveDay) : "Never"), numeric: true },
              { name: "Books", cell: (row) => count(row.booksOpened), numeric: true },
              { name: "Pages", cell: (row) => count(row.pagesRead), numeric: true },
              { name: "Hours", cell: (row) => hours(row.readingMinutes), numeric: true },
            ]}
            rows={teachers}
            rowKey={(row) => row.id}
            empty="No teacher has registered yet."
          />
        </ReportCard>
      </div>
    </section>
  );
}

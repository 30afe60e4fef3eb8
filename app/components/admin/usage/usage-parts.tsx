/** Pieces the usage reports share: the range choice, figure cards, ranked tables and export links. */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { cardClasses } from "../admin-page.tsx";
import { count, hours, longDay } from "./format.ts";

export const RANGES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "12 months" },
] as const;

/** Links to the same page with `?range=` (works before hydration; the current one is marked). */
export function RangePicker({ current, search = "" }: { current: number; search?: string }) {
  const base = new URLSearchParams(search);
  return (
    <nav
      aria-label="Report range"
      className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5 dark:border-slate-700 dark:bg-slate-900"
    >
      {RANGES.map((range) => {
        base.set("range", String(range.days));
        const here = range.days === current;
        return (
          <Link
            key={range.days}
            to={`?${base.toString()}`}
            preventScrollReset
            aria-current={here ? "page" : undefined}
            className={`rounded-md px-3 py-1 text-sm font-medium ${
              here ? "bg-indigo-600 text-white" : "text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            }`}
          >
            {range.label}
          </Link>
        );
      })}
    </nav>
  );
}

export function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <dl className={cardClasses}>
      <dt className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
      {note && <dd className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{note}</dd>}
    </dl>
  );
}

/** A CSV download of one report from /api/reports (a plain link: the browser saves the file). */
export function CsvLink({ href, children = "Download CSV" }: { href: string; children?: ReactNode }) {
  return (
    <a href={href} download className="text-sm font-medium text-indigo-600 underline-offset-2 hover:underline dark:text-indigo-400">
      {children}
    </a>
  );
}

export function ReportCard({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = `report-${title.toLowerCase().replaceAll(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className={cardClasses}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A table of report rows; `empty` when there are none. */
export function ReportTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: ReadonlyArray<{ name: string; cell: (row: Row) => ReactNode; numeric?: boolean }>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  empty: string;
}) {
  if (rows.length === 0) return <p className="py-4 text-sm text-slate-500 dark:text-slate-400">{empty}</p>;
  return (
    // A narrow screen scrolls the table sideways: a named region the keyboard can reach and scroll.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className="overflow-x-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
            {columns.map((column) => (
              <th key={column.name} scope="col" className={`py-1.5 pr-3 font-medium ${column.numeric ? "text-right" : ""}`}>
                {column.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-t border-slate-100 dark:border-slate-800">
              {columns.map((column) => (
                <td key={column.name} className={`py-1.5 pr-3 ${column.numeric ? "text-right tabular-nums" : ""}`}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** `/api/reports/{what}?from&to[&...]&format=csv`. */
export function reportUrl(what: string, range: { from: string; to: string }, extra: Record<string, string | number> = {}) {
  const params = new URLSearchParams({ from: range.from, to: range.to });
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  params.set("format", "csv");
  return `/api/reports/${what}?${params.toString()}`;
}

/** A report section's heading: its title, its days, and the range choice. */
export function UsageHeading({
  id,
  days,
  from,
  to,
  large,
  freshness,
}: {
  id: string;
  days: number;
  from: string;
  to: string;
  large?: boolean;
  /** How current the figures are, when they may lag (the overview: docs/decisions/0024). */
  freshness?: string;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h2 id={id} className={large ? "text-xl font-bold tracking-tight" : "text-lg font-semibold"}>
          Usage
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {longDay(from)} – {longDay(to)} (UTC days)
        </p>
        {freshness && <p className="text-xs text-slate-500 dark:text-slate-400">{freshness}</p>}
      </div>
      <RangePicker current={days} />
    </div>
  );
}

/** Active teachers in the last 7 and 30 days, of all the teachers in scope. */
export function ActiveFigures({ active }: { active: { last7Days: number; last30Days: number; teachers: number } }) {
  return (
    <>
      <Figure label="Active teachers" value={count(active.last7Days)} note={`last 7 days, of ${count(active.teachers)}`} />
      <Figure label="Active teachers" value={count(active.last30Days)} note={`last 30 days, of ${count(active.teachers)}`} />
    </>
  );
}

interface Reading {
  id: number;
  name: string;
  readers: number;
  pagesRead: number;
  readingMinutes: number;
}

/** A ranked book's or school's columns: its name (a link to its page), readers, pages, hours. */
export function readingColumns<Row extends Reading>(
  kind: "book" | "school",
  href: (id: number) => string = (id) => `/admin/${kind}/${id}`,
) {
  return [
    {
      name: kind === "book" ? "Book" : "School",
      cell: (row: Row) => (
        <Link to={href(row.id)} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          {row.name}
        </Link>
      ),
    },
    { name: "Readers", cell: (row: Row) => count(row.readers), numeric: true },
    { name: "Pages", cell: (row: Row) => count(row.pagesRead), numeric: true },
    { name: "Hours", cell: (row: Row) => hours(row.readingMinutes), numeric: true },
  ];
}

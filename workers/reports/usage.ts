/**
 * Usage figures over a range of days (docs/decisions/0019), for all schools, one school, one book,
 * or one book in one school. Each reads the smallest rollup that answers it, on its key: all
 * schools `usage_daily` (a row a day), a school `school_usage_daily`, a book `reading_daily` by
 * book. Written for admins today and for a school's own view later (the school is a parameter).
 */
import { sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { type DayRange, daysOf } from "./range.ts";

export interface UsageDay {
  date: string;
  activeTeachers: number;
  booksOpened: number;
  pagesRead: number;
  readingMinutes: number;
}

export interface UsageTotals {
  /** Different teachers who opened a book in the range (not the sum of the days). */
  activeTeachers: number;
  /** Books opened: a teacher opening a book on a day counts once that day. */
  booksOpened: number;
  pagesRead: number;
  /** From the range's reading seconds, so it may differ by rounding from the sum of the days. */
  readingMinutes: number;
}

export interface UsageReport {
  from: string;
  to: string;
  schoolId: number | null;
  bookId: number | null;
  days: UsageDay[];
  totals: UsageTotals;
}

export interface UsageScope {
  schoolId?: number | undefined;
  bookId?: number | undefined;
}

type DayRow = { day: string; teachers: number; opened: number; pages: number; seconds: number };

export const minutesOf = (seconds: number) => Math.round(seconds / 60);

function dailyRows(db: Db, range: DayRange, scope: UsageScope) {
  const { from, to } = range;
  if (scope.bookId !== undefined) {
    const school = scope.schoolId === undefined ? sql`` : sql`AND school_id = ${scope.schoolId}`;
    return db.all<DayRow>(sql`SELECT day, count(DISTINCT teacher_id) AS teachers, count(*) AS opened, sum(pages) AS pages, sum(seconds) AS seconds
      FROM reading_daily WHERE book_id = ${scope.bookId} ${school} AND day BETWEEN ${from} AND ${to} GROUP BY day`);
  }
  const columns = sql`day, active_teachers AS teachers, books_opened AS opened, pages, seconds`;
  if (scope.schoolId !== undefined) {
    return db.all<DayRow>(
      sql`SELECT ${columns} FROM school_usage_daily WHERE school_id = ${scope.schoolId} AND day BETWEEN ${from} AND ${to}`,
    );
  }
  return db.all<DayRow>(sql`SELECT ${columns} FROM usage_daily WHERE day BETWEEN ${from} AND ${to}`);
}

/**
 * Different teachers active in the range. For all schools and a range ending today, the index of
 * each teacher's last active day answers it (every teacher active since `from` is active in the
 * range); other ranges count the teacher rows, on the school's or the book's index when scoped.
 */
async function distinctTeachers(db: Db, range: DayRange, scope: UsageScope, now: number): Promise<number> {
  const { from, to } = range;
  let row: { n: number } | undefined;
  if (scope.bookId !== undefined || scope.schoolId !== undefined) {
    const book = scope.bookId === undefined ? sql`` : sql`AND book_id = ${scope.bookId}`;
    const school = scope.schoolId === undefined ? sql`` : sql`AND school_id = ${scope.schoolId}`;
    [row] = await db.all<{ n: number }>(
      sql`SELECT count(DISTINCT teacher_id) AS n FROM reading_daily WHERE day BETWEEN ${from} AND ${to} ${book} ${school}`,
    );
  } else if (to >= dayOf(now)) {
    [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM teachers WHERE last_active_day >= ${from}`);
  } else {
    [row] = await db.all<{ n: number }>(sql`SELECT count(DISTINCT teacher_id) AS n FROM reading_daily WHERE day BETWEEN ${from} AND ${to}`);
  }
  return row?.n ?? 0;
}

/** The day-by-day figures of the range (every day present, zeros included) and their totals. */
export async function usageReport(db: Db, range: DayRange, scope: UsageScope = {}, now = Date.now()): Promise<UsageReport> {
  const [rows, activeTeachers] = await Promise.all([dailyRows(db, range, scope), distinctTeachers(db, range, scope, now)]);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  let seconds = 0;
  const days = daysOf(range).map((date): UsageDay => {
    const row = byDay.get(date);
    seconds += row?.seconds ?? 0;
    return {
      date,
      activeTeachers: row?.teachers ?? 0,
      booksOpened: row?.opened ?? 0,
      pagesRead: row?.pages ?? 0,
      readingMinutes: minutesOf(row?.seconds ?? 0),
    };
  });
  const sum = (key: "booksOpened" | "pagesRead") => days.reduce((total, day) => total + day[key], 0);
  return {
    from: range.from,
    to: range.to,
    schoolId: scope.schoolId ?? null,
    bookId: scope.bookId ?? null,
    days,
    totals: { activeTeachers, booksOpened: sum("booksOpened"), pagesRead: sum("pagesRead"), readingMinutes: minutesOf(seconds) },
  };
}

/** Teachers (of one school, or all) active in the last 7 and 30 days, on the last-active index. */
export async function activeTeacherCounts(db: Db, now = Date.now(), schoolId?: number) {
  const since = (days: number) => dayOf(now - (days - 1) * 86_400_000);
  const school = schoolId === undefined ? sql`` : sql`AND school_id = ${schoolId}`;
  const [row] = await db.all<{ week: number; month: number; teachers: number }>(sql`SELECT
    (SELECT count(*) FROM teachers WHERE last_active_day >= ${since(7)} ${school}) AS week,
    (SELECT count(*) FROM teachers WHERE last_active_day >= ${since(30)} ${school}) AS month,
    (SELECT count(*) FROM teachers WHERE erased_at IS NULL ${school}) AS teachers`);
  return { last7Days: row?.week ?? 0, last30Days: row?.month ?? 0, teachers: row?.teachers ?? 0 };
}

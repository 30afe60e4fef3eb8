/** The per-school and per-book reports (docs/decisions/0019): live, on each one's own rows. */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type DayRange, rangeMillis } from "./range.ts";
import { liveRanking, TOP_COUNT } from "./rankings.ts";
import { activeTeacherCounts, minutesOf, usageReport } from "./usage.ts";

export interface TeacherUsage {
  id: number;
  name: string;
  email: string;
  disabled: boolean;
  lastActiveDay: string | null;
  pagesRead: number;
  readingMinutes: number;
  booksOpened: number;
}

/** Every teacher of the school with what they read in the range, most pages first. */
export async function teacherUsage(db: Db, schoolId: number, range: DayRange): Promise<TeacherUsage[]> {
  const rows = await db.all<Omit<TeacherUsage, "disabled" | "readingMinutes"> & { disabled: number; seconds: number }>(sql`
    SELECT t.id, t.name, t.email, t.disabled, t.last_active_day AS lastActiveDay, coalesce(sum(r.pages), 0) AS pagesRead,
      coalesce(sum(r.seconds), 0) AS seconds, count(r.book_id) AS booksOpened
    FROM teachers t LEFT JOIN reading_daily r ON r.teacher_id = t.id AND r.day BETWEEN ${range.from} AND ${range.to}
    WHERE t.school_id = ${schoolId} AND t.erased_at IS NULL GROUP BY t.id ORDER BY pagesRead DESC, seconds DESC, t.name COLLATE NOCASE, t.id`);
  return rows.map(({ seconds, disabled, ...row }) => ({ ...row, disabled: Boolean(disabled), readingMinutes: minutesOf(seconds) }));
}

export async function schoolReport(db: Db, schoolId: number, range: DayRange, now = Date.now()) {
  const [usage, active, topBooks, teachers] = await Promise.all([
    usageReport(db, range, { schoolId }, now),
    activeTeacherCounts(db, now, schoolId),
    liveRanking(db, "book", range, TOP_COUNT, schoolId),
    teacherUsage(db, schoolId, range),
  ]);
  return { usage, active, topBooks, teachers };
}

export interface SchoolReading {
  id: number;
  name: string;
  readers: number;
  pagesRead: number;
  readingMinutes: number;
}

/** The schools whose teachers read the book in the range, most pages first (at most `limit`). */
export async function schoolsReadingBook(db: Db, bookId: number, range: DayRange, limit = 500): Promise<SchoolReading[]> {
  const rows = await db.all<Omit<SchoolReading, "readingMinutes"> & { seconds: number }>(sql`
    SELECT r.school_id AS id, s.name, count(DISTINCT r.teacher_id) AS readers, sum(r.pages) AS pagesRead, sum(r.seconds) AS seconds
    FROM reading_daily r JOIN schools s ON s.id = r.school_id
    WHERE r.book_id = ${bookId} AND r.day BETWEEN ${range.from} AND ${range.to}
    GROUP BY r.school_id ORDER BY pagesRead DESC, seconds DESC, r.school_id LIMIT ${limit}`);
  return rows.map(({ seconds, ...row }) => ({ ...row, readingMinutes: minutesOf(seconds) }));
}

export interface StopBucket {
  /** First and last page of the bucket (the same page when the book is short). */
  from: number;
  to: number;
  readers: number;
}

/** At most this many bars in the histogram; longer books group pages. */
const MAX_BUCKETS = 40;

/**
 * Where readers stopped: the page each teacher's reader last saved, for teachers who read the book
 * in the range, grouped into at most MAX_BUCKETS bars over the whole book.
 */
export async function stopPages(db: Db, bookId: number, pageCount: number | null, range: DayRange): Promise<StopBucket[]> {
  const { start, end } = rangeMillis(range);
  const rows = await db.all<{ page: number; readers: number }>(sql`SELECT page, count(*) AS readers FROM reading_progress
    WHERE book_id = ${bookId} AND updated_at BETWEEN ${start} AND ${end} GROUP BY page`);
  const pages = Math.max(pageCount ?? 0, ...rows.map((row) => row.page), 1);
  const size = Math.ceil(pages / MAX_BUCKETS);
  const buckets: StopBucket[] = Array.from({ length: Math.ceil(pages / size) }, (_, i) => ({
    from: i * size + 1,
    to: Math.min((i + 1) * size, pages),
    readers: 0,
  }));
  for (const row of rows) buckets[Math.floor((row.page - 1) / size)]!.readers += row.readers;
  return buckets;
}

export async function bookReport(db: Db, book: { id: number; pageCount: number | null }, range: DayRange, now = Date.now()) {
  const [usage, schools, stops] = await Promise.all([
    usageReport(db, range, { bookId: book.id }, now),
    schoolsReadingBook(db, book.id, range),
    stopPages(db, book.id, book.pageCount, range),
  ]);
  return { usage, schools, stops };
}

/**
 * The statement a school object flushes its usage with: one insert into the `usage_flush` view,
 * whose trigger (migrations/0011) adds the batch to reading_daily, school_usage_daily and
 * usage_daily and marks the teachers and the school active, unless the school already applied
 * that batch number. One statement and one round trip per batch, however many rows it carries.
 */
import { type SQL, sql } from "drizzle-orm";

export type UsageRow = {
  day: string;
  bookId: number;
  teacherId: number;
  pages: number;
  seconds: number;
  lastAt: number;
  /** 1 on the row holding the teacher's first event of the day (an active teacher). */
  newTeacher: number;
  /** 1 on the row holding the teacher's first event of the day in the book (a book opened). */
  newBook: number;
};

export function flushStatement(schoolId: number, seq: number, rows: UsageRow[]): SQL {
  const packed = rows.map((r) => [r.day, r.bookId, r.teacherId, r.pages, r.seconds, r.lastAt, r.newTeacher, r.newBook]);
  return sql`INSERT INTO usage_flush (school_id, seq, rows) VALUES (${schoolId}, ${seq}, ${JSON.stringify(packed)})`;
}

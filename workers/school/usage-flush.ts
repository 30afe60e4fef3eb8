/**
 * The statement a school object flushes its usage with: one insert into the `usage_flush` view,
 * whose trigger (migrations/0011) adds the batch to reading_daily, school_usage_daily and
 * usage_daily, saves the teachers' reading progress and marks the teachers and the school active,
 * unless the school already applied
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

/** The page a teacher was last on in a book (reading_progress), and when. */
export type ProgressRow = { teacherId: number; bookId: number; page: number; updatedAt: number };

export function flushStatement(schoolId: number, seq: number, rows: UsageRow[], progress: ProgressRow[] = []): SQL {
  const packed = rows.map((r) => [r.day, r.bookId, r.teacherId, r.pages, r.seconds, r.lastAt, r.newTeacher, r.newBook]);
  const places = progress.map((p) => [p.teacherId, p.bookId, p.page, p.updatedAt]);
  return sql`INSERT INTO usage_flush (school_id, seq, rows, progress)
    VALUES (${schoolId}, ${seq}, ${JSON.stringify(packed)}, ${JSON.stringify(places)})`;
}

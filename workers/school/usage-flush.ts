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

/** A day's seat figures for one book, as the school's object holds them (whole, not deltas). */
export type SeatDayRow = { day: string; bookId: number; peak: number; turnedAway: number };

/**
 * Adds or raises seat_daily's rows: each figure becomes the higher of D1's and the one sent, so a
 * resent day is harmless. Rows for a book deleted meanwhile are dropped (no row to name it).
 */
export function seatDayStatement(schoolId: number, days: SeatDayRow[]): SQL {
  const packed = JSON.stringify(days.map((d) => [d.day, d.bookId, d.peak, d.turnedAway]));
  return sql`INSERT INTO seat_daily (school_id, book_id, day, peak_readers, turned_away)
    SELECT ${schoolId}, value ->> 1, value ->> 0, value ->> 2, value ->> 3 FROM json_each(${packed})
    WHERE EXISTS (SELECT 1 FROM schools WHERE id = ${schoolId}) AND EXISTS (SELECT 1 FROM books WHERE id = value ->> 1)
    ON CONFLICT (school_id, book_id, day) DO UPDATE SET
      peak_readers = max(peak_readers, excluded.peak_readers), turned_away = max(turned_away, excluded.turned_away)`;
}

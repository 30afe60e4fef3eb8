/**
 * The statement a school object flushes its usage with: one insert into the `usage_flush` view,
 * whose trigger (migrations/0011, 0018) raises the seat figures of seat_daily, then adds the batch
 * to reading_daily, school_usage_daily and usage_daily, saves the teachers' reading progress and
 * marks the teachers and the school active, unless the school already applied that batch number.
 * One statement and one round trip per batch, however many rows it carries.
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

/** A day's seat figures for one book, as the school's object holds them (whole, not deltas). */
export type SeatDayRow = { day: string; bookId: number; peak: number; turnedAway: number };

/**
 * A batch: its usage rows and progress under `seq`, and the seat figures that changed since the last
 * flush. Seat figures are applied whatever the number (each becomes the higher of D1's and the one
 * sent, so a resent day is harmless; a day of a book deleted meanwhile is dropped).
 */
export function flushStatement(
  schoolId: number,
  seq: number,
  rows: UsageRow[],
  progress: ProgressRow[] = [],
  seatDays: SeatDayRow[] = [],
): SQL {
  const packed = rows.map((r) => [r.day, r.bookId, r.teacherId, r.pages, r.seconds, r.lastAt, r.newTeacher, r.newBook]);
  const places = progress.map((p) => [p.teacherId, p.bookId, p.page, p.updatedAt]);
  const seats = seatDays.map((d) => [d.day, d.bookId, d.peak, d.turnedAway]);
  return sql`INSERT INTO usage_flush (school_id, seq, rows, progress, seats)
    VALUES (${schoolId}, ${seq}, ${JSON.stringify(packed)}, ${JSON.stringify(places)}, ${JSON.stringify(seats)})`;
}

/** Seat figures alone (no usage waits): batch 0, which the trigger never applies as usage. */
export function seatDayStatement(schoolId: number, days: SeatDayRow[]): SQL {
  return flushStatement(schoolId, 0, [], [], days);
}

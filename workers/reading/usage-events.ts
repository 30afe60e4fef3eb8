/**
 * Usage events, counted by the server as it serves a teacher (docs/decisions/0019): a page image
 * served, a book opened (its page list), and the reader's progress pings. The school's object
 * counts them and flushes them to the day's rollups in batches (docs/decisions/0024), so the
 * reports never read raw events and a page view writes nothing to D1.
 *
 * `readingEventStatements` is the same rollup arithmetic as SQL, for writing history straight
 * into D1 (the demo seed's past days) and for the tests that compare the two.
 */
import { type SQL, sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { READING_GAP_CAP_MS } from "../school-object/policy.ts";

export interface ReadingEvent {
  schoolId: number;
  bookId: number;
  teacherId: number;
  /** Pages served by this event: 1 for a page image, 0 for an open or a ping. */
  pages: 0 | 1;
}

/**
 * The statements that add one event to every rollup. Reading time is the gap since the teacher's
 * previous event that day in any book (so two open tabs do not count twice), capped at
 * READING_GAP_CAP_MS; the day's first event adds none. The rollups are written before the
 * teacher's row, so their "first of the day" tests see the row as it was.
 */
export function readingEventStatements(event: ReadingEvent, now: number): SQL[] {
  const day = dayOf(now);
  const { schoolId, bookId, teacherId, pages } = event;
  const teacherToday = sql`FROM reading_daily WHERE teacher_id = ${teacherId} AND day = ${day}`;
  // D1 binds JavaScript numbers as REAL: the CAST keeps whole seconds.
  const gapMs = sql`coalesce(min(max(${now} - (SELECT max(last_at) ${teacherToday}), 0), ${READING_GAP_CAP_MS}), 0)`;
  const gapSeconds = sql`CAST((${gapMs} + 500) / 1000 AS INTEGER)`;
  const newTeacherDay = sql`(NOT EXISTS (SELECT 1 ${teacherToday}))`;
  const newBookDay = sql`(NOT EXISTS (SELECT 1 ${teacherToday} AND school_id = ${schoolId} AND book_id = ${bookId}))`;
  const add = sql.raw(`active_teachers = active_teachers + excluded.active_teachers, books_opened = books_opened + excluded.books_opened,
    pages = pages + excluded.pages, seconds = seconds + excluded.seconds`);
  return [
    sql`INSERT INTO usage_daily (day, active_teachers, books_opened, pages, seconds)
      VALUES (${day}, ${newTeacherDay}, ${newBookDay}, ${pages}, ${gapSeconds}) ON CONFLICT (day) DO UPDATE SET ${add}`,
    sql`INSERT INTO school_usage_daily (school_id, day, active_teachers, books_opened, pages, seconds)
      VALUES (${schoolId}, ${day}, ${newTeacherDay}, ${newBookDay}, ${pages}, ${gapSeconds}) ON CONFLICT (school_id, day) DO UPDATE SET ${add}`,
    sql`INSERT INTO reading_daily (day, school_id, book_id, teacher_id, pages, seconds, last_at)
      VALUES (${day}, ${schoolId}, ${bookId}, ${teacherId}, ${pages}, ${gapSeconds}, ${now})
      ON CONFLICT (day, school_id, book_id, teacher_id) DO UPDATE SET pages = pages + excluded.pages,
        seconds = seconds + excluded.seconds, last_at = max(coalesce(last_at, 0), excluded.last_at)`,
    sql`UPDATE teachers SET last_active_day = ${day} WHERE id = ${teacherId} AND (last_active_day IS NULL OR last_active_day < ${day})`,
    sql`UPDATE schools SET last_active_day = ${day} WHERE id = ${schoolId} AND (last_active_day IS NULL OR last_active_day < ${day})`,
  ];
}

/** Adds one event to the rollups in D1 directly, atomically (history for the seed; the Worker counts in the school's object). */
export async function recordReadingEvent(db: Db, event: ReadingEvent, now = Date.now()): Promise<void> {
  await runTransaction(db, readingEventStatements(event, now));
}

/**
 * Counts the event in the school's object after the response (the reader does not wait for it);
 * a failure is logged, never thrown.
 */
export function recordAfterResponse(ctx: ExecutionContext, hot: HotState, schoolId: number, event: Omit<ReadingEvent, "schoolId">): void {
  const recorded = schoolObject(hot, schoolId).record(schoolId, event);
  ctx.waitUntil(recorded.catch((error: unknown) => log.error("Usage event not recorded", { error })));
}

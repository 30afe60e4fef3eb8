/**
 * A school's usage and reading progress, kept in its object until a flush sends them to D1
 * (docs/decisions/0024): each event is added to the unflushed rows of seq 0; a flush claims them
 * under the next sequence number, sends them in one statement (workers/school-object/usage-flush.ts) and
 * deletes them once D1 has them.
 */
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { FLUSH_ROWS, READING_GAP_CAP_MS } from "./policy.ts";
import { readMeta, writeMeta } from "./school-storage.ts";
import { dirtySeatDays, forgetSeatDaysBefore, seatDaysSent } from "./seats.ts";
import { flushStatement, type ProgressRow, seatDayStatement, type UsageRow } from "./usage-flush.ts";

export interface ReadingEventInput {
  teacherId: number;
  bookId: number;
  /** 1 for a page image read, 0 for a book opened or a reader's ping. */
  pages: 0 | 1;
  now?: number;
}

/**
 * Adds one event to the unflushed usage, as the previous design added it to D1's rollups: the
 * reading time is the gap since the teacher's previous event that day in any book, capped at
 * READING_GAP_CAP_MS; the day's first event of a teacher (of a teacher and book) marks them active
 * (the book opened).
 */
export function countEvent(sql: SqlStorage, event: Omit<ReadingEventInput, "now">, now: number) {
  const day = dayOf(now);
  const { teacherId, bookId, pages } = event;
  const [last] = sql
    .exec<{ lastAt: number | null; thisBook: number }>(
      "SELECT max(last_at) AS lastAt, max(book_id = ?) AS thisBook FROM reading_days WHERE day = ? AND teacher_id = ?",
      bookId,
      day,
      teacherId,
    )
    .toArray();
  const lastAt = last?.lastAt ?? null;
  const newTeacher = lastAt === null ? 1 : 0;
  const newBook = last?.thisBook ? 0 : 1;
  const gapMs = lastAt === null ? 0 : Math.min(Math.max(now - lastAt, 0), READING_GAP_CAP_MS);
  const seconds = Math.floor((gapMs + 500) / 1000);
  sql.exec(
    `INSERT INTO reading_days (day, teacher_id, book_id, last_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (day, teacher_id, book_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)`,
    day,
    teacherId,
    bookId,
    now,
  );
  sql.exec(
    `INSERT INTO pending (seq, day, book_id, teacher_id, pages, seconds, last_at, new_teacher, new_book)
     VALUES (0, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (seq, day, book_id, teacher_id) DO UPDATE SET pages = pages + excluded.pages,
       seconds = seconds + excluded.seconds, last_at = max(last_at, excluded.last_at),
       new_teacher = new_teacher + excluded.new_teacher, new_book = new_book + excluded.new_book`,
    day,
    bookId,
    teacherId,
    pages,
    seconds,
    now,
    newTeacher,
    newBook,
  );
}

/** A position to keep; `editedAt`, when the client settled on it (a position saved offline, sent later). */
export type ProgressSave = { teacherId: number; bookId: number; page: number; editedAt?: number };

/** A position saved less than this long ago is being read now (reading time); older came from an offline queue. */
export const LIVE_SAVE_MS = 60_000;

/**
 * The page a teacher settled on in a book at `now` (the client's time for a position saved offline),
 * kept until the next flush writes it to D1 (the caller counts it as reading time); false, and nothing
 * kept, when the object holds a later position: the later one wins (docs/decisions/0051; D1's flush
 * trigger keeps the later of its row and the flushed one too).
 */
export function saveProgress(sql: SqlStorage, input: { teacherId: number; bookId: number; page: number }, now: number): boolean {
  const [held] = sql
    .exec<{ at: number | null }>(
      "SELECT max(updated_at) AS at FROM progress WHERE teacher_id = ? AND book_id = ?",
      input.teacherId,
      input.bookId,
    )
    .toArray();
  if (held?.at != null && held.at > now) return false;
  sql.exec(
    `INSERT INTO progress (seq, teacher_id, book_id, page, updated_at) VALUES (0, ?, ?, ?, ?)
     ON CONFLICT (seq, teacher_id, book_id) DO UPDATE SET page = excluded.page, updated_at = excluded.updated_at`,
    input.teacherId,
    input.bookId,
    input.page,
    now,
  );
  return true;
}

export type UnflushedProgress = { bookId: number; page: number; updatedAt: number };

/** A teacher's progress not yet in D1 (newer than D1's), per book: the reader's resume and the dashboard read it first. */
export function unflushedProgress(sql: SqlStorage, teacherId: number): UnflushedProgress[] {
  return sql
    .exec<UnflushedProgress>(
      `SELECT book_id AS bookId, page, max(updated_at) AS updatedAt FROM progress WHERE teacher_id = ? GROUP BY book_id`,
      teacherId,
    )
    .toArray();
}

/**
 * The batch to send next: one a failed flush left behind (sent again under its own number), or
 * up to FLUSH_ROWS new rows under the next number; null when nothing waits. The caller runs it in
 * a transaction (the number and its rows are claimed together).
 */
function claimBatch(sql: SqlStorage): number | null {
  const [left] = sql
    .exec<{ seq: number | null }>(
      "SELECT min(seq) AS seq FROM (SELECT seq FROM pending WHERE seq > 0 UNION ALL SELECT seq FROM progress WHERE seq > 0)",
    )
    .toArray();
  if (left?.seq) return left.seq;
  const [waiting] = sql
    .exec<{ n: number }>("SELECT (SELECT count(*) FROM pending WHERE seq = 0) + (SELECT count(*) FROM progress WHERE seq = 0) AS n")
    .toArray();
  if (!waiting?.n) return null;
  const seq = (readMeta(sql, "flush_seq") ?? 0) + 1;
  writeMeta(sql, "flush_seq", seq);
  sql.exec(`UPDATE pending SET seq = ? WHERE seq = 0 AND rowid IN (SELECT rowid FROM pending WHERE seq = 0 LIMIT ?)`, seq, FLUSH_ROWS);
  sql.exec("UPDATE progress SET seq = ? WHERE seq = 0", seq);
  return seq;
}

/** The usage rows and progress of batch `seq`. */
function readBatch(sql: SqlStorage, seq: number): { rows: UsageRow[]; progress: ProgressRow[] } {
  const rows = sql
    .exec<UsageRow>(
      `SELECT day, book_id AS bookId, teacher_id AS teacherId, pages, seconds, last_at AS lastAt,
         min(new_teacher, 1) AS newTeacher, min(new_book, 1) AS newBook FROM pending WHERE seq = ?`,
      seq,
    )
    .toArray();
  const progress = sql
    .exec<ProgressRow>("SELECT teacher_id AS teacherId, book_id AS bookId, page, updated_at AS updatedAt FROM progress WHERE seq = ?", seq)
    .toArray();
  return { rows, progress };
}

/** D1 has batch `seq`. */
function batchSent(sql: SqlStorage, seq: number) {
  sql.exec("DELETE FROM pending WHERE seq = ?", seq);
  sql.exec("DELETE FROM progress WHERE seq = ?", seq);
}

/**
 * Sends the unflushed usage, progress and seat figures to D1, batch by batch; how many rows went.
 * The caller runs one at a time. A throw leaves the batch claimed under its number, to be sent again.
 */
export async function sendUsage(storage: DurableObjectStorage, db: Db, schoolId: number): Promise<number> {
  const sql = storage.sql;
  let sent = 0;
  for (;;) {
    const seq = storage.transactionSync(() => claimBatch(sql));
    if (seq === null) break;
    const { rows, progress } = readBatch(sql, seq);
    // The seat figures ride along: one statement a batch (decision 24), not a second for seat_daily.
    const seatDays = dirtySeatDays(sql, FLUSH_ROWS);
    // D1 applies a sequence number once, so resending a batch whose answer was lost is harmless.
    await db.run(flushStatement(schoolId, seq, rows, progress, seatDays));
    storage.transactionSync(() => {
      batchSent(sql, seq);
      seatDaysSent(sql, seatDays);
    });
    sent += rows.length + progress.length + seatDays.length;
  }
  // Seat figures still dirty once no usage waits (a teacher only turned away): sent alone, in one statement.
  const leftDays = dirtySeatDays(sql, FLUSH_ROWS);
  if (leftDays.length) {
    await db.run(seatDayStatement(schoolId, leftDays));
    seatDaysSent(sql, leftDays);
    sent += leftDays.length;
  }
  // Reading marks before yesterday no longer decide first-of-day marks or gaps.
  const yesterday = dayOf(Date.now() - 24 * 3600_000);
  sql.exec("DELETE FROM reading_days WHERE day < ?", yesterday);
  forgetSeatDaysBefore(sql, yesterday);
  return sent;
}

/** Whether anything still waits for a flush: usage, progress or seat figures. */
export function hasUnflushed(sql: SqlStorage): boolean {
  const [waiting] = sql
    .exec<{ n: number }>(
      "SELECT (SELECT count(*) FROM pending) + (SELECT count(*) FROM progress) + (SELECT count(*) FROM seat_days WHERE dirty = 1) AS n",
    )
    .toArray();
  return Boolean(waiting?.n);
}

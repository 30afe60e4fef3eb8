/**
 * Seats of a book (docs/decisions/0028), in the school's object: who reads which book now, whether a
 * licence's seat limit leaves one free, and each day's seat figures (the most readers at once, and
 * how many different teachers found none) until a flush sends them to D1's seat_daily.
 */
import { dayOf } from "#shared/rules/licence.ts";
import { LIVE_LOAN } from "./loan-live.ts";
import { SEAT_HOLD_MS, TEACHER_SESSION_LIFETIME } from "./policy.ts";
import type { SeatDayRow } from "./usage-flush.ts";

/** A teacher holding a seat of a book: since their last page of it (lastAt), for SEAT_HOLD_MS. */
export type SeatHolder = {
  bookId: number;
  teacherId: number;
  name: string;
  email: string;
  lastAt: number;
};

/** Seats of the book left idle past SEAT_HOLD_MS are free again. */
function giveBackIdleSeats(sql: SqlStorage, bookId: number, now: number) {
  sql.exec("DELETE FROM seats WHERE book_id = ? AND last_at < ?", bookId, now - SEAT_HOLD_MS);
}

/** Whether the teacher holds a seat of the book or one is free; seats left idle past SEAT_HOLD_MS are given back first. */
export function seatFree(sql: SqlStorage, teacherId: number, bookId: number, seats: number, now: number): boolean {
  giveBackIdleSeats(sql, bookId, now);
  const holders = holdersOf(sql, bookId, now);
  return holders.some((row) => row.teacherId === teacherId) || holders.length < seats;
}

/**
 * The teachers holding a seat of the book: readers within SEAT_HOLD_MS and, with the idle rule no
 * part of it, teachers keeping it offline under a live loan (docs/decisions/0050). A teacher is one
 * holder however many devices they read or keep it on.
 */
function holdersOf(sql: SqlStorage, bookId: number, now: number): { teacherId: number }[] {
  return sql
    .exec<{ teacherId: number }>(
      `SELECT teacher_id AS teacherId FROM seats WHERE book_id = ?2 AND last_at >= ?3
       UNION SELECT l.teacher_id FROM offline_loans l WHERE l.book_id = ?2 AND ${LIVE_LOAN}`,
      now,
      bookId,
      now - SEAT_HOLD_MS,
    )
    .toArray();
}

/**
 * The teacher reads the book now: they hold a seat of it (every book, limited or not, so the
 * reports show how many read at once), and the day's peak rises when they are one more. True when
 * the day's figures changed (the next flush has them to send).
 */
export function takeSeat(sql: SqlStorage, teacherId: number, bookId: number, now: number): boolean {
  giveBackIdleSeats(sql, bookId, now);
  sql.exec("INSERT OR REPLACE INTO seats (book_id, teacher_id, last_at) VALUES (?, ?, ?)", bookId, teacherId, now);
  const changed = sql.exec(
    `INSERT INTO seat_days (day, book_id, peak) VALUES (?1, ?2, (SELECT count(*) FROM seats WHERE book_id = ?2))
     ON CONFLICT (day, book_id) DO UPDATE SET peak = excluded.peak, dirty = 1 WHERE excluded.peak > peak`,
    dayOf(now),
    bookId,
  ).rowsWritten;
  return changed > 0;
}

/**
 * No seat was free: counted once per teacher, book and day (the publisher's sign that the school
 * needs more). True when the day's figures changed.
 */
export function turnAway(sql: SqlStorage, teacherId: number, bookId: number, now: number): boolean {
  const day = dayOf(now);
  const first = sql.exec(
    "INSERT OR IGNORE INTO seat_refusals (day, book_id, teacher_id) VALUES (?, ?, ?)",
    day,
    bookId,
    teacherId,
  ).rowsWritten;
  if (!first) return false;
  sql.exec(
    `INSERT INTO seat_days (day, book_id, peak, turned_away) VALUES (?1, ?2, (SELECT count(*) FROM seats WHERE book_id = ?2), 1)
     ON CONFLICT (day, book_id) DO UPDATE SET turned_away = turned_away + 1, peak = max(peak, excluded.peak), dirty = 1`,
    day,
    bookId,
  );
  return true;
}

/** The teacher closed the book: their seat, if they held one, is free for the next. */
export function releaseSeat(sql: SqlStorage, teacherId: number, bookId: number) {
  sql.exec("DELETE FROM seats WHERE book_id = ? AND teacher_id = ?", bookId, teacherId);
}

/**
 * Who holds a seat of a book now (the admin's school page and the coordinator's My school): every
 * book the school reads, limited or not; the caller keeps the ones it shows. Latest read first.
 */
export function seatHolders(sql: SqlStorage, now: number): SeatHolder[] {
  return sql
    .exec<SeatHolder>(
      `SELECT s.book_id AS bookId, s.teacher_id AS teacherId, t.name, t.email, s.last_at AS lastAt
       FROM seats s JOIN teachers t ON t.id = s.teacher_id WHERE s.last_at >= ? ORDER BY s.last_at DESC, s.teacher_id`,
      now - SEAT_HOLD_MS,
    )
    .toArray();
}

/** An admin or coordinator frees a teacher's seat of a book for the next reader; true when they held it. */
export function freeSeat(sql: SqlStorage, bookId: number, teacherId: number, now: number): boolean {
  return (
    sql.exec("DELETE FROM seats WHERE book_id = ? AND teacher_id = ? AND last_at >= ?", bookId, teacherId, now - SEAT_HOLD_MS).rowsWritten >
    0
  );
}

/** How many teachers hold a seat of the book now, reading or keeping it offline (for the tests and the reports). */
export function seatsHeld(sql: SqlStorage, bookId: number, now: number): number {
  return holdersOf(sql, bookId, now).length;
}

/**
 * A teacher with no live session left holds no seat: whoever signs out, is signed out or is
 * disabled gives their seats back at once rather than SEAT_HOLD_MS later (issue 41).
 */
export function freeSeatsOfSignedOut(sql: SqlStorage, teacherId: number, now: number) {
  sql.exec(
    `DELETE FROM seats WHERE teacher_id = ?1 AND NOT EXISTS (SELECT 1 FROM sessions
       WHERE teacher_id = ?1 AND ended IS NULL AND expires_at > ?2 AND last_seen_at > ?3)`,
    teacherId,
    now,
    now - TEACHER_SESSION_LIFETIME.idleMs,
  );
}

/** The teacher was disabled or deleted: every seat they held is free. */
export function freeSeatsOfTeacher(sql: SqlStorage, teacherId: number) {
  sql.exec("DELETE FROM seats WHERE teacher_id = ?", teacherId);
}

/** Seats are given back when their book is next read; a book no one opens again is tidied here. */
export function forgetIdleSeats(sql: SqlStorage, now: number) {
  sql.exec("DELETE FROM seats WHERE last_at < ?", now - SEAT_HOLD_MS);
}

/**
 * The day figures that changed since the last flush (at most `limit`), whole: D1 keeps the higher
 * of its figure and the one sent (the flush statement's trigger), so sending a day twice is harmless.
 */
export function dirtySeatDays(sql: SqlStorage, limit: number): SeatDayRow[] {
  return sql
    .exec<SeatDayRow>("SELECT day, book_id AS bookId, peak, turned_away AS turnedAway FROM seat_days WHERE dirty = 1 LIMIT ?", limit)
    .toArray();
}

/** D1 has these figures; one that rose while the statement was on its way stays dirty for the next flush. */
export function seatDaysSent(sql: SqlStorage, days: SeatDayRow[]) {
  for (const row of days)
    sql.exec(
      "UPDATE seat_days SET dirty = 0 WHERE day = ? AND book_id = ? AND peak = ? AND turned_away = ?",
      row.day,
      row.bookId,
      row.peak,
      row.turnedAway,
    );
}

/** Seat figures sent and refusals of days before `day` are no longer needed. */
export function forgetSeatDaysBefore(sql: SqlStorage, day: string) {
  sql.exec("DELETE FROM seat_days WHERE day < ? AND dirty = 0", day);
  sql.exec("DELETE FROM seat_refusals WHERE day < ?", day);
}

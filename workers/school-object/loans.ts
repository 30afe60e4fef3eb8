/**
 * Offline loans in the school's object (docs/decisions/0050): a book one session keeps for offline
 * reading, with the key its copy is encrypted under. A loan is live while it has not ended, its
 * day has not come, and its session is live and its teacher not disabled; a live loan holds one of
 * the licence's seats (seats.ts counts it). Sessions end in many places (sign-out, sign-out
 * everywhere, a revoked device, the session limit, a disable, a deletion, an erasure): rather than
 * hook each, liveness asks for the session itself, so a loan whose session went is no longer live
 * at once, and `settleLoans` records why and wipes its key the next time loans are looked at.
 */

import { dayOf } from "#shared/rules/licence.ts";
import {
  type LoanEndReason,
  OFFLINE_KEY_BYTES,
  OFFLINE_LOAN_GONE,
  OFFLINE_LOAN_NOT_FOUND,
  offlineCapMessage,
} from "#shared/rules/offline.ts";
import { DAY_MS } from "#shared/rules/retention.ts";
import { LIVE_LOAN } from "./loan-live.ts";
import { budgetWaitMs, type FlushSoon } from "./reading.ts";
import { answer, noSeat, type ObjectOutcome, overBudget, refuse } from "./refusals.ts";
import { seatFree, turnAway } from "./seats.ts";
import type { SessionTeacher } from "./sessions.ts";
import { countEvent } from "./usage.ts";

/** A loan as its own session receives it (the contract's `loan`). */
export type SessionLoan = { id: string; bookId: number; until: number; key: string; pageCount: number };
/** A live loan as an admin or coordinator sees it (no key). */
export type SchoolLoan = {
  id: string;
  bookId: number;
  teacherId: number;
  teacherName: string;
  teacherEmail: string;
  until: number;
  createdAt: number;
};

export interface NewLoan {
  bookId: number;
  pageCount: number;
  /** The licence's seat limit (null: none). */
  seats: number | null;
  days: number;
  /** The school's offline books per teacher. */
  cap: number;
}

/** Ended loans (keys wiped) are kept this long, so reads made before the end can still be reported. */
export const ENDED_LOAN_KEPT_MS = 30 * DAY_MS;

const SESSION_LOAN_COLUMNS = "l.id, l.book_id AS bookId, l.until, l.key, l.page_count AS pageCount";

/**
 * Loans no longer live (their day came, their session or teacher went) are ended with their reason
 * and lose their key: one session's (`tokenHash`, its contact check: no scan of the school's loans
 * on every page load) or every one (the tidying alarm, the staff's list, a new loan's cap).
 */
export function settleLoans(sql: SqlStorage, now: number, tokenHash?: string) {
  sql.exec(
    `UPDATE offline_loans AS l SET ended_at = ?1, key = NULL,
       ended = CASE WHEN l.until <= ?1 THEN 'expired'
         WHEN EXISTS (SELECT 1 FROM teachers t WHERE t.id = l.teacher_id AND t.disabled = 1) THEN 'teacher-disabled'
         ELSE 'signed-out' END
     WHERE l.ended IS NULL AND (?2 IS NULL OR l.token_hash = ?2) AND NOT (${LIVE_LOAN})`,
    now,
    tokenHash ?? null,
  );
}

/** Ends these loans (by id, still live) for `reason`; how many ended. Their seats are free at once. */
export function endLoans(sql: SqlStorage, ids: readonly string[], reason: LoanEndReason, now: number): number {
  if (!ids.length) return 0;
  return sql.exec(
    "UPDATE offline_loans SET ended = ?, ended_at = ?, key = NULL WHERE ended IS NULL AND id IN (SELECT value FROM json_each(?))",
    reason,
    now,
    JSON.stringify(ids),
  ).rowsWritten;
}

function sessionLoan(sql: SqlStorage, tokenHash: string, bookId: number, now: number): SessionLoan | null {
  const [row] = sql
    .exec<SessionLoan>(
      `SELECT ${SESSION_LOAN_COLUMNS} FROM offline_loans l WHERE l.token_hash = ?2 AND l.book_id = ?3 AND ${LIVE_LOAN} LIMIT 1`,
      now,
      tokenHash,
      bookId,
    )
    .toArray();
  return row ?? null;
}

function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(OFFLINE_KEY_BYTES));
  return btoa(String.fromCharCode(...bytes));
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The session keeps the book offline: its live loan of the book again (created: false), or a new
 * one. Refused, with nothing written but the day's seat refusal, when the teacher keeps `cap` books
 * already, no seat is free, or the budget has no page left.
 */
export function createLoan(
  sql: SqlStorage,
  teacher: SessionTeacher,
  tokenHash: string,
  input: NewLoan,
  now: number,
  flushSoon: FlushSoon,
): ObjectOutcome<{ loan: SessionLoan; created: boolean }> {
  settleLoans(sql, now);
  const existing = sessionLoan(sql, tokenHash, input.bookId, now);
  if (existing) return answer({ loan: existing, created: false });
  const { n: kept } = sql
    .exec<{ n: number }>(`SELECT count(*) AS n FROM offline_loans l WHERE l.teacher_id = ?2 AND ${LIVE_LOAN}`, now, teacher.id)
    .one();
  if (kept >= input.cap) return refuse({ kind: "conflict", error: offlineCapMessage(input.cap), details: { status: "offline-cap" } });
  if (input.seats !== null && !seatFree(sql, teacher.id, input.bookId, input.seats, now)) {
    if (turnAway(sql, teacher.id, input.bookId, now)) flushSoon(now);
    return refuse(noSeat(input.seats));
  }
  const waitMs = budgetWaitMs(sql, teacher.id, input.bookId, input.pageCount, now, 1);
  if (waitMs !== null) return refuse(overBudget(waitMs));
  // A loan cannot outlive the session its key is handed to.
  const { expiresAt } = sql
    .exec<{ expiresAt: number }>("SELECT expires_at AS expiresAt FROM sessions WHERE token_hash = ?", tokenHash)
    .one();
  const loan: SessionLoan = {
    id: randomId(),
    bookId: input.bookId,
    until: Math.min(now + input.days * DAY_MS, expiresAt),
    key: randomKey(),
    pageCount: input.pageCount,
  };
  sql.exec(
    `INSERT INTO offline_loans (id, teacher_id, token_hash, book_id, key, page_count, until, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    loan.id,
    teacher.id,
    tokenHash,
    loan.bookId,
    loan.key,
    loan.pageCount,
    loan.until,
    now,
  );
  return answer({ loan, created: true });
}

/** The session's live loans, with their keys (the contact check). */
export function sessionLoans(sql: SqlStorage, tokenHash: string, now: number): SessionLoan[] {
  settleLoans(sql, now, tokenHash);
  return sql
    .exec<SessionLoan>(
      `SELECT ${SESSION_LOAN_COLUMNS} FROM offline_loans l WHERE l.token_hash = ?2 AND ${LIVE_LOAN} ORDER BY l.created_at`,
      now,
      tokenHash,
    )
    .toArray();
}

/** The teacher returns the book early on this device: its seat is free at once. */
export function returnLoan(sql: SqlStorage, tokenHash: string, bookId: number, now: number): ObjectOutcome<null> {
  const loan = sessionLoan(sql, tokenHash, bookId, now);
  if (!loan) return refuse({ kind: "not-found", error: OFFLINE_LOAN_NOT_FOUND });
  endLoans(sql, [loan.id], "returned", now);
  return answer(null);
}

/** The school's live loans, latest first (the admin's school page, the coordinator's My school). */
export function schoolLoans(sql: SqlStorage, now: number): SchoolLoan[] {
  settleLoans(sql, now);
  return sql
    .exec<SchoolLoan>(
      `SELECT l.id, l.book_id AS bookId, l.teacher_id AS teacherId, t.name AS teacherName, t.email AS teacherEmail, l.until,
         l.created_at AS createdAt
       FROM offline_loans l JOIN teachers t ON t.id = l.teacher_id WHERE ${LIVE_LOAN} ORDER BY l.created_at DESC`,
      now,
    )
    .toArray();
}

/** An admin or coordinator ends a live loan ("Return now"): the loan as it was, or not found. */
export function returnLoanById(sql: SqlStorage, loanId: string, now: number): ObjectOutcome<SchoolLoan> {
  const loan = schoolLoans(sql, now).find((row) => row.id === loanId);
  if (!loan) return refuse({ kind: "not-found", error: OFFLINE_LOAN_GONE });
  endLoans(sql, [loan.id], "returned-by-staff", now);
  return answer(loan);
}

export type OfflineReads = { loanId: string; bookId: number; reads: { n: number; at: number }[] };

/**
 * Pages the session read offline under its loan (live or ended: reads made before a return are
 * reported after it), counted once per (loan, page, UTC day) as read pages in the usage. Pages
 * outside the book, and times outside the loan or in the future, are ignored. How many counted.
 */
export function countOfflineReads(
  sql: SqlStorage,
  teacherId: number,
  input: OfflineReads & { tokenHash: string },
  now: number,
  flushSoon: FlushSoon,
): ObjectOutcome<number> {
  const { tokenHash } = input;
  const [loan] = sql
    .exec<{ pageCount: number; createdAt: number; until: number; endedAt: number | null }>(
      `SELECT page_count AS pageCount, created_at AS createdAt, until, ended_at AS endedAt FROM offline_loans
       WHERE id = ? AND token_hash = ? AND book_id = ?`,
      input.loanId,
      tokenHash,
      input.bookId,
    )
    .toArray();
  if (!loan) return refuse({ kind: "not-found", error: OFFLINE_LOAN_NOT_FOUND });
  const last = Math.min(loan.until, loan.endedAt ?? loan.until, now);
  let counted = 0;
  const reads = input.reads
    .filter((r) => r.n >= 1 && r.n <= loan.pageCount && r.at >= loan.createdAt && r.at <= last)
    .sort((a, b) => a.at - b.at);
  for (const read of reads) {
    const first = sql.exec(
      "INSERT OR IGNORE INTO offline_reads (loan_id, page, day) VALUES (?, ?, ?)",
      input.loanId,
      read.n,
      dayOf(read.at),
    ).rowsWritten;
    if (!first) continue;
    countEvent(sql, { teacherId, bookId: input.bookId, pages: 1 }, read.at);
    counted++;
  }
  if (counted > 0) flushSoon(now);
  return answer(counted);
}

/** Loans ended long ago go, with their reads (the object's tidying alarm). */
export function forgetEndedLoans(sql: SqlStorage, now: number) {
  const before = now - ENDED_LOAN_KEPT_MS;
  sql.exec("DELETE FROM offline_reads WHERE loan_id IN (SELECT id FROM offline_loans WHERE ended_at < ?)", before);
  sql.exec("DELETE FROM offline_loans WHERE ended_at < ?", before);
}

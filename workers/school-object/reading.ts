/**
 * A teacher's reading of a book's words, in the school's object: a page's view or a highlight's
 * text read back costs pages of the teacher's budget for the book (workers/reading/page-budget.ts)
 * and, where the licence limits them, a seat (workers/school-object/seats.ts). Checked and spent in one
 * single-threaded step, with no D1 statement and no await between them. The object has checked
 * the teacher's session before any of these (its withSession).
 */
import { pageBudget } from "../reading/page-budget.ts";
import { checkLoanForPage } from "./loan-live.ts";
import { answer, noSeat, type ObjectFailure, type ObjectOutcome, overBudget, refuse } from "./refusals.ts";
import { catalogueVersion } from "./school-storage.ts";
import { seatFree, takeSeat, turnAway } from "./seats.ts";
import type { SessionTeacher } from "./sessions.ts";
import { countEvent } from "./usage.ts";

/**
 * A page spent: whose (the watermark's teacher) and under which catalogue version; or, when
 * `stale`, nothing spent: the book was read under an older catalogue version of the school, read it again.
 */
export type PageSpent = { teacher: SessionTeacher; catalogueVersion: number; stale: boolean };

/** A page refused: every seat held by others (`conflict`, `no-seat`) or the budget spent (`throttled`); nothing spent. */
export type PageCheck = ObjectOutcome<PageSpent>;

/** What the object does when this step left something for the next flush: it sets its alarm. */
export type FlushSoon = (now: number) => void;

export interface PageRead {
  bookId: number;
  pageCount: number;
  countsAsRead: boolean;
  catalogueVersion?: number;
  /** The licence's seat limit (null or absent: none). */
  seats?: number | null;
  /** `offline=<loanId>`: a page downloaded for the session's offline copy. */
  loanId?: string;
}

/**
 * A teacher's page view, in one step: a page of the teacher's budget for the book spent (both
 * windows or neither), and, when `countsAsRead`, the page counted.
 */
export function readPage(
  sql: SqlStorage,
  teacher: SessionTeacher,
  input: PageRead & { tokenHash: string },
  now: number,
  flushSoon: FlushSoon,
): PageCheck {
  const version = catalogueVersion(sql);
  // The Worker's memory of the book predates an admin's change to this school's books.
  if (input.catalogueVersion !== undefined && input.catalogueVersion !== version)
    return answer({ teacher, catalogueVersion: version, stale: true });
  // A page kept for offline (docs/decisions/0050): only under the session's own live loan of the book, and not counted as read now.
  const loanRefused = input.loanId === undefined ? null : checkLoanForPage(sql, input.tokenHash, input.bookId, input.loanId, now);
  if (loanRefused) return refuse(loanRefused);
  const refused = seatAndSpend(sql, teacher.id, input, 1, now, flushSoon);
  if (refused) return refuse(refused);
  if (input.countsAsRead && input.loanId === undefined) {
    countEvent(sql, { teacherId: teacher.id, bookId: input.bookId, pages: 1 }, now);
    flushSoon(now);
  }
  return answer({ teacher, catalogueVersion: version, stale: false });
}

/**
 * What reading the book's words costs, a page's view or a highlight's (docs/decisions/0028, 0032):
 * a seat when the licence limits them, and `cost` pages of the budget. A refusal costs nothing:
 * the seat is looked at first, and taken only once the budget allows the read. The refusal, or null.
 */
export function seatAndSpend(
  sql: SqlStorage,
  teacherId: number,
  book: { bookId: number; pageCount: number; seats?: number | null },
  cost: number,
  now: number,
  flushSoon: FlushSoon,
): ObjectFailure | null {
  const { bookId } = book;
  const seats = book.seats ?? null;
  if (seats !== null && !seatFree(sql, teacherId, bookId, seats, now)) {
    if (turnAway(sql, teacherId, bookId, now)) flushSoon(now);
    return noSeat(seats);
  }
  const waitMs = spend(sql, teacherId, bookId, book.pageCount, now, cost);
  if (waitMs !== null) return overBudget(waitMs);
  if (takeSeat(sql, teacherId, bookId, now)) flushSoon(now);
  return null;
}

/** The wait before `cost` pages of the book may be read (null: they may now); nothing is spent. Keeping a book offline asks it first. */
export function budgetWaitMs(
  sql: SqlStorage,
  teacherId: number,
  bookId: number,
  pageCount: number,
  now: number,
  cost: number,
): number | null {
  return windowsOf(sql, teacherId, bookId, pageCount, now, cost).waitMs;
}

/** Spends `cost` pages of the hour's and the day's budget; the wait when either would be overspent. */
function spend(sql: SqlStorage, teacherId: number, bookId: number, pageCount: number, now: number, cost: number): number | null {
  const { waitMs, current } = windowsOf(sql, teacherId, bookId, pageCount, now, cost);
  if (waitMs !== null) return waitMs;
  for (const window of current) {
    sql.exec(
      "INSERT OR REPLACE INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, ?, ?, ?, ?)",
      teacherId,
      bookId,
      window.name,
      window.count + cost,
      window.windowStart,
    );
  }
  return null;
}

/** The budget's windows as they stand, and the wait when `cost` more pages would overspend either. */
function windowsOf(sql: SqlStorage, teacherId: number, bookId: number, pageCount: number, now: number, cost: number) {
  const budget = pageBudget(pageCount);
  const windows = [
    { name: "h", ...budget.hour },
    { name: "d", ...budget.day },
  ];
  let waitMs = 0;
  const current = windows.map((window) => {
    const [row] = sql
      .exec<{ count: number; windowStart: number }>(
        "SELECT count, window_start AS windowStart FROM budgets WHERE teacher_id = ? AND book_id = ? AND window = ?",
        teacherId,
        bookId,
        window.name,
      )
      .toArray();
    const open = row && row.windowStart > now - window.windowMs;
    const count = open ? row.count : 0;
    const windowStart = open ? row.windowStart : now;
    if (count + cost > window.limit) waitMs = Math.max(waitMs, windowStart + window.windowMs - now, 1000);
    return { ...window, count, windowStart };
  });
  return { waitMs: waitMs > 0 ? waitMs : null, current };
}

/** Budgets whose windows (a day at most) ended. */
export function forgetEndedBudgets(sql: SqlStorage, now: number) {
  sql.exec("DELETE FROM budgets WHERE window_start <= ?", now - 24 * 3600_000);
}

/**
 * A teacher's reading of a book's words, in the school's object: a page's view or a highlight's
 * text read back costs pages of the teacher's budget for the book (workers/reading/page-budget.ts)
 * and, where the licence limits them, a seat (workers/school-object/seats.ts). Checked and spent in one
 * single-threaded step, with no D1 statement and no await between them.
 */
import { pageBudget } from "../reading/page-budget.ts";
import { catalogueVersion } from "./school-storage.ts";
import { releaseSeat, seatFree, takeSeat, turnAway } from "./seats.ts";
import { checkSession, type SessionTeacher } from "./sessions.ts";
import { countEvent } from "./usage.ts";

export type PageCheck =
  | { status: "ok"; teacher: SessionTeacher; catalogueVersion: number }
  | { status: "disabled" }
  | { status: "none" }
  | { status: "limit"; waitMs: number }
  /** Every seat of the book is held by other teachers (the licence's limit): nothing spent. */
  | { status: "no-seat"; seats: number }
  /** The book was read under an older catalogue version of the school: nothing spent, read it again. */
  | { status: "stale"; catalogueVersion: number };

export type ReadRefusal = { status: "no-seat"; seats: number } | { status: "limit"; waitMs: number };

/** What the object does when this step left something for the next flush: it sets its alarm. */
export type FlushSoon = (now: number) => void;

export interface PageRead {
  tokenHash: string;
  bookId: number;
  pageCount: number;
  countsAsRead: boolean;
  catalogueVersion?: number;
  /** The licence's seat limit (null or absent: none). */
  seats?: number | null;
}

/**
 * A teacher's page view, in one step: the session checked, a page of the teacher's budget for
 * the book spent (both windows or neither), and, when `countsAsRead`, the page counted.
 */
export function readPage(sql: SqlStorage, input: PageRead, now: number, flushSoon: FlushSoon): PageCheck {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session;
  const version = catalogueVersion(sql);
  // The Worker's memory of the book predates an admin's change to this school's books.
  if (input.catalogueVersion !== undefined && input.catalogueVersion !== version) return { status: "stale", catalogueVersion: version };
  const read = { teacherId: session.teacher.id, bookId: input.bookId, pageCount: input.pageCount, seats: input.seats ?? null, cost: 1 };
  const refused = seatAndSpend(sql, read, now, flushSoon);
  if (refused) return refused;
  if (input.countsAsRead) {
    countEvent(sql, { teacherId: session.teacher.id, bookId: input.bookId, pages: 1 }, now);
    flushSoon(now);
  }
  return { ...session, catalogueVersion: version };
}

/**
 * What reading the book's words costs, a page's view or a highlight's (docs/decisions/0028, 0032):
 * a seat when the licence limits them, and `cost` pages of the budget. A refusal costs nothing:
 * the seat is looked at first, and taken only once the budget allows the read.
 */
export function seatAndSpend(
  sql: SqlStorage,
  read: { teacherId: number; bookId: number; pageCount: number; seats: number | null; cost: number },
  now: number,
  flushSoon: FlushSoon,
): ReadRefusal | null {
  const { teacherId, bookId, seats } = read;
  if (seats !== null && !seatFree(sql, teacherId, bookId, seats, now)) {
    if (turnAway(sql, teacherId, bookId, now)) flushSoon(now);
    return { status: "no-seat", seats };
  }
  const waitMs = spend(sql, teacherId, bookId, read.pageCount, now, read.cost);
  if (waitMs !== null) return { status: "limit", waitMs };
  if (takeSeat(sql, teacherId, bookId, now)) flushSoon(now);
  return null;
}

/** Spends `cost` pages of the hour's and the day's budget; the wait when either would be overspent. */
function spend(sql: SqlStorage, teacherId: number, bookId: number, pageCount: number, now: number, cost: number): number | null {
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
  if (waitMs > 0) return waitMs;
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

/** The teacher closed the book: their seat, if they held one, is free for the next. */
export function closeBook(sql: SqlStorage, input: { tokenHash: string; bookId: number }, now: number): "ok" | "none" | "disabled" {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session.status;
  releaseSeat(sql, session.teacher.id, input.bookId);
  return "ok";
}

/** Budgets whose windows (a day at most) ended. */
export function forgetEndedBudgets(sql: SqlStorage, now: number) {
  sql.exec("DELETE FROM budgets WHERE window_start <= ?", now - 24 * 3600_000);
}

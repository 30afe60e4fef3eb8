/**
 * A page of a teacher's reading budget, spent in one call to the school's object
 * (docs/decisions/0024), which checks the session first: the gate need not ask again.
 */
import { noSeatMessage } from "#shared/rules/licence.ts";
import { schoolObject } from "../school-object/objects.ts";
import { markDay } from "../stamp/mark-key.ts";
import { watermarkLines } from "../stamp/watermark.ts";
import { type Opened, STALE } from "./open-book.ts";
import { readingLimitMessage } from "./page-budget.ts";
import { forgetPageViewBook, rememberPageViewBook } from "./page-view-cache.ts";
import { Refusal, sessionChecked, signedOut } from "./page-view-gate.ts";

/**
 * For a teacher, whose page this is: the lines stamped on it and the UTC day of its hidden mark
 * (the stamp's date is that day). For an admin, nothing to stamp.
 */
export type Spent = { watermark: null } | { watermark: string[]; teacherId: number; day: string };

/** The school's object will not give a teacher the book's words (a page, or their annotations): signed out, no seat, or the budget spent. */
export type ObjectRefusal =
  | { status: "none" }
  | { status: "disabled" }
  | { status: "no-seat"; seats: number }
  | { status: "limit"; waitMs: number };

/** That refusal as the reader is told it, the same for a page and for annotations: 401, 409 with no seat, 429. */
export function readRefusal(refused: ObjectRefusal): Refusal {
  if (refused.status === "none" || refused.status === "disabled") return signedOut(refused.status);
  if (refused.status === "no-seat") return new Refusal(409, noSeatMessage(refused.seats), { status: "no-seat" }, { "Retry-After": "60" });
  return new Refusal(429, readingLimitMessage(refused.waitMs), {}, { "Retry-After": String(Math.ceil(refused.waitMs / 1000)) });
}

/**
 * A teacher's page, in one call to the school's object: the session checked, a page of the
 * budget spent and, when `countsAsRead`, the page counted (docs/decisions/0024). The 401 when
 * the session is gone, the 429 when the budget is spent. Admins pay nothing.
 */
export async function spend(opened: Opened, countsAsRead: boolean): Promise<Spent | Refusal | typeof STALE> {
  const { reader, book, set, ask } = opened;
  if (reader.kind !== "teacher") return { watermark: null };
  const result = await schoolObject(ask.context.env, reader.schoolId).readPage(reader.schoolId, {
    tokenHash: reader.tokenHash,
    bookId: book.id,
    pageCount: set.pageCount ?? 1,
    countsAsRead,
    catalogueVersion: opened.cachedVersion,
    seats: opened.seats,
  });
  // The object checks the session before anything else: whatever it answered, the gate need not ask again.
  sessionChecked(reader);
  if (result.status === "stale") {
    forgetPageViewBook(reader.schoolId, book.id);
    return STALE;
  }
  if (result.status === "none" || result.status === "disabled" || result.status === "no-seat" || result.status === "limit")
    return readRefusal(result);
  if (opened.row && opened.cachedVersion === undefined) rememberPageViewBook(reader.schoolId, opened.row, result.catalogueVersion);
  const { teacher } = result;
  const day = markDay();
  return { watermark: watermarkLines(teacher.name, teacher.email, opened.schoolName ?? "", day), teacherId: teacher.id, day };
}

/**
 * A page of a teacher's reading budget, spent in one call to the school's object
 * (docs/decisions/0024), which checks the session first: the gate need not ask again.
 */
import { done, type Outcome } from "../kernel/failure.ts";
import { schoolObject } from "../school-object/objects.ts";
import { markDay } from "../stamp/mark-key.ts";
import { watermarkLines } from "../stamp/watermark.ts";
import { type Opened, STALE } from "./open-book.ts";
import { forgetPageViewBook, rememberPageViewBook } from "./page-view-cache.ts";
import { sessionChecked } from "./page-view-gate.ts";

/**
 * For a teacher, whose page this is: the lines stamped on it and the UTC day of its hidden mark
 * (the stamp's date is that day). For an admin, nothing to stamp.
 */
export type Spent = { watermark: null } | { watermark: string[]; teacherId: number; day: string };

/**
 * A teacher's page, in one call to the school's object: the session checked, a page of the
 * budget spent and, when `countsAsRead`, the page counted (docs/decisions/0024). The object's
 * failure when the session is gone, every seat is held or the budget is spent
 * (workers/school-object/refusals.ts). Admins pay nothing.
 */
export async function spend(opened: Opened, countsAsRead: boolean): Promise<Outcome<Spent> | typeof STALE> {
  const { reader, book, set, ask } = opened;
  if (reader.kind !== "teacher") return done({ watermark: null });
  const result = await schoolObject(ask.context.env, reader.schoolId).readPage(reader.schoolId, {
    tokenHash: reader.tokenHash,
    bookId: book.id,
    pageCount: set.pageCount ?? 1,
    // A page kept for offline is spent like a page read; the object counts it when it is read (reported later).
    countsAsRead,
    ...(ask.offlineLoanId === undefined ? {} : { loanId: ask.offlineLoanId }),
    catalogueVersion: opened.cachedVersion,
    seats: opened.seats,
  });
  // The object checks the session before anything else: whatever it answered, the gate need not ask again.
  sessionChecked(reader);
  if (!result.ok) return result;
  if (result.value.stale) {
    forgetPageViewBook(reader.schoolId, book.id);
    return STALE;
  }
  // Read from D1, or the last known book whose version the object just confirmed: remembered for the next minute.
  if (opened.row && (opened.cachedVersion === undefined || opened.lastKnown))
    rememberPageViewBook(reader.schoolId, opened.row, result.value.catalogueVersion);
  const { teacher } = result.value;
  const day = markDay();
  return done({ watermark: watermarkLines(teacher.name, teacher.email, opened.schoolName ?? "", day), teacherId: teacher.id, day });
}

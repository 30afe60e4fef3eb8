/**
 * A teacher's side of an offline loan (docs/decisions/0050, THE SHARED CONTRACT of issue 45): keep
 * a book for offline reading, the contact check, return it early, report pages read offline. The
 * session is the request's (checked by the request context); the loan, its seat and its key live
 * in the school's object, which checks the session again in the same step.
 */

import { z } from "zod";
import { dayOf, licenceState } from "#shared/rules/licence.ts";
import { OFFLINE_NOT_ALLOWED } from "#shared/rules/offline.ts";
import { type OfflineReadsBody, OfflineReadsBodySchema } from "#shared/rules/offline-loan-schema.ts";
import type { TeacherSession } from "../auth/sessions.ts";
import { teacherCommand } from "../kernel/command.ts";
import type { RequestContext } from "../kernel/context.ts";
import { done, failed, type Outcome } from "../kernel/failure.ts";
import { open } from "../reading/open-book.ts";
import type { SessionLoan } from "../school-object/loans.ts";
import { schoolObject } from "../school-object/objects.ts";
import { idFrom } from "../validation/schemas.ts";
import { keepLicensedLoans, loanEndsBecause, offlineTerms } from "./terms.ts";

const BOOK_NOT_FOUND = { kind: "not-found", error: "Book not found" } as const;
const PREPARING = {
  kind: "conflict",
  error: "This book is still being prepared. Please check back in a few minutes.",
  details: { status: "preparing" },
} as const;

/**
 * Keeps the book offline for the session: its loan of the book if it has one (created: false),
 * else a new one. Refused as reading refuses (not the school's book, licence ended, still being
 * prepared, no seat, budget spent) and when the licence or the school's cap says no.
 */
export async function keepForOffline(
  context: RequestContext,
  teacher: TeacherSession,
  bookId: number | null,
  now = Date.now(),
): Promise<Outcome<{ loan: SessionLoan; created: boolean }>> {
  if (!bookId) return failed(BOOK_NOT_FOUND);
  const schoolId = teacher.school.id;
  const reader = { kind: "teacher", schoolId, tokenHash: teacher.tokenHash, checked: true } as const;
  const [opening, terms] = await Promise.all([
    open({ context, reader: { kind: "teacher", teacher }, bookId }, reader, true),
    offlineTerms(context.db, schoolId, [bookId]),
  ]);
  if (!opening.ok) return opening;
  const opened = opening.value;
  const licence = terms.get(bookId);
  // open() refused a book without an active licence; one that began since is read the same way here.
  if (!licence || licenceState(licence, dayOf(now)) !== "active") return failed(BOOK_NOT_FOUND);
  if (loanEndsBecause(licence, dayOf(now)) === "offline-not-allowed")
    return failed({ kind: "refused", error: OFFLINE_NOT_ALLOWED, details: { status: "offline-not-allowed" } });
  // A book still being prepared can be read as its pages come, but not kept: the copy would lack the rest.
  if (opened.set.status !== "ready" || opened.set.pageCount === null) return failed(PREPARING);
  const pageCount = opened.set.pageCount;
  return schoolObject(context.env, schoolId).createLoan(schoolId, {
    tokenHash: teacher.tokenHash,
    bookId,
    pageCount,
    seats: opened.seats,
    days: licence.offlineDays,
    cap: teacher.school.offlineBooksPerTeacher,
    now,
  });
}

/**
 * The contact check: the session's live loans with their keys. Loans whose licence ended or no
 * longer allows offline reading end here (their seats free); a session that is gone never gets
 * here (401: the client erases every copy).
 */
export async function contactCheck(context: RequestContext, teacher: TeacherSession, now = Date.now()): Promise<Outcome<SessionLoan[]>> {
  const schoolId = teacher.school.id;
  const listed = await schoolObject(context.env, schoolId).sessionLoans(schoolId, { tokenHash: teacher.tokenHash, now });
  if (!listed.ok) return listed;
  const kept = await keepLicensedLoans(context.db, context.env, schoolId, listed.value, now);
  return done(kept.map(({ loan }) => loan));
}

/** The teacher returns the book early on this device: the seat is free at once. */
export async function returnOwnLoan(context: RequestContext, teacher: TeacherSession, bookId: number | null): Promise<Outcome<null>> {
  if (!bookId) return failed(BOOK_NOT_FOUND);
  const schoolId = teacher.school.id;
  return schoolObject(context.env, schoolId).returnLoan(schoolId, { tokenHash: teacher.tokenHash, bookId });
}

/** Pages read offline under the session's loan of the book, counted in the usage once per (loan, page, UTC day). */
export async function reportOfflineReads(
  context: RequestContext,
  teacher: TeacherSession,
  bookId: number | null,
  body: OfflineReadsBody,
): Promise<Outcome<{ counted: number }>> {
  if (!bookId) return failed(BOOK_NOT_FOUND);
  const schoolId = teacher.school.id;
  const counted = await schoolObject(context.env, schoolId).countOfflineReads(schoolId, {
    tokenHash: teacher.tokenHash,
    bookId,
    loanId: body.loanId,
    reads: body.reads,
  });
  return counted.ok ? done({ counted: counted.value }) : counted;
}

const BookRef = z.object({ id: z.unknown() });

/** `POST /api/books/:id/offline`. */
export const keepForOfflineCommand = teacherCommand(BookRef, async ({ session, ...context }, { id }) =>
  keepForOffline(context, session, idFrom(id)),
);

/** `DELETE /api/books/:id/offline`. */
export const returnOwnLoanCommand = teacherCommand(BookRef, async ({ session, ...context }, { id }) =>
  returnOwnLoan(context, session, idFrom(id)),
);

/** `POST /api/books/:id/offline/reads`. */
export const reportOfflineReadsCommand = teacherCommand(
  OfflineReadsBodySchema.extend({ id: z.unknown() }),
  async ({ session, ...context }, { id, ...body }) => reportOfflineReads(context, session, idFrom(id), body),
);

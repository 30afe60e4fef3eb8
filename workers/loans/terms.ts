/**
 * What a school's licences say about offline reading (docs/decisions/0050), read from D1: whether a
 * book may be kept offline today, and for how many days. A loan lives in the school's object; the
 * licence in D1; the contact check and the staff's list bring them together and end the loans
 * their licence no longer allows.
 */
import { and, eq, inArray } from "drizzle-orm";
import { dayOf, licenceState } from "#shared/rules/licence.ts";
import type { LoanEndReason } from "#shared/rules/offline.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books } from "../db/schema.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";

export type OfflineTerms = {
  bookId: number;
  title: string;
  offlineAllowed: boolean;
  offlineDays: number;
  startsOn: string;
  endsOn: string | null;
};

/** The licence terms of these books at the school, by book (a book with no licence is absent). */
export async function offlineTerms(db: Db, schoolId: number, bookIds: readonly number[]): Promise<Map<number, OfflineTerms>> {
  if (!bookIds.length) return new Map();
  const rows = await db
    .select({
      bookId: bookAccess.bookId,
      title: books.title,
      offlineAllowed: bookAccess.offlineAllowed,
      offlineDays: bookAccess.offlineDays,
      startsOn: bookAccess.startsOn,
      endsOn: bookAccess.endsOn,
    })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(and(eq(bookAccess.schoolId, schoolId), inArray(bookAccess.bookId, [...new Set(bookIds)])));
  return new Map(rows.map((row) => [row.bookId, row]));
}

/** Why a loan of this book must end now (its licence is gone, not active, or no longer allows offline), or null. */
export function loanEndsBecause(terms: OfflineTerms | undefined, today: string): LoanEndReason | null {
  if (!terms || licenceState(terms, today) !== "active") return "licence-ended";
  return terms.offlineAllowed ? null : "offline-not-allowed";
}

/**
 * The loans whose licence still allows them, with their terms; the others are ended in the
 * school's object (their seats free at once, their keys never handed out again).
 */
export async function keepLicensedLoans<Loan extends { id: string; bookId: number }>(
  db: Db,
  hot: HotState,
  schoolId: number,
  loans: Loan[],
  now = Date.now(),
): Promise<{ loan: Loan; terms: OfflineTerms }[]> {
  if (!loans.length) return [];
  const terms = await offlineTerms(
    db,
    schoolId,
    loans.map((loan) => loan.bookId),
  );
  const today = dayOf(now);
  const ending = new Map<LoanEndReason, string[]>();
  const kept: { loan: Loan; terms: OfflineTerms }[] = [];
  for (const loan of loans) {
    const reason = loanEndsBecause(terms.get(loan.bookId), today);
    if (reason) ending.set(reason, [...(ending.get(reason) ?? []), loan.id]);
    else kept.push({ loan, terms: terms.get(loan.bookId)! });
  }
  for (const [reason, ids] of ending) {
    const ended = await schoolObject(hot, schoolId).endLoans(schoolId, ids, reason, now);
    log.info("Offline loans ended by their licence", { schoolId, reason, ended });
  }
  return kept;
}

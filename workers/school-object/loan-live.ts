/**
 * When an offline loan (alias `l`) is live, as SQL with the moment as `?1` (docs/decisions/0050):
 * not ended, its day not come, its session live (not ended, not past its lifetime) and its teacher
 * not disabled. Apart from loans.ts so seats.ts and reading.ts can ask it without importing the loans' module.
 */
import { OFFLINE_LOAN_REFUSED } from "#shared/rules/offline.ts";
import type { ObjectFailure } from "./refusals.ts";

export const LIVE_LOAN = `(l.ended IS NULL AND l.until > ?1 AND EXISTS (SELECT 1 FROM sessions s JOIN teachers t ON t.id = s.teacher_id
  WHERE s.token_hash = l.token_hash AND s.ended IS NULL AND s.expires_at > ?1 AND t.disabled = 0))`;

/** A page asked for under `offline=<loanId>`: the session's own live loan of this book, or refused (403). */
export function checkLoanForPage(sql: SqlStorage, tokenHash: string, bookId: number, loanId: string, now: number): ObjectFailure | null {
  const [row] = sql
    .exec(
      `SELECT 1 FROM offline_loans l WHERE l.id = ?2 AND l.token_hash = ?3 AND l.book_id = ?4 AND ${LIVE_LOAN}`,
      now,
      loanId,
      tokenHash,
      bookId,
    )
    .toArray();
  return row ? null : { kind: "refused", error: OFFLINE_LOAN_REFUSED, details: { status: "offline-loan-ended" } };
}

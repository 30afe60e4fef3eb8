import { OFFLINE_READS_PER_REPORT } from "#shared/rules/offline.ts";
import type { OfflineLoan } from "#shared/rules/offline-loan-schema.ts";
import { bookApi, ReaderApiError, request } from "../reader/reader-api.ts";

/**
 * The browser's side of the loans API (THE SHARED CONTRACT of issue 45, section 2). The answers
 * are checked by hand against shared/rules/offline-loan-schema.ts's shapes rather than parsed with
 * it: the reader's island imports this module, and zod would add 23 kB to it (docs/decisions/0031).
 */

function isLoan(value: unknown): value is OfflineLoan {
  if (!value || typeof value !== "object") return false;
  const loan = value as Record<string, unknown>;
  return (
    typeof loan.id === "string" &&
    loan.id.length > 0 &&
    Number.isInteger(loan.bookId) &&
    Number.isInteger(loan.until) &&
    typeof loan.key === "string" &&
    Number.isInteger(loan.pageCount) &&
    (loan.pageCount as number) > 0
  );
}

/** The loans API's requests fail as the reader's do (a 401 also forgets the app shell's pages). */
const call = (path: string, init: RequestInit = {}, signal?: AbortSignal) =>
  request(path, "The server could not answer. Please try again.", init, signal);

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Borrows the book for this device (or answers this session's loan of it again, with its key). */
export async function requestLoan(bookId: number, signal?: AbortSignal): Promise<OfflineLoan> {
  const answer = (await (await call(`${bookApi(bookId)}/offline`, { method: "POST" }, signal)).json()) as { loan?: unknown };
  if (!isLoan(answer.loan) || answer.loan.bookId !== bookId) throw new ReaderApiError("The server's answer was not a loan.", 500);
  return answer.loan;
}

/** Returns the book early: the seat is freed at once. A loan already gone (404) is returned too. */
export async function returnLoan(bookId: number): Promise<void> {
  try {
    await call(`${bookApi(bookId)}/offline`, { method: "DELETE" });
  } catch (error) {
    if (!(error instanceof ReaderApiError && error.status === 404)) throw error;
  }
}

/** The contact check: this session's live loans, or "signed-out" (401: every copy must go). */
export async function fetchLiveLoans(): Promise<OfflineLoan[] | "signed-out"> {
  try {
    const answer = (await (await call("/api/teacher/offline")).json()) as { loans?: unknown };
    if (!Array.isArray(answer.loans)) throw new ReaderApiError("The server's answer was not a list of loans.", 500);
    return answer.loans.filter(isLoan);
  } catch (error) {
    if (error instanceof ReaderApiError && error.status === 401) return "signed-out";
    throw error;
  }
}

/** Reports pages read offline, a report of at most OFFLINE_READS_PER_REPORT at a time. */
export async function reportReads(bookId: number, loanId: string, reads: { n: number; at: number }[]): Promise<void> {
  for (let from = 0; from < reads.length; from += OFFLINE_READS_PER_REPORT) {
    await call(`${bookApi(bookId)}/offline/reads`, json({ loanId, reads: reads.slice(from, from + OFFLINE_READS_PER_REPORT) }));
  }
}

/** One page's stamped image at `width`, downloaded under the loan. */
export async function downloadImage(bookId: number, loanId: string, n: number, width: number, signal?: AbortSignal): Promise<Blob> {
  const query = `w=${width}&offline=${encodeURIComponent(loanId)}`;
  return (await call(`${bookApi(bookId)}/pages/${n}?${query}`, {}, signal)).blob();
}

/** One page's text, downloaded under the loan, as its bytes (stored sealed as they came). */
export async function downloadText(bookId: number, loanId: string, n: number, signal?: AbortSignal): Promise<ArrayBuffer> {
  return (await call(`${bookApi(bookId)}/pages/${n}/text?offline=${encodeURIComponent(loanId)}`, {}, signal)).arrayBuffer();
}

/**
 * What the school's object answers, in the Worker's one error language (workers/kernel/failure.ts):
 * a value, or a failure of one of its kinds; the same failure for a page and for an annotation's
 * words, so the reader is told the same.
 */
import { noSeatMessage } from "#shared/rules/licence.ts";
import type { Failure } from "../kernel/failure.ts";
import { readingLimitMessage } from "../reading/page-budget.ts";
import { MAX_ANNOTATIONS_PER_BOOK } from "./annotations.ts";

/**
 * A Failure as it crosses the object's RPC boundary: its details are plain values. (Failure's
 * `unknown` fields do not pass Cloudflare's RPC types, which would drop the failure from the answer's
 * type.) Every ObjectFailure is a Failure, so the edge maps it as any other.
 */
export type ObjectFailure = Omit<Failure, "rows" | "details"> & { details?: Record<string, string | number | boolean> };
/** What the object's RPC methods answer: the value, or the failure. An `Outcome` for the caller. */
export type ObjectOutcome<Value> = { ok: true; value: Value } | { ok: false; failure: ObjectFailure };

export const answer = <Value>(value: Value): ObjectOutcome<Value> => ({ ok: true, value });
export const refuse = (failure: ObjectFailure): { ok: false; failure: ObjectFailure } => ({ ok: false, failure });

/** Every seat of the book is held by other teachers (the licence's limit): try again in a minute. */
export function noSeat(seats: number): ObjectFailure {
  return { kind: "conflict", error: noSeatMessage(seats), retryAfterSeconds: 60, details: { status: "no-seat" } };
}

/** The teacher's page budget for the book is spent until `waitMs` from now. */
export function overBudget(waitMs: number): ObjectFailure {
  return { kind: "throttled", error: readingLimitMessage(waitMs), retryAfterSeconds: Math.ceil(waitMs / 1000) };
}

export const ANNOTATION_NOT_FOUND = "Annotation not found";
export const BOOK_FULL = `You can keep at most ${MAX_ANNOTATIONS_PER_BOOK.toLocaleString("en-US")} bookmarks, highlights and notes in one book. Delete some to add more.`;

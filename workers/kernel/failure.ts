/**
 * The one error language of the Worker (docs/decisions/0041-error-language.md). A domain operation
 * answers a value or a Failure: what kind of failure it is, the sentence a person reads, and the
 * input field at fault where there is one. Nothing below the edge (workers/api, workers/http and
 * the page actions' adapter in app/lib) names an HTTP status: the edge maps a kind to a status
 * once, in workers/http/failure-status.ts.
 */

/**
 * - `invalid`: the input is wrong (`field` names the input at fault, `rows` an import's rows);
 * - `unauthenticated`: nobody is signed in, or the credentials are wrong;
 * - `refused`: allowed input, but not for this person (a teacher of another school, not a coordinator);
 * - `not-found`: what it names does not exist (or is not this person's to see);
 * - `conflict`: it clashes with what exists (a taken slug, a page set already complete, no seat free);
 * - `too-large`: the body or file is bigger than the limit;
 * - `unsupported`: a file of a type it does not take;
 * - `unprocessable`: well-formed, but it cannot be worked with (a PDF that cannot be prepared);
 * - `throttled`: too many tries; `retryAfterSeconds` says when to come back;
 * - `upstream-failed`: a service it needs answered with a failure (the mail server refused);
 * - `unavailable`: a service it needs could not be reached or is busy.
 */
export type FailureKind =
  | "invalid"
  | "unauthenticated"
  | "refused"
  | "not-found"
  | "conflict"
  | "too-large"
  | "unsupported"
  | "unprocessable"
  | "throttled"
  | "upstream-failed"
  | "unavailable";

export interface Failure {
  kind: FailureKind;
  /** The sentence a person reads. */
  error: string;
  /** The input field at fault (a form marks it). */
  field?: string;
  /** An import's rows with their own errors. */
  rows?: unknown;
  /** When trying again makes sense (throttles, a book still being prepared, no seat free). */
  retryAfterSeconds?: number;
  /** Further keys the answer carries for a client to act on (`{ status: "no-seat" }`). */
  details?: Record<string, unknown>;
}

export type Outcome<Value> = { ok: true; value: Value } | { ok: false; failure: Failure };
export type Failed = { ok: false; failure: Failure };

export const done = <Value>(value: Value): Outcome<Value> => ({ ok: true, value });
export const failed = (failure: Failure): Failed => ({ ok: false, failure });

/** A failure of `kind` with its sentence and, optionally, the field at fault. */
export const failure = (kind: FailureKind, error: string, field?: string): Failed =>
  failed(field ? { kind, error, field } : { kind, error });

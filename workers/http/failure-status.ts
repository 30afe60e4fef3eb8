import type { Failure, FailureKind } from "../kernel/failure.ts";

/** The one mapping of a failure's kind to an HTTP status (docs/decisions/0041), for the API and the page actions. */
export const FAILURE_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  refused: 403,
  "not-found": 404,
  conflict: 409,
  "too-large": 413,
  unsupported: 415,
  unprocessable: 422,
  throttled: 429,
  "upstream-failed": 502,
  unavailable: 503,
} as const satisfies Record<FailureKind, number>;

export type FailureStatus = (typeof FAILURE_STATUS)[FailureKind];

export function failureStatus(failure: Pick<Failure, "kind">): FailureStatus {
  return FAILURE_STATUS[failure.kind];
}

/** A failure's body as both adapters answer it: `{ error }`, with the field, rows and details it carries. */
export function failureBody(failure: Failure): { error: string; field?: string; rows?: unknown } & Record<string, unknown> {
  return {
    ...failure.details,
    error: failure.error,
    ...(failure.field ? { field: failure.field } : {}),
    ...(failure.rows !== undefined ? { rows: failure.rows } : {}),
  };
}

/** The headers a failure's answer carries: Retry-After where it says when to come back. */
export function failureHeaders(failure: Failure): Record<string, string> {
  return failure.retryAfterSeconds === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(failure.retryAfterSeconds))) };
}

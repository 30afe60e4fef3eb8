/**
 * A part of the platform that failed, recognised by the shape of the error workerd raises
 * (docs/decisions/0047-failure-behaviour.md), as a Failure of kind "unavailable": the sentence a
 * person reads and when to try again (the edge answers 503 with Retry-After). Any other error is
 * ours (a bug): it stays a 500.
 *
 * - D1: an Error whose message starts `D1_ERROR:` (or `D1_EXEC_ERROR:`, `D1_SESSION_ERROR:`),
 *   which drizzle wraps as the `cause` of its "Failed query"; one that names an SQLITE_ code is
 *   the query's own fault (a constraint, a syntax error), not D1 being away.
 * - R2: an `R2Error` (name "R2Error", a numeric `code`: 10001 internal error, 10043 unavailable,
 *   10058 too many requests).
 * - A Durable Object (a school's object): an Error carrying the booleans `retryable`,
 *   `overloaded` or `remote` (Cloudflare's "Durable Objects error handling"); `overloaded` means
 *   retrying at once makes it worse, so it asks for a longer wait.
 */
import type { Failure } from "./failure.ts";

export type PlatformPart = "database" | "files" | "school";

/** How long a client should wait before trying again, per part and cause (seconds). */
export const RETRY_AFTER_SECONDS = { database: 5, files: 3, school: 3, overloaded: 10 } as const;

export const UNAVAILABLE_TEXT = {
  database: "The library's records cannot be reached right now. Please try again in a moment.",
  files: "This file cannot be fetched right now. Please try again in a moment.",
  school: "Your school's library is not answering right now. Please try again in a moment.",
  overloaded: "Your school's library is busy right now. Please try again in a few seconds.",
} as const;

const D1_ERROR = /^D1_(?:[A-Z]+_)?ERROR\b/;

type Shaped = {
  message?: unknown;
  name?: unknown;
  code?: unknown;
  retryable?: unknown;
  overloaded?: unknown;
  remote?: unknown;
  cause?: unknown;
};

/** Which part an error came from and whether it is that part being away; null for any other error. */
export function platformPart(error: unknown): { part: PlatformPart; overloaded: boolean } | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as Shaped).cause, depth++) {
    const shaped = e as Shaped;
    const message = typeof shaped.message === "string" ? shaped.message : "";
    // Before the object's shape: D1 failing inside a school's object reaches us as the object's error.
    if (D1_ERROR.test(message) || shaped.name === "D1_ERROR") {
      if (message.includes("SQLITE_")) return null;
      return { part: "database", overloaded: /overloaded/i.test(message) };
    }
    if (shaped.name === "R2Error" && typeof shaped.code === "number") return { part: "files", overloaded: false };
    if (typeof shaped.retryable === "boolean" || typeof shaped.overloaded === "boolean" || typeof shaped.remote === "boolean") {
      return { part: "school", overloaded: shaped.overloaded === true };
    }
  }
  return null;
}

/** The error as the "unavailable" failure a person is answered with, or null when it is not a platform part failing. */
export function platformFailure(error: unknown): (Failure & { kind: "unavailable"; retryAfterSeconds: number }) | null {
  const found = platformPart(error);
  if (!found) return null;
  const { part, overloaded } = found;
  // A busy database is worded as D1's; a busy school object as the school's (its wait is the longer one).
  const text = overloaded && part === "school" ? UNAVAILABLE_TEXT.overloaded : UNAVAILABLE_TEXT[part];
  const retryAfterSeconds = overloaded ? RETRY_AFTER_SECONDS.overloaded : RETRY_AFTER_SECONDS[part];
  return { kind: "unavailable", error: text, retryAfterSeconds, details: { part } };
}

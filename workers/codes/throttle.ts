/**
 * The throttle on redeeming codes (docs/decisions/0053): a failed try of a well-formed code (wrong,
 * used, expired, withdrawn, its books gone) counts against the person, the school it was for and
 * the client's address, each in its own fixed hour (workers/auth/throttle.ts, on rate_limits). A
 * key that reaches its limit is blocked for an hour, and every key is checked before the code is
 * looked up, so a blocked guesser learns nothing more, not even whether a code exists. The school's
 * limit is what bounds guessing from any number of accounts and addresses: the decision record's
 * arithmetic.
 */
import { blockedFor, describeWait, recordHit, type ThrottleRule } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import type { Failure } from "../kernel/failure.ts";

const HOUR = 60 * 60 * 1000;

/** Failed tries an hour before a key is blocked for an hour. */
export const CODE_TRIES = {
  person: { limit: 10, windowMs: HOUR, blockMs: HOUR },
  school: { limit: 30, windowMs: HOUR, blockMs: HOUR },
  address: { limit: 20, windowMs: HOUR, blockMs: HOUR },
} as const satisfies Record<string, ThrottleRule>;

/** Who is typing a code: a school's coordinator (a teacher) or one of the publisher's admins. */
export type CodePerson = { kind: "teacher" | "admin"; id: number };

/** Who tries a code, for which school, from where. */
export interface CodeTry {
  person: CodePerson;
  schoolId: number;
  ip: string;
}

function keysOf(attempt: CodeTry): { key: string; rule: ThrottleRule }[] {
  return [
    { key: `code:${attempt.person.kind}:${attempt.person.id}`, rule: CODE_TRIES.person },
    { key: `code:school:${attempt.schoolId}`, rule: CODE_TRIES.school },
    { key: `code:ip:${attempt.ip}`, rule: CODE_TRIES.address },
  ];
}

/** The refusal when the person, the school or the address is blocked now; null when none is. */
export async function codeTriesBlocked(db: Db, attempt: CodeTry, now = Date.now()): Promise<Failure | null> {
  const wait = await blockedFor(
    db,
    keysOf(attempt).map(({ key }) => key),
    now,
  );
  if (wait <= 0) return null;
  return {
    kind: "throttled",
    error: `Too many codes tried. Try again in ${describeWait(wait)}.`,
    retryAfterSeconds: Math.ceil(wait / 1000),
    details: { status: "throttled" },
  };
}

/** Counts one failed try against each key (three small upserts, sent together). */
export async function countFailedTry(db: Db, attempt: CodeTry, now = Date.now()): Promise<void> {
  await Promise.all(keysOf(attempt).map(({ key, rule }) => recordHit(db, key, rule, now)));
}

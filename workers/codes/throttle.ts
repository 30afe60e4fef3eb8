/**
 * The throttle on redeeming codes (docs/decisions/0053): failed tries of well-formed codes (wrong,
 * used, expired, withdrawn, books gone) count against the person, the school the code was for and
 * the client's address, each in a fixed hour on rate_limits; a key that reaches its limit is blocked
 * for an hour. The school's limit is what bounds guessing from any number of accounts and
 * addresses: the decision record's arithmetic.
 *
 * Why not auth/throttle.ts's blockedFor-then-recordHit: a check followed later by a count lets a
 * burst of parallel tries all pass the check before the first failure is counted, so a script
 * could make thousands of guesses an hour. Here each try takes its place first, in one atomic
 * upsert per key (`reserveTry`), and is looked up only if every key still had room; a try that
 * redeems gives its place back (`placesGivenBack`, in the redemption's own transaction), a failed one keeps it and blocks the key once it
 * is full (`tryFailed`). So at most `limit` tries of a key are looked up in a window, however many
 * arrive at once, and only failures stay counted.
 */
import { type SQL, sql } from "drizzle-orm";
import { describeWait, type ThrottleRule, throttleAddress } from "../auth/throttle.ts";
import { type Db, runTransaction } from "../db/client.ts";
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

/** A try's place in each key's window (the window it was counted in, so a later window is left alone). */
export type Reservation = { key: string; rule: ThrottleRule; windowStart: number }[];

function keysOf(attempt: CodeTry): { key: string; rule: ThrottleRule }[] {
  return [
    { key: `code:${attempt.person.kind}:${attempt.person.id}`, rule: CODE_TRIES.person },
    { key: `code:school:${attempt.schoolId}`, rule: CODE_TRIES.school },
    { key: `code:ip:${throttleAddress(attempt.ip)}`, rule: CODE_TRIES.address },
  ];
}

type Counted = { count: number; windowStart: number; blockedUntil: number | null };

/**
 * Counts the try against each key (one batch: three upserts), and answers its reservation when
 * every key had room and none is blocked; else gives the places back and answers the refusal,
 * with how long until the last key frees.
 */
export async function reserveTry(
  db: Db,
  attempt: CodeTry,
  now = Date.now(),
): Promise<{ ok: true; reservation: Reservation } | { ok: false; failure: Failure }> {
  const keys = keysOf(attempt);
  const results = await runTransaction(
    db,
    keys.map(
      ({ key, rule }) => sql`INSERT INTO rate_limits (key, count, window_start, blocked_until) VALUES (${key}, 1, ${now}, NULL)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN window_start <= ${now - rule.windowMs} THEN 1 ELSE count + 1 END,
          window_start = CASE WHEN window_start <= ${now - rule.windowMs} THEN ${now} ELSE window_start END
        RETURNING count, window_start AS windowStart, blocked_until AS blockedUntil`,
    ),
  );
  const reservation = keys.map(({ key, rule }, i) => {
    const row = results[i]?.results[0] as Counted | undefined;
    return { key, rule, windowStart: row?.windowStart ?? now, count: row?.count ?? 1, blockedUntil: row?.blockedUntil ?? null };
  });
  const waits = reservation.map(({ rule, windowStart, count, blockedUntil }) =>
    Math.max(
      blockedUntil !== null && blockedUntil > now ? blockedUntil - now : 0,
      count > rule.limit ? windowStart + rule.windowMs - now : 0,
    ),
  );
  const wait = Math.max(...waits);
  if (wait <= 0) return { ok: true, reservation };
  await giveBack(db, reservation);
  return {
    ok: false,
    failure: {
      kind: "throttled",
      error: `Too many codes tried. Try again in ${describeWait(wait)}.`,
      retryAfterSeconds: Math.ceil(wait / 1000),
      details: { status: "throttled" },
    },
  };
}

/** The statements giving a try's places back, run only where `condition` holds as the batch reaches them. */
export function placesGivenBack(reservation: Reservation, condition: SQL = sql`1`): SQL[] {
  return reservation.map(
    ({ key, windowStart }) =>
      sql`UPDATE rate_limits SET count = max(count - 1, 0) WHERE key = ${key} AND window_start = ${windowStart} AND ${condition}`,
  );
}

async function giveBack(db: Db, reservation: Reservation) {
  await runTransaction(db, placesGivenBack(reservation));
}

/** A failed try: it stays counted, and a key now full is blocked for its rule's time from now. */
export async function tryFailed(db: Db, reservation: Reservation, now = Date.now()): Promise<void> {
  await runTransaction(
    db,
    reservation.map(
      ({ key, rule, windowStart }) => sql`UPDATE rate_limits SET blocked_until = ${now + rule.blockMs}
        WHERE key = ${key} AND window_start = ${windowStart} AND count >= ${rule.limit}`,
    ),
  );
}

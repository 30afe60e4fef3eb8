import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { otpCodes, rateLimits } from "../db/schema.ts";
import { done, type Failed, failed, type Outcome } from "../kernel/failure.ts";
import { verifyPassword } from "./password.ts";
import { sweepExpiredSessions } from "./sessions.ts";
import { blockedFor, clearHits, describeWait, recordHit, throttleAddress } from "./throttle.ts";

/**
 * Failed logins (docs/decisions/0016, after OWASP's authentication guidance: slow the attacker,
 * never lock the owner out):
 *   pair:    one account from one client: 5 failures in 15 minutes block that client for that
 *            account for 15 minutes (the owner's own computer is another client);
 *   client:  one client across accounts: 100 failures in 15 minutes (a school building shares an
 *            address) block that client for 15 minutes;
 *   account: one account from everywhere: counted, never a block. Past 10 failures in an hour the
 *            account is "under attack" and only clients with at most one failure on it in the
 *            window may try (step-up): a stranger's many clients each get a guess or two, while
 *            the owner, from a client that has not failed, still signs in with the right password.
 */
export const LOGIN_THROTTLE = {
  pair: { limit: 5, windowMs: 15 * 60_000, blockMs: 15 * 60_000 },
  client: { limit: 100, windowMs: 15 * 60_000, blockMs: 15 * 60_000 },
  account: { underAttack: 10, windowMs: 60 * 60_000, triesWhileUnderAttack: 1 },
} as const;

export const BAD_CREDENTIALS = "Invalid email or password";
/** From this many failures of one account from one client, the 401 says how many tries are left. */
export const WARN_FROM_FAILURES = 3;

/**
 * The wrong-password answer once a client has failed `failures` times on one account: from the
 * third failure it says how many tries are left before the pause, and then that the pause began.
 * It depends only on the count for this e-mail and client, known account or not.
 */
export function badCredentials(failures: number): { error: string; triesLeft?: number } {
  if (failures < WARN_FROM_FAILURES) return { error: BAD_CREDENTIALS };
  const triesLeft = Math.max(0, LOGIN_THROTTLE.pair.limit - failures);
  const pause = `${LOGIN_THROTTLE.pair.blockMs / 60_000} minutes`;
  const error =
    triesLeft === 0
      ? `${BAD_CREDENTIALS}. Sign-in from this device is now paused for ${pause}.`
      : `${BAD_CREDENTIALS}. ${triesLeft} ${triesLeft === 1 ? "try" : "tries"} left before sign-in from this device is paused for ${pause}.`;
  return { error, triesLeft };
}

/** A stored hash of a random password: verifying against it costs what a real check costs. */
const DUMMY_HASH =
  "pbkdf2-sha512$100000$3q2+78r+ur7erb7vyv66vg==$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY3ODkwYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMg==";

// The sign-in forms say when to come back in the sentence; the answer sends no Retry-After (it never did).
const tooMany = (waitMs: number): Failed =>
  failed({ kind: "throttled", error: `Too many login attempts. Please try again in ${describeWait(waitMs)}.` });

/** A counter's failures in its current window, and when that window ends. */
async function failures(db: Db, key: string, windowMs: number, now: number) {
  const row = await db.get<{ count: number; windowStart: number }>(
    sql`SELECT count, window_start AS windowStart FROM rate_limits WHERE key = ${key} AND window_start > ${now - windowMs}`,
  );
  return { count: row?.count ?? 0, retryAfterMs: row ? row.windowStart + windowMs - now : 0 };
}

/**
 * Passed, or refused: `throttled` for a blocked client or account, `unauthenticated` for a wrong
 * password, whose `details.triesLeft` (from the third failure) says how many tries this client has
 * left on this account before its pause.
 */
export type LoginCheck = Outcome<null>;

/**
 * The one password check for teachers and admins: refuses a blocked client or account, verifies
 * the password (against a dummy hash for unknown accounts, so both take the same work and get the
 * same answer), and counts a failure against every throttle key. `scope` separates accounts: a
 * school's id for teachers, "admin" for staff.
 */
export async function checkLogin(
  db: Db,
  login: { scope: string; email: string; clientIp: string; password: string; storedHash: string | undefined },
  now = Date.now(),
): Promise<LoginCheck> {
  const keys = {
    client: `login:client:${throttleAddress(login.clientIp)}`,
    pair: `login:pair:${login.scope}:${login.email}:${throttleAddress(login.clientIp)}`,
    account: `login:account:${login.scope}:${login.email}`,
  };
  const wait = await blockedFor(db, [keys.client, keys.pair], now);
  if (wait > 0) return tooMany(wait);
  const [account, pair] = await Promise.all([
    failures(db, keys.account, LOGIN_THROTTLE.account.windowMs, now),
    failures(db, keys.pair, LOGIN_THROTTLE.pair.windowMs, now),
  ]);
  if (account.count >= LOGIN_THROTTLE.account.underAttack && pair.count > LOGIN_THROTTLE.account.triesWhileUnderAttack) {
    return tooMany(Math.min(account.retryAfterMs, pair.retryAfterMs));
  }
  const valid = await verifyPassword(login.password, login.storedHash ?? DUMMY_HASH);
  if (!login.storedHash || !valid) {
    await recordHit(db, keys.client, LOGIN_THROTTLE.client, now);
    const failedTries = await recordHit(db, keys.pair, LOGIN_THROTTLE.pair, now);
    // The account's count never blocks (blockMs 0 is never reached as a block: the limit is out of reach).
    await recordHit(db, keys.account, { limit: Number.MAX_SAFE_INTEGER, windowMs: LOGIN_THROTTLE.account.windowMs, blockMs: 0 }, now);
    const { error, triesLeft } = badCredentials(failedTries);
    return failed({ kind: "unauthenticated", error, ...(triesLeft === undefined ? {} : { details: { triesLeft } }) });
  }
  await clearHits(db, keys.pair);
  return done(null);
}

/**
 * Statements for the sign-in batch that keep the session, throttle and code tables small: expired
 * sessions, counters whose window (an hour at most) ended a day ago and that block nothing, and
 * one-time codes that expired a day ago. Every delete runs on an index.
 */
export function loginHousekeeping(db: Db, now = Date.now()) {
  return [
    sweepExpiredSessions(db, now),
    db
      .delete(rateLimits)
      .where(
        sql`${rateLimits.windowStart} < ${now - 24 * 3600_000} AND (${rateLimits.blockedUntil} IS NULL OR ${rateLimits.blockedUntil} < ${now})`,
      ),
    // One-time codes only matter until they expire (10 minutes) and to the hourly limit.
    db.delete(otpCodes).where(sql`${otpCodes.expiresAt} < ${now - 24 * 3600_000}`),
  ] as const;
}

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { otpCodes, rateLimits } from "../db/schema.ts";
import { verifyPassword } from "./password.ts";
import { sweepExpiredSessions } from "./sessions.ts";
import { blockedFor, clearHits, describeWait, recordHit, type ThrottleRule } from "./throttle.ts";

/**
 * Failed logins are counted per client, per account from that client, and per account overall.
 * Each block lasts 15 minutes, so a stranger can slow someone down but never lock them out for good.
 */
export const LOGIN_THROTTLE: Record<"client" | "pair" | "account", ThrottleRule> = {
  client: { limit: 30, windowMs: 15 * 60_000, blockMs: 15 * 60_000 },
  pair: { limit: 5, windowMs: 15 * 60_000, blockMs: 15 * 60_000 },
  account: { limit: 20, windowMs: 60 * 60_000, blockMs: 15 * 60_000 },
};

export const BAD_CREDENTIALS = "Invalid email or password";

/** A stored hash of a random password: verifying against it costs what a real check costs. */
const DUMMY_HASH =
  "pbkdf2-sha512$100000$3q2+78r+ur7erb7vyv66vg==$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY3ODkwYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMg==";

export type LoginCheck = { ok: true } | { ok: false; status: 401 | 429; error: string };

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
    client: `login:client:${login.clientIp}`,
    pair: `login:pair:${login.scope}:${login.email}:${login.clientIp}`,
    account: `login:account:${login.scope}:${login.email}`,
  };
  const wait = await blockedFor(db, Object.values(keys), now);
  if (wait > 0) return { ok: false, status: 429, error: `Too many login attempts. Please try again in ${describeWait(wait)}.` };
  const valid = await verifyPassword(login.password, login.storedHash ?? DUMMY_HASH);
  if (!login.storedHash || !valid) {
    for (const rule of ["client", "pair", "account"] as const) await recordHit(db, keys[rule], LOGIN_THROTTLE[rule], now);
    return { ok: false, status: 401, error: BAD_CREDENTIALS };
  }
  await clearHits(db, keys.pair);
  return { ok: true };
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

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

export interface ThrottleRule {
  /** Events allowed in one window before the key is blocked. */
  limit: number;
  windowMs: number;
  /** How long a key stays blocked once it reaches the limit; never for good. */
  blockMs: number;
}

/**
 * Counts one event against `key` in a single atomic upsert (fixed window), blocking the key for
 * `blockMs` when the count reaches the limit. Returns the count in the current window.
 */
export async function recordHit(db: Db, key: string, rule: ThrottleRule, now = Date.now()): Promise<number> {
  const windowFloor = now - rule.windowMs;
  const row = await db.get<{ count: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start, blocked_until) VALUES (${key}, 1, ${now}, ${rule.limit <= 1 ? now + rule.blockMs : null})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN window_start <= ${windowFloor} THEN 1 ELSE count + 1 END,
      window_start = CASE WHEN window_start <= ${windowFloor} THEN ${now} ELSE window_start END,
      blocked_until = CASE
        WHEN (CASE WHEN window_start <= ${windowFloor} THEN 1 ELSE count + 1 END) >= ${rule.limit} THEN ${now + rule.blockMs}
        ELSE blocked_until END
    RETURNING count`);
  return row?.count ?? 1;
}

/** Milliseconds until every one of `keys` is unblocked; 0 when none is blocked now. */
export async function blockedFor(db: Db, keys: string[], now = Date.now()): Promise<number> {
  if (keys.length === 0) return 0;
  const row = await db.get<{ until: number | null }>(
    sql`SELECT max(blocked_until) AS until FROM rate_limits WHERE key IN (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )}) AND blocked_until > ${now}`,
  );
  return row?.until ? row.until - now : 0;
}

export async function clearHits(db: Db, key: string): Promise<void> {
  await db.run(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

/** "3 minutes" / "45 seconds": how long to wait, for messages. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export interface AmountResult {
  /** False when adding `amount` would pass the limit: nothing was counted. */
  allowed: boolean;
  /** The total counted in the current window (after adding, when allowed). */
  total: number;
  /** Milliseconds until the current window ends; when a refused caller may try again. */
  retryAfterMs: number;
}

/**
 * Counts `amount` (bytes, say) against `key` in one atomic upsert (fixed window), but only if the
 * window's total stays within `rule.limit`: checking and counting in one statement means parallel
 * requests cannot all pass a check that only one of them fits.
 */
export async function recordAmount(
  db: Db,
  key: string,
  amount: number,
  rule: Pick<ThrottleRule, "limit" | "windowMs">,
  now = Date.now(),
): Promise<AmountResult> {
  const windowFloor = now - rule.windowMs;
  // The INSERT ... SELECT needs its WHERE for SQLite to parse the upsert; a refused update returns no row.
  const row = await db.get<{ count: number; windowStart: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start, blocked_until)
      SELECT ${key}, ${amount}, ${now}, NULL WHERE ${amount} <= ${rule.limit}
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN window_start <= ${windowFloor} THEN ${amount} ELSE count + ${amount} END,
      window_start = CASE WHEN window_start <= ${windowFloor} THEN ${now} ELSE window_start END
    WHERE window_start <= ${windowFloor} OR count + ${amount} <= ${rule.limit}
    RETURNING count, window_start AS windowStart`);
  if (row) return { allowed: true, total: row.count, retryAfterMs: row.windowStart + rule.windowMs - now };
  const current = await db.get<{ count: number; windowStart: number }>(
    sql`SELECT count, window_start AS windowStart FROM rate_limits WHERE key = ${key}`,
  );
  if (!current) return { allowed: false, total: 0, retryAfterMs: rule.windowMs };
  return { allowed: false, total: current.count, retryAfterMs: Math.max(0, current.windowStart + rule.windowMs - now) };
}

/**
 * The client address a throttle counts against (codes, logins, one-time codes). An IPv4 address as it is; an IPv6 address by its /64: a
 * network gives each client a whole /64 (often a /56), so counting single IPv6 addresses would hand
 * a guesser 2^64 fresh address keys (found for the codes, docs/decisions/0053; logins and one-time codes had the same gap). IPv4-mapped addresses count as their IPv4 address. Anything
 * unreadable is counted as sent (Cloudflare's CF-Connecting-IP, or "local").
 */
export function throttleAddress(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  if (!address.includes(":")) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  const halves = address.split("::");
  if (halves.length > 2) return address;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  // "::" stands for as many zero groups as make eight (an IPv4 tail is two groups).
  const tailGroups = tail.reduce((sum, part) => sum + (part.includes(".") ? 2 : 1), 0);
  const zeros = halves.length === 2 ? Array<string>(Math.max(8 - head.length - tailGroups, 0)).fill("0") : [];
  const groups = [...head, ...zeros, ...tail].slice(0, 4);
  if (groups.length < 4 || !groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${groups.map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
}

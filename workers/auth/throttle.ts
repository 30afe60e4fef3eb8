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

/**
 * The hourly purge of what is kept no longer (docs/decisions/0045): ended sessions, expired
 * one-time codes, provider sign-ins, spent throttle counters, old audit entries and old leak-trace
 * entries in D1. The periods are shared/rules/retention.ts's. (Per-teacher reading and sign-in
 * events are the reports' housekeeping's, reports/housekeeping.ts, which deletes through
 * deleteInChunks too; the school objects' sessions are each object's own, on its alarm:
 * school-object/tidy.ts.)
 *
 * Each kind goes in chunks: one statement deletes at most CHUNK_ROWS rows, found on an index (the
 * subquery's plan is a SEARCH on the period's column, tests/worker/retention.test.ts checks it), so
 * no statement runs long on D1, and a run sends at most MAX_CHUNKS statements a kind, so a backlog
 * (the first run on a large database) is worked off over a few hours instead of in one long cron.
 */
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  AUDIT_LOG_KEPT_DAYS,
  DAY_MS,
  ENDED_SESSION_KEPT_DAYS,
  EXPIRED_CODE_KEPT_DAYS,
  LEAK_TRACE_ACTION,
  LEAK_TRACE_KEPT_DAYS,
  RATE_LIMIT_KEPT_DAYS,
  SIGN_IN_REQUEST_KEPT_MS,
} from "#shared/rules/retention.ts";
import type { Db } from "../db/client.ts";
import { auditLog, oidcRequests, otpCodes, rateLimits, sessions } from "../db/schema.ts";
import { log } from "../kernel/log.ts";

/** Rows one statement deletes at most. */
export const CHUNK_ROWS = 1_000;
/**
 * Statements one kind sends in one run at most: 200,000 rows an hour, 4.8 million a day, enough for
 * a day of reading_daily at 50,000 schools with a million teachers reading 4 books each.
 * Other queries wait for at most one statement (D1 runs one at a time), never for the whole run.
 */
export const MAX_CHUNKS = 200;

export interface PurgeKind {
  name: string;
  table: SQLiteTable;
  /** Which rows have outlived their period; must be answerable from an index of the table. */
  expired: SQL;
}

/** What the purge removes at `now`, one kind each. */
export function purgeKinds(now: number): PurgeKind[] {
  return [
    { name: "sessions", table: sessions, expired: sql`${sessions.expiresAt} <= ${now - ENDED_SESSION_KEPT_DAYS * DAY_MS}` },
    // A used code expires 10 minutes after it was sent like any other, so this takes used ones too.
    { name: "otp_codes", table: otpCodes, expired: sql`${otpCodes.expiresAt} < ${now - EXPIRED_CODE_KEPT_DAYS * DAY_MS}` },
    { name: "oidc_requests", table: oidcRequests, expired: sql`${oidcRequests.createdAt} < ${now - SIGN_IN_REQUEST_KEPT_MS}` },
    {
      name: "rate_limits",
      table: rateLimits,
      expired: sql`${rateLimits.windowStart} < ${now - RATE_LIMIT_KEPT_DAYS * DAY_MS} AND (${rateLimits.blockedUntil} IS NULL OR ${rateLimits.blockedUntil} < ${now})`,
    },
    {
      name: "leak_traces",
      table: auditLog,
      expired: sql`${auditLog.action} = ${LEAK_TRACE_ACTION} AND ${auditLog.at} < ${now - LEAK_TRACE_KEPT_DAYS * DAY_MS}`,
    },
    { name: "audit_log", table: auditLog, expired: sql`${auditLog.at} < ${now - AUDIT_LOG_KEPT_DAYS * DAY_MS}` },
  ];
}

/** The subquery that picks one chunk of a kind's rows: the statement EXPLAIN QUERY PLAN is asked about. */
export function chunkOf(kind: PurgeKind): SQL {
  return sql`SELECT rowid FROM ${kind.table} WHERE ${kind.expired} LIMIT ${CHUNK_ROWS}`;
}

/** Deletes a kind's expired rows a chunk at a time (also the reports' housekeeping's); how many went. */
export async function deleteInChunks(db: Db, kind: PurgeKind): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    // D1 has no DELETE ... LIMIT; a rowid subquery with a LIMIT bounds the statement the same way.
    const result = await db.run(sql`DELETE FROM ${kind.table} WHERE rowid IN (${chunkOf(kind)})`);
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < CHUNK_ROWS) break;
  }
  return deleted;
}

/**
 * Every kind in turn (one at a time: they share one database); a kind that fails is logged and
 * the others still go. Returns the rows removed per kind.
 */
export async function purgeExpired(db: Db, now = Date.now()): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const kind of purgeKinds(now)) {
    try {
      removed[kind.name] = await deleteInChunks(db, kind);
    } catch (error) {
      log.error("Retention purge failed", { kind: kind.name, error });
    }
  }
  log.info("Retention purge", removed);
  return removed;
}

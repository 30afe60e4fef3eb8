/**
 * What the scheduled job does for reports (docs/decisions/0019): recompute the stored rankings and
 * drop what names a teacher once it is older than the retention period.
 */
import { sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { DAY_MS, TEACHER_USAGE_KEPT_DAYS } from "#shared/rules/retention.ts";
import type { Db } from "../db/client.ts";
import { loginEvents } from "../db/schema.ts";
import { readingDaily } from "../db/usage-schema.ts";
import { deleteInChunks, type PurgeKind } from "../retention/purge.ts";
import { refreshRankings } from "./rankings.ts";

/** Per-teacher rows and sign-in events are kept 400 days: a 366-day report and a month to spare (shared/rules/retention.ts). */
export const TEACHER_DATA_RETENTION_DAYS = TEACHER_USAGE_KEPT_DAYS;

/** What names a teacher once past the period; a whole day of reading_daily crosses it at once, hence chunks. */
export function teacherUsageKinds(now: number): PurgeKind[] {
  const cutoff = now - TEACHER_DATA_RETENTION_DAYS * DAY_MS;
  return [
    { name: "reading_daily", table: readingDaily, expired: sql`${readingDaily.day} < ${dayOf(cutoff)}` },
    { name: "login_events", table: loginEvents, expired: sql`${loginEvents.at} < ${cutoff}` },
  ];
}

export async function pruneTeacherUsage(db: Db, now = Date.now()) {
  for (const kind of teacherUsageKinds(now)) await deleteInChunks(db, kind);
}

export async function reportHousekeeping(db: Db, now = Date.now()) {
  await pruneTeacherUsage(db, now);
  await refreshRankings(db, now);
}

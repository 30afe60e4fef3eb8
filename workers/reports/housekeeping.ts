/**
 * What the scheduled job does for reports (docs/decisions/0019): recompute the stored rankings and
 * drop what names a teacher once it is older than the retention period.
 */
import { sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { TEACHER_USAGE_KEPT_DAYS } from "#shared/rules/retention.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { refreshRankings } from "./rankings.ts";

/** Per-teacher rows and sign-in events are kept 400 days: a 366-day report and a month to spare (shared/rules/retention.ts). */
export const TEACHER_DATA_RETENTION_DAYS = TEACHER_USAGE_KEPT_DAYS;

export async function pruneTeacherUsage(db: Db, now = Date.now()) {
  const cutoff = now - TEACHER_DATA_RETENTION_DAYS * 86_400_000;
  await runTransaction(db, [
    sql`DELETE FROM reading_daily WHERE day < ${dayOf(cutoff)}`,
    sql`DELETE FROM login_events WHERE at < ${cutoff}`,
  ]);
}

export async function reportHousekeeping(db: Db, now = Date.now()) {
  await pruneTeacherUsage(db, now);
  await refreshRankings(db, now);
}

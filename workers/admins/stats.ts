import { count, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { books, loginEvents, schools, teachers } from "../db/schema.ts";
import { liveTeacher } from "../erasure/live-teachers.ts";

const WEEK_MS = 7 * 86_400_000;

/** The dashboard's figures; "this week" is the last 7 days, counted on login_events_at_idx. */
export async function adminTotals(db: Db, now = Date.now()) {
  const [[t], [s], [b], [l]] = await db.batch([
    db.select({ n: count() }).from(teachers).where(liveTeacher),
    db.select({ n: count() }).from(schools),
    db.select({ n: count() }).from(books),
    db
      .select({ n: count() })
      .from(loginEvents)
      .where(sql`${loginEvents.at} >= ${now - WEEK_MS} AND ${loginEvents.kind} = 'teacher'`),
  ]);
  return { teachers: t?.n ?? 0, schools: s?.n ?? 0, books: b?.n ?? 0, loginsThisWeek: l?.n ?? 0 };
}

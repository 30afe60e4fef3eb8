import { and, count, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { dayOf } from "#shared/rules/licence.ts";
import type { Actor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { loginEvents, schools } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { auditWhenChanged } from "./audit.ts";
import { LIMIT_MESSAGE, MAX_TEACHER_LIMIT } from "./input.ts";

const ADD_MESSAGE = `The number of teachers to add must be a whole number from 1 to ${MAX_TEACHER_LIMIT}`;

import { findSchoolRow, teacherCount } from "./list.ts";
import { guardedTeacherLimit, isLimitGuardError, limitBelowCount, NOT_FOUND } from "./write-guards.ts";

// The spec's admins raise two numbers. The "login count" is the teacher limit: how many teacher
// accounts a school may register. The "total login" is schools.total_logins: a counter that every
// successful teacher login increments (teachers/sign-up-and-login.ts) and that admins may raise by hand;
// login_events holds the actual history.

const DAY_MS = 86_400_000;

export async function schoolLoginRecord(db: Db, schoolId: number, now = Date.now()) {
  const since = (days: number) =>
    sql<number>`(SELECT count(*) FROM login_events WHERE login_events.school_id = schools.id AND login_events.at >= ${now - days * DAY_MS})`;
  const [row] = await db
    .select({
      schoolId: schools.id,
      teacherLimit: schools.teacherLimit,
      teacherCount,
      totalLogins: schools.totalLogins,
      loginsLast7Days: since(7),
      loginsLast30Days: since(30),
    })
    .from(schools)
    .where(eq(schools.id, schoolId));
  return row ?? null;
}

/**
 * Writes one of the two numbers admins raise, with its audit entry in the same batch (written only
 * if the update found the school): the number as written, or null when there is no such school.
 */
async function setSchoolNumber(
  db: Db,
  actor: Actor,
  schoolId: number,
  column: "teacherLimit" | "totalLogins",
  value: SQL,
  audit: { action: string; before: unknown; after: unknown },
  now: number,
): Promise<number | null> {
  const [[updated]] = await db.batch([
    db
      .update(schools)
      .set({ [column]: value })
      .where(eq(schools.id, schoolId))
      .returning({ value: schools[column] }),
    auditWhenChanged(db, actor, { ...audit, entityId: schoolId }, now),
  ]);
  return updated ? updated.value : null;
}

/** A teacher-limit change: `by` (how many more) or `limit` (the new limit), exactly one of them. */
export const LoginCountChangeShape = {
  by: z.number({ error: ADD_MESSAGE }).int(ADD_MESSAGE).min(1, ADD_MESSAGE).max(MAX_TEACHER_LIMIT, ADD_MESSAGE).optional(),
  limit: z.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_TEACHER_LIMIT, LIMIT_MESSAGE).optional(),
};
export const oneLoginCountChange = [
  (body: { by?: number; limit?: number }) => (body.by === undefined) !== (body.limit === undefined),
  { error: "Give either by (how many more) or limit (the new limit)" },
] as const;

/** Raises the teacher limit by `by`, or sets it to `limit`; either way never below the registered teachers. */
export async function increaseTeacherLimit(
  db: Db,
  actor: Actor,
  schoolId: number,
  change: { by?: number; limit?: number },
  now = Date.now(),
): Promise<Outcome<{ teacherLimit: number }>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  const limit = change.limit ?? before.teacherLimit + change.by!;
  const tooHigh = failure("invalid", `The teacher limit can be at most ${MAX_TEACHER_LIMIT}`);
  if (limit > MAX_TEACHER_LIMIT) return tooHigh;
  if (limit < before.teacherCount) return failure("invalid", limitBelowCount(before.teacherCount));
  // "By" adds in SQL, so ten admins adding 1 at once add 10; the audit reads the values the update wrote.
  const current = sql`(SELECT teacher_limit FROM schools WHERE id = ${schoolId})`;
  const next = change.by === undefined ? limit : sql`${schools.teacherLimit} + ${change.by}`;
  try {
    const teacherLimit = await setSchoolNumber(
      db,
      actor,
      schoolId,
      "teacherLimit",
      guardedTeacherLimit(schoolId, next, MAX_TEACHER_LIMIT),
      {
        action: "school.increase-login-count",
        before:
          change.by === undefined ? { teacherLimit: before.teacherLimit } : sql`json_object('teacherLimit', ${current} - ${change.by})`,
        after: sql`json_object('teacherLimit', ${current})`,
      },
      now,
    );
    return teacherLimit === null ? NOT_FOUND : done({ teacherLimit });
  } catch (error) {
    if (isLimitGuardError(error)) {
      const row = await findSchoolRow(db, schoolId);
      if (row && change.by !== undefined && row.teacherLimit + change.by > MAX_TEACHER_LIMIT) return tooHigh;
      return failure("invalid", limitBelowCount(row?.teacherCount ?? 0));
    }
    throw error;
  }
}

const BY_MESSAGE = "The number of logins to add must be a whole number from 1 to 1000000";
export const IncreaseTotalLoginSchema = z.object({
  by: z.number({ error: BY_MESSAGE }).int(BY_MESSAGE).min(1, BY_MESSAGE).max(1_000_000, BY_MESSAGE),
});

/** Adds to the counter in SQL, so teacher logins landing at the same moment are not lost. */
export async function increaseTotalLogins(
  db: Db,
  actor: Actor,
  schoolId: number,
  by: number,
  now = Date.now(),
): Promise<Outcome<{ totalLogins: number }>> {
  const total = sql`(SELECT total_logins FROM schools WHERE id = ${schoolId})`;
  const totalLogins = await setSchoolNumber(
    db,
    actor,
    schoolId,
    "totalLogins",
    sql`${schools.totalLogins} + ${by}`,
    {
      action: "school.increase-total-login",
      before: sql`json_object('totalLogins', ${total} - ${by})`,
      after: sql`json_object('totalLogins', ${total}, 'by', ${by})`,
    },
    now,
  );
  return totalLogins === null ? NOT_FOUND : done({ totalLogins });
}

/** Teacher logins per UTC day for the last `days` days (today included), zero days filled in. */
export async function loginHistory(db: Db, schoolId: number, days: number, now = Date.now()) {
  const start = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const rows = await db
    .select({ day: sql<number>`${loginEvents.at} / ${sql.raw(String(DAY_MS))}`, logins: count() })
    .from(loginEvents)
    .where(and(eq(loginEvents.schoolId, schoolId), sql`${loginEvents.at} >= ${start}`))
    .groupBy(sql`1`);
  const byDay = new Map(rows.map((row) => [row.day, row.logins]));
  const series = Array.from({ length: days }, (_, i) => {
    const day = start / DAY_MS + i;
    return { date: dayOf(day * DAY_MS), logins: byDay.get(day) ?? 0 };
  });
  return { days: series, total: series.reduce((sum, day) => sum + day.logins, 0) };
}

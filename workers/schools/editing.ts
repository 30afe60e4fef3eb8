import { eq, sql } from "drizzle-orm";
import type { Actor } from "../admins/audit.ts";
import type { HotState } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { schoolObject } from "../school-object/objects.ts";
import { auditWhenChanged } from "./audit.ts";
import { type SchoolInput, type SchoolUpdate, toInsertValues, toUpdateValues } from "./input.ts";
import { findSchoolRow, type SchoolRow } from "./list.ts";
import { generateUniqueSlugs, slugTaken } from "./slugs.ts";
import { DUPLICATE_SLUG, isLimitGuardError, isUniqueSlugError, limitBelowCount, NOT_FOUND } from "./write-guards.ts";

/** The id the next insert will most likely get: AUTOINCREMENT never reuses ids, so past the sequence too. */
export async function nextSchoolId(db: Db): Promise<number> {
  const maxId = sql`coalesce((SELECT max(id) FROM schools), 0)`;
  try {
    const [row] = await db.all<{ nextId: number }>(
      sql`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'schools'), 0), ${maxId}) + 1 AS nextId`,
    );
    return row!.nextId;
  } catch {
    // Should a host refuse sqlite_sequence, the largest id is the next best guess.
    const [row] = await db.all<{ nextId: number }>(sql`SELECT ${maxId} + 1 AS nextId`);
    return row!.nextId;
  }
}

export async function createSchool(db: Db, actor: Actor, input: SchoolInput, now = Date.now()): Promise<Outcome<{ school: SchoolRow }>> {
  if (input.slug && (await slugTaken(db, input.slug))) return failure("conflict", DUPLICATE_SLUG, "slug");
  const slug = input.slug ?? (await generateUniqueSlugs(db, [input.schoolName]))[0]!;
  const values = toInsertValues(input, slug);
  try {
    const [[created]] = await db.batch([
      db.insert(schools).values(values).returning({ id: schools.id }),
      auditWhenChanged(db, actor, { action: "school.create", entityId: sql`last_insert_rowid()`, after: values }, now),
    ]);
    return done({ school: (await findSchoolRow(db, created!.id))! });
  } catch (error) {
    if (isUniqueSlugError(error)) return failure("conflict", DUPLICATE_SLUG, "slug");
    throw error;
  }
}

/**
 * Saves a school's details. A session limit reaches the school's object after D1: it ends
 * every teacher's oldest sessions beyond the new limit (should that call fail, they end at the
 * teacher's next sign-in, as the limit always did). The teacher limit concerns registrations only,
 * which D1 decides; the object holds nothing that depends on it.
 */
export async function updateSchool(
  db: Db,
  hot: HotState,
  actor: Actor,
  schoolId: number,
  input: SchoolUpdate,
  now = Date.now(),
): Promise<Outcome<{ school: SchoolRow }>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  if (input.slug && (await slugTaken(db, input.slug, schoolId))) return failure("conflict", DUPLICATE_SLUG, "slug");
  if (input.teacherLimit !== undefined && input.teacherLimit < before.teacherCount) {
    return failure("invalid", limitBelowCount(before.teacherCount));
  }
  const values = toUpdateValues(schoolId, input);
  if (Object.keys(values).length === 0) return done({ school: before });
  try {
    await db.batch([
      db.update(schools).set(values).where(eq(schools.id, schoolId)),
      auditWhenChanged(db, actor, { action: "school.update", entityId: schoolId, before, after: input }, now),
    ]);
  } catch (error) {
    if (isUniqueSlugError(error)) return failure("conflict", DUPLICATE_SLUG, "slug");
    if (isLimitGuardError(error)) return failure("invalid", limitBelowCount((await findSchoolRow(db, schoolId))?.teacherCount ?? 0));
    throw error;
  }
  if (input.sessionLimit !== undefined) {
    await schoolObject(hot, schoolId).setSessionLimit(schoolId, input.sessionLimit);
  }
  const school = await findSchoolRow(db, schoolId);
  return school ? done({ school }) : NOT_FOUND;
}

/**
 * Deletes the school: in D1 the schema's cascades take its teachers, codes, shelf, progress and
 * login events; then its object's data goes (sessions, budgets, unflushed usage). Should that
 * second step fail, nothing of it can sign anyone in (a session needs its school's row), and the
 * hourly job empties the objects of schools deleted in the last day (purgeDeletedSchools).
 */
export async function deleteSchool(db: Db, hot: HotState, actor: Actor, schoolId: number, now = Date.now()): Promise<Outcome<object>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  const [deleted] = await db.batch([
    db.delete(schools).where(eq(schools.id, schoolId)).returning({ id: schools.id }),
    auditWhenChanged(db, actor, { action: "school.delete", entityId: schoolId, before }, now),
  ]);
  if (!deleted.length) return NOT_FOUND;
  try {
    await schoolObject(hot, schoolId).purge();
  } catch (error) {
    log.error("School deleted; its object will be emptied by the hourly job", { schoolId, error });
  }
  return done({});
}

/**
 * The school objects' storage for the operator's backup and restore (docs/decisions/0046):
 * Durable Objects have no export of their own, so each school's object is read and written back
 * through the Worker (workers/api/operator.ts, guarded by the operator's secret). D1 and R2 are
 * backed up by the platform's own tools (scripts/backup.ts locally; the README's production section).
 */
import { asc } from "drizzle-orm";
import { dumpedSchoolId, type SchoolStorageDump, SchoolStorageDumpSchema } from "#shared/school-storage-dump.ts";
import { findSchoolById } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { describeZodError } from "../kernel/validate.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";

const SCHOOL_NOT_FOUND = "School not found";

/** Every school D1 holds (each has, or may have, an object), by id. */
export async function listSchools(db: Db): Promise<{ id: number; slug: string }[]> {
  return db.select({ id: schools.id, slug: schools.slug }).from(schools).orderBy(asc(schools.id));
}

/** The school's object's whole storage at one moment; empty for an object that never served it. */
export async function dumpSchoolStorage(env: HotState, db: Db, schoolId: number): Promise<Outcome<SchoolStorageDump>> {
  if (!(await findSchoolById(db, schoolId))) return failure("not-found", SCHOOL_NOT_FOUND);
  return done(await schoolObject(env, schoolId).dumpStorage(schoolId));
}

/**
 * Replaces the school's object's storage with a dump of it. D1 is restored first (the school must
 * be there), and the dump must be this school's own: a dump of another school would hand its
 * sessions and budgets to this one.
 */
export async function restoreSchoolStorage(
  env: HotState,
  db: Db,
  schoolId: number,
  raw: unknown,
): Promise<Outcome<{ schoolId: number; tables: number; rows: number }>> {
  const parsed = SchoolStorageDumpSchema.safeParse(raw);
  if (!parsed.success) {
    const { error, field } = describeZodError(parsed.error);
    return failure("invalid", error, field);
  }
  const dump = parsed.data;
  const named = dumpedSchoolId(dump);
  if (dump.schoolId !== schoolId || (dump.tables.length > 0 && named !== schoolId))
    return failure("conflict", `This is the storage of school ${named ?? dump.schoolId}, not of school ${schoolId}.`);
  if (!(await findSchoolById(db, schoolId))) return failure("not-found", `${SCHOOL_NOT_FOUND}: restore D1 before the school objects.`);
  const rows = await schoolObject(env, schoolId).restoreStorage(schoolId, dump);
  return done({ schoolId, tables: dump.tables.length, rows });
}

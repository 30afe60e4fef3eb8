/**
 * Erasure that keeps the publisher's figures (issue 44, docs/decisions/0045): a school's personal
 * data (an admin's act) or one teacher's (their own request from the account page). D1 first, in
 * one batch (statements.ts): the record of the erasure and every trace of the people, at once.
 * Then the school's object (its sessions, seats, notes, ...: school-object/erasure.ts), which signs
 * them out everywhere. Should that second call fail, D1 already holds the erased rows and the
 * hourly job erases them from the object (complete.ts); asking again does it now. Both steps are
 * safe to repeat, so erasing twice changes nothing more.
 */
import { eq, sql } from "drizzle-orm";
import type { AuditActor } from "../admins/audit.ts";
import type { HotState } from "../auth/sessions.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { schools, teachers } from "../db/schema.ts";
import { removeSchoolExports } from "../exports/store.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { schoolObject } from "../school-object/objects.ts";
import { liveTeacher } from "./live-teachers.ts";
import { type ErasureScope, erasureBatch } from "./statements.ts";

/** How long to wait before asking again when the school's object could not be reached. */
const OBJECT_RETRY_SECONDS = 30;

/** What an erasure answers: the sentence for whoever asked, and how many accounts it erased now. */
export type Erased = { message: string; teachersErased: number };

/** D1's batch, then the object; the accounts erased now, or the object's failure (D1 is done by then). */
async function erase(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  scope: ErasureScope,
  audit: Parameters<typeof erasureBatch>[3],
  now: number,
): Promise<{ erased: number; objectDone: boolean }> {
  const results = await runTransaction(db, erasureBatch(db, actor, scope, audit, now));
  const erased = results.at(-2)?.meta.changes ?? 0;
  const ids = ((results.at(-1)?.results ?? []) as { id: number }[]).map((row) => row.id);
  try {
    await schoolObject(hot, scope.schoolId).eraseTeachers(scope.schoolId, ids);
    return { erased, objectDone: true };
  } catch (error) {
    log.error("Erased in D1; the school's object will be erased by the hourly job", { schoolId: scope.schoolId, error });
    return { erased, objectDone: false };
  }
}

/**
 * The school's data exports kept in R2 for a day (decision 44) are copies of what was just erased:
 * they go too. A failure is logged; the exports' own sweep removes them within the day anyway.
 */
async function forgetSchoolExports(bucket: R2Bucket, schoolId: number): Promise<void> {
  try {
    await removeSchoolExports(bucket, schoolId);
  } catch (error) {
    log.error("Erased; the school's exports will go with their daily sweep", { schoolId, error });
  }
}

/**
 * An admin erases a school's personal data: every teacher of it becomes an erased row (the school,
 * its licences and its usage figures stay), and its data exports go. Audited each time it is asked
 * (who, when, how many accounts), with no name in the entry.
 */
export async function eraseSchoolPersonalData(
  db: Db,
  hot: HotState & { BOOKS: R2Bucket },
  actor: AuditActor,
  schoolId: number,
  now = Date.now(),
): Promise<Outcome<Erased & { school: string }>> {
  const [school] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId));
  if (!school) return failure("not-found", "School not found");
  const audit = { action: "school.erase-personal-data", entityType: "school", entityId: schoolId, condition: sql`1` };
  const { erased, objectDone } = await erase(db, hot, actor, { schoolId }, audit, now);
  await forgetSchoolExports(hot.BOOKS, schoolId);
  if (!objectDone)
    return failed({
      kind: "unavailable",
      error: `The personal data of ${school.name} was erased from the database, but its sign-ins and notes could not be reached just now. They will be erased within the hour, or try again in a minute.`,
      retryAfterSeconds: OBJECT_RETRY_SECONDS,
    });
  const accounts = `${erased} teacher account${erased === 1 ? "" : "s"}`;
  const message =
    erased === 0
      ? `${school.name} held no teacher's personal data any more; nothing else was changed.`
      : `The personal data of ${school.name} was erased: ${accounts}, with their sessions, codes, notes and reading progress. Its usage figures are kept.`;
  return done({ school: school.name, teachersErased: erased, message });
}

/** Who an own-account deletion names in the audit log: never the teacher's address, which the erasure removes. */
const OWN_REQUEST: AuditActor = { id: null, email: "(the teacher's own request)" };

export const CONFIRM_WITH_EMAIL = (email: string) => `Type your e-mail address, ${email}, to confirm.`;

/** What the teacher reads once their account is gone (the API's answer, and the school's login page after the account page's redirect). */
export const OWN_ACCOUNT_DELETED = {
  deleted: "Your account has been deleted and you have been signed out everywhere.",
  "deleted-elsewhere-later": "Your account has been deleted. Signing you out on your other devices will finish within the hour.",
} as const;

/**
 * A teacher deletes their own account: the same erasure for one person, once they have typed their
 * e-mail address (`confirm`). They are signed out everywhere (the object's step ends every session).
 */
export async function deleteOwnAccount(
  db: Db,
  hot: HotState,
  who: { schoolId: number; teacherId: number },
  confirm: string,
  now = Date.now(),
): Promise<Outcome<Erased & { signedOutEverywhere: boolean }>> {
  const [teacher] = await db
    .select({ id: teachers.id, email: teachers.email })
    .from(teachers)
    .where(sql`${eq(teachers.id, who.teacherId)} AND ${eq(teachers.schoolId, who.schoolId)} AND ${liveTeacher}`);
  if (!teacher) return failure("not-found", "Your account could not be found.");
  if (confirm.trim().toLowerCase() !== teacher.email) return failure("invalid", CONFIRM_WITH_EMAIL(teacher.email), "confirm");
  const scope = { schoolId: who.schoolId, teacher };
  const live = sql`EXISTS (SELECT 1 FROM teachers WHERE id = ${teacher.id} AND erased_at IS NULL)`;
  const audit = { action: "teacher.delete-own-account", entityType: "teacher", entityId: teacher.id, condition: live };
  const { erased, objectDone } = await erase(db, hot, OWN_REQUEST, scope, audit, now);
  const message = OWN_ACCOUNT_DELETED[objectDone ? "deleted" : "deleted-elsewhere-later"];
  return done({ teachersErased: erased, signedOutEverywhere: objectDone, message });
}

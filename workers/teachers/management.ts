/**
 * An admin managing a school's teachers (docs/decisions/0015): the list, disable and enable, ending
 * every session, a password-reset code, and removal. Each write is one D1 batch (one transaction)
 * with its audit entry, and the audit entry is written only when the batch changed something, so
 * a repeated or racing request writes no second entry. Every call names the school and the
 * teacher: a teacher of another school is "Teacher not found", like one that does not exist.
 */
import { and, eq, exists, type SQL, sql } from "drizzle-orm";
import { type AuditActor, auditEntry } from "../admins/audit.ts";
import type { HotState } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { otpCodes, schools, teachers } from "../db/schema.ts";
import { liveTeacher } from "../erasure/live-teachers.ts";
import type { AppConfig } from "../kernel/config.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { schoolObject } from "../school-object/objects.ts";
import { auditWhere } from "../schools/audit.ts";
import { sendTeacherOtp } from "./send-otp.ts";

export const TEACHER_NOT_FOUND = "Teacher not found";
export const SCHOOL_NOT_FOUND = "School not found";

/** What every action on a teacher answers: the sentence for whoever acted, and what it was about. */
export type Managed<T> = { message: string } & T;
const NOT_FOUND = failure("not-found", TEACHER_NOT_FOUND);

/** Who the action was about, as the audit entry and the messages name them. */
export interface TeacherIdentity {
  id: number;
  name: string;
  email: string;
  disabled: boolean;
}

/** The query of a school's teachers by name, with when each last signed in: for a batch (the school's detail, the teachers' table). */
export function schoolTeacherRows(db: Db, schoolId: number) {
  const lastLoginAt = sql<number | null>`(SELECT max(at) FROM login_events WHERE login_events.teacher_id = teachers.id)`;
  return db
    .select({
      id: teachers.id,
      name: teachers.name,
      email: teachers.email,
      mobile: teachers.mobile,
      disabled: teachers.disabled,
      coordinator: teachers.coordinator,
      createdAt: teachers.createdAt,
      lastLoginAt,
    })
    .from(teachers)
    .where(and(eq(teachers.schoolId, schoolId), liveTeacher))
    .orderBy(sql`${teachers.name} COLLATE NOCASE`, teachers.id);
}

/** A school's teachers for its admin page and `GET /api/schools/:id/teachers`; null when there is no such school. */
export async function listSchoolTeachers(db: Db, hot: HotState, schoolId: number, now = Date.now()) {
  const [[school], rows] = await db.batch([
    db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId)),
    schoolTeacherRows(db, schoolId),
  ]);
  if (!school) return null;
  // Live sessions only (the school's object holds them): an ended one signs no one in.
  const counts = await schoolObject(hot, schoolId).sessionCounts(
    schoolId,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({ ...row, sessions: counts[row.id] ?? 0 }));
}

export type ManagedTeacher = NonNullable<Awaited<ReturnType<typeof listSchoolTeachers>>>[number];

// An erased row (docs/decisions/0045) is no teacher to act on: "Teacher not found".
const ofSchool = (schoolId: number, teacherId: number) => and(eq(teachers.id, teacherId), eq(teachers.schoolId, schoolId), liveTeacher);

async function findTeacher(db: Db, schoolId: number, teacherId: number): Promise<TeacherIdentity | null> {
  const [row] = await db
    .select({ id: teachers.id, name: teachers.name, email: teachers.email, disabled: teachers.disabled })
    .from(teachers)
    .where(ofSchool(schoolId, teacherId));
  return row ?? null;
}

/** The teacher row still there, as a condition a statement of the batch can test. */
const teacherExists = (db: Db, schoolId: number, teacherId: number) =>
  exists(db.select({ one: sql`1` }).from(teachers).where(ofSchool(schoolId, teacherId)));

/**
 * The audit row for a teacher, written only where `condition` holds when the batch reaches it
 * (`changes() > 0`: the statement before changed a row; or the teacher still exists). Values may
 * be SQL evaluated there (the number of sessions just ended).
 */
function teacherAudit(
  db: Db,
  actor: AuditActor,
  entry: { action: string; teacher: TeacherIdentity; before?: unknown; after?: unknown },
  condition: SQL,
  now: number,
) {
  const { action, teacher, before, after } = entry;
  return auditWhere(db, actor, { action, entityType: "teacher", entityId: teacher.id, before, after }, condition, now);
}

const named = (t: TeacherIdentity) => ({ name: t.name, email: t.email });

/**
 * Disables (or enables) a teacher: two writes, to the school's object (which holds the sessions
 * and refuses a disabled teacher new ones) and to D1 (the account, and its audit entry).
 *
 * Disabling writes the object first: every session ends at once (the next page request of a
 * teacher who is reading is a 401) and no new one can open. If D1 then fails, the admin gets an
 * error and the teacher stays signed out; trying again completes it. Enabling writes D1 first and
 * the object second: if the object fails, the teacher stays unable to sign in until the admin tries
 * again. Either way a failure between the two writes leaves no one signed in who should not be.
 * Ended sessions are kept a while (ENDED_SESSION_KEPT_MS) so the school's pages can tell the
 * teacher, cookie in hand, that the account was disabled; enabling revives none of them. Asking
 * for the state the teacher is already in changes nothing and writes no audit entry.
 */
export async function setTeacherDisabled(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  schoolId: number,
  teacherId: number,
  disabled: boolean,
  now = Date.now(),
): Promise<Outcome<Managed<{ teacher: TeacherIdentity; changed: boolean }>>> {
  const teacher = await findTeacher(db, schoolId, teacherId);
  if (!teacher) return NOT_FOUND;
  const target = ofSchool(schoolId, teacherId);
  const audit = teacherAudit(
    db,
    actor,
    {
      action: disabled ? "teacher.disable" : "teacher.enable",
      teacher,
      before: { ...named(teacher), disabled: !disabled },
      after: { ...named(teacher), disabled },
    },
    sql`changes() > 0`,
    now,
  );
  const update = db
    .update(teachers)
    .set({ disabled })
    .where(and(target, eq(teachers.disabled, !disabled)))
    .returning({ id: teachers.id });
  const current = db.select({ disabled: teachers.disabled }).from(teachers).where(target);
  const object = schoolObject(hot, schoolId);
  const identity = { id: teacher.id, name: teacher.name, email: teacher.email };
  if (disabled) await object.setTeacherDisabled(schoolId, identity, true, now);
  const [updated, , [after]] = await db.batch([update, audit, current]);
  const changed = updated.length > 0;
  if (!disabled && after && !after.disabled) await object.setTeacherDisabled(schoolId, identity, false, now);
  // Removed by another admin between the two reads.
  if (!after) return NOT_FOUND;
  const result = { ...teacher, disabled: after.disabled };
  const message = disabled
    ? changed
      ? `${teacher.name} is disabled and has been signed out everywhere.`
      : `${teacher.name} was already disabled.`
    : changed
      ? `${teacher.name} is enabled and can sign in again.`
      : `${teacher.name} was already enabled.`;
  return done({ teacher: result, changed, message });
}

/** Ends every session the teacher has (they stay enabled and may sign in again). */
export async function endTeacherSessions(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  schoolId: number,
  teacherId: number,
  now = Date.now(),
): Promise<Outcome<Managed<{ teacher: TeacherIdentity; sessionsEnded: number }>>> {
  const teacher = await findTeacher(db, schoolId, teacherId);
  if (!teacher) return NOT_FOUND;
  const target = ofSchool(schoolId, teacherId);
  // Sessions that still sign in: one a disable ended already (kept a while, to say so) is not one to end.
  const n = await schoolObject(hot, schoolId).endTeacherSessions(schoolId, teacherId);
  const [, [still]] = await db.batch([
    teacherAudit(
      db,
      actor,
      { action: "teacher.sign-out", teacher, before: named(teacher), after: { sessionsEnded: n } },
      teacherExists(db, schoolId, teacherId),
      now,
    ),
    db.select({ id: teachers.id }).from(teachers).where(target),
  ]);
  if (!still) return NOT_FOUND;
  const message = n === 0 ? `${teacher.name} had no sessions to end.` : `Ended ${n} session${n === 1 ? "" : "s"} of ${teacher.name}.`;
  return done({ teacher, sessionsEnded: n, message });
}

/**
 * Removes the teacher: first their sessions and budgets in the school's object (so a failure after
 * it leaves the teacher signed out, not signed in without an account), then their row and with it
 * (the schema's cascades) their reading progress and daily reading counts; their unused one-time
 * codes too. Their login events stay in
 * the school's history without them (teacher_id set null). The slot is free at once: the school's
 * teacher count is counted from the rows. The audit entry is written only if this batch finds the
 * teacher, so of racing removals exactly one succeeds and writes one entry; the others are 404.
 */
export async function deleteTeacher(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  schoolId: number,
  teacherId: number,
  now = Date.now(),
): Promise<Outcome<Managed<{ teacher: TeacherIdentity }>>> {
  const teacher = await findTeacher(db, schoolId, teacherId);
  if (!teacher) return NOT_FOUND;
  await schoolObject(hot, schoolId).removeTeacher(schoolId, teacherId);
  const stillThere = teacherExists(db, schoolId, teacherId);
  const [, , deleted] = await db.batch([
    teacherAudit(db, actor, { action: "teacher.delete", teacher, before: teacher }, stillThere, now),
    db.delete(otpCodes).where(and(eq(otpCodes.schoolId, schoolId), eq(otpCodes.email, teacher.email), stillThere)),
    db.delete(teachers).where(ofSchool(schoolId, teacherId)).returning({ id: teachers.id }),
  ]);
  if (!deleted.length) return NOT_FOUND;
  return done({ teacher, message: `${teacher.name} (${teacher.email}) was removed; their place at the school is free.` });
}

/**
 * E-mails the teacher a password-reset code, exactly as their own "Forgot password" does
 * (sendTeacherOtp with purpose "reset", its throttles included), for an admin or a coordinator.
 * The code is the teacher's alone: in Development Mode it goes to the server's log, and the answer
 * only says so (issue 41 item 9; it once showed the code to whoever asked). The audit entry follows
 * a code issued (an e-mail cannot share a transaction).
 */
export async function sendTeacherReset(
  db: Db,
  config: AppConfig,
  actor: AuditActor,
  schoolId: number,
  teacherId: number,
  client: { ip: string; origin: string },
  now = Date.now(),
): Promise<Outcome<Managed<{ teacher: TeacherIdentity }>>> {
  const [teacher, [school]] = await Promise.all([
    findTeacher(db, schoolId, teacherId),
    db.select().from(schools).where(eq(schools.id, schoolId)),
  ]);
  if (!teacher || !school) return NOT_FOUND;
  const answer = await sendTeacherOtp(
    db,
    config,
    config.authSecret,
    {
      school,
      email: teacher.email,
      purpose: "reset",
      clientIp: client.ip,
      loginUrl: `${client.origin}/schools/${school.slug}`,
      requester: "staff",
    },
    now,
  );
  if (!answer.ok) return answer;
  await auditEntry(
    db,
    actor,
    {
      action: "teacher.send-reset",
      entityType: "teacher",
      entityId: teacher.id,
      before: named(teacher),
      after: { delivery: answer.value.delivery === "log" ? "server log (Development Mode)" : "e-mail" },
    },
    now,
  );
  const message =
    answer.value.delivery === "log"
      ? `Development Mode: email delivery is not configured, so the password-reset code for ${teacher.name} was sent to the server's log, not shown here.`
      : `A password-reset code was e-mailed to ${teacher.name} (${teacher.email}).`;
  return done({ teacher, message });
}

/**
 * School coordinators (docs/decisions/0030): a teacher an admin names to see their own school's
 * reading and to manage its teachers (disable, enable, end sessions, send a password reset; not
 * remove them, not the limit, not another school). Whether a teacher is one is read from D1 on each
 * coordinator request (their session in the school's object does not say so), so an admin's undo
 * holds at the coordinator's next request.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { teachers } from "../db/schema.ts";
import { liveTeacher } from "../erasure/live-teachers.ts";
import { adminCommand, type TeacherCommandContext, teacherCommand } from "../kernel/command.ts";
import { done, type Failed, failed, failure, type Outcome } from "../kernel/failure.ts";
import { auditWhere } from "../schools/audit.ts";
import { idFrom } from "../validation/schemas.ts";
import { findCoordinator } from "./coordinator-lookup.ts";
import {
  endTeacherSessions,
  type Managed,
  sendTeacherReset,
  setTeacherDisabled,
  TEACHER_NOT_FOUND,
  type TeacherIdentity,
} from "./management.ts";

/** A plain teacher at a coordinator's page or endpoint. */
export const NOT_COORDINATOR = "Only your school's coordinators can do this.";
/** A coordinator disabling or enabling themselves or another coordinator. */
export const COORDINATOR_ACCOUNT = "A coordinator's account is managed by the publisher. Ask them to disable or enable it.";

const NOT_FOUND = failure("not-found", TEACHER_NOT_FOUND);

export { findCoordinator };

/** The audit log's name for a coordinator: their e-mail, marked, and no admin id. */
export const coordinatorActor = (email: string): AuditActor => ({ id: null, email: `${email} (coordinator)` });

/**
 * Makes a school's teacher a coordinator, or no longer one: one batch with its audit entry, written
 * only when the row changed (asking again changes nothing and writes no entry).
 */
export async function setCoordinator(
  db: Db,
  actor: AuditActor,
  schoolId: number,
  teacherId: number,
  coordinator: boolean,
  now = Date.now(),
): Promise<Outcome<Managed<{ teacher: TeacherIdentity & { coordinator: boolean }; changed: boolean }>>> {
  const target = and(eq(teachers.id, teacherId), eq(teachers.schoolId, schoolId), liveTeacher);
  const [teacher] = await db
    .select({ id: teachers.id, name: teachers.name, email: teachers.email, disabled: teachers.disabled })
    .from(teachers)
    .where(target);
  if (!teacher) return NOT_FOUND;
  const [updated] = await db.batch([
    db
      .update(teachers)
      .set({ coordinator })
      .where(and(target, eq(teachers.coordinator, !coordinator)))
      .returning({ id: teachers.id }),
    auditWhere(
      db,
      actor,
      {
        action: coordinator ? "teacher.coordinator" : "teacher.coordinator-removed",
        entityType: "teacher",
        entityId: teacher.id,
        before: { name: teacher.name, email: teacher.email, coordinator: !coordinator },
        after: { name: teacher.name, email: teacher.email, coordinator },
      },
      sql`changes() > 0`,
      now,
    ),
  ]);
  const changed = updated.length > 0;
  const message = coordinator
    ? changed
      ? `${teacher.name} is now a coordinator of their school.`
      : `${teacher.name} was already a coordinator.`
    : changed
      ? `${teacher.name} is no longer a coordinator.`
      : `${teacher.name} was not a coordinator.`;
  return done({ teacher: { ...teacher, coordinator }, changed, message });
}

const TeacherRef = z.object({ id: z.unknown(), teacherId: z.unknown() });

function coordinatorSwitch(on: boolean) {
  return adminCommand(TeacherRef, async ({ db, actor }, { id, teacherId }) => {
    const [schoolId, teacher] = [idFrom(id), idFrom(teacherId)];
    if (!schoolId || !teacher) return failed({ kind: "not-found", error: TEACHER_NOT_FOUND });
    return setCoordinator(db, actor, schoolId, teacher, on);
  });
}

/** `POST /api/schools/:id/teachers/:teacherId/coordinator` and the school page's button. */
export const makeCoordinatorCommand = coordinatorSwitch(true);
/** `DELETE /api/schools/:id/teachers/:teacherId/coordinator`. */
export const removeCoordinatorCommand = coordinatorSwitch(false);

/** What a coordinator's action answers: the teacher it was about and a sentence. */
type Done<Extra> = { message: string; teacher: TeacherIdentity } & Extra;

const CoordinatorRef = z.object({ teacherId: z.unknown() });

/**
 * A coordinator's action on a teacher of their own school: the school is the session's, never the
 * request's; a plain teacher is refused (403) before anything is read about the other teacher.
 */
function coordinatorCommand<Extra extends object>(
  act: (context: TeacherCommandContext, actor: AuditActor, teacherId: number) => Promise<Outcome<Done<Extra>>>,
) {
  return teacherCommand(CoordinatorRef, async (context, { teacherId }): Promise<Outcome<Done<Extra>>> => {
    const coordinator = await findCoordinator(context.db, context.who);
    if (!coordinator) return failed({ kind: "refused", error: NOT_COORDINATOR });
    const teacher = idFrom(teacherId);
    if (!teacher) return failed({ kind: "not-found", error: TEACHER_NOT_FOUND });
    return act(context, coordinatorActor(coordinator.email), teacher);
  });
}

/**
 * Disabling or enabling is refused for coordinators (themselves included): a coordinator who could
 * disable another could lock the school's other coordinators out, and one who disabled themselves
 * could not undo it. The publisher's admins do that.
 */
async function refuseCoordinatorAccount(db: Db, schoolId: number, teacherId: number): Promise<Failed | null> {
  const [row] = await db
    .select({ coordinator: teachers.coordinator })
    .from(teachers)
    .where(and(eq(teachers.id, teacherId), eq(teachers.schoolId, schoolId)));
  if (!row) return NOT_FOUND;
  return row.coordinator ? failure("refused", COORDINATOR_ACCOUNT) : null;
}

function disabling(disabled: boolean) {
  return coordinatorCommand<{ changed: boolean }>(async ({ db, env, who }, actor, teacherId) => {
    const refused = await refuseCoordinatorAccount(db, who.schoolId, teacherId);
    if (refused) return refused;
    return setTeacherDisabled(db, env, actor, who.schoolId, teacherId, disabled);
  });
}

export const coordinatorDisableCommand = disabling(true);
export const coordinatorEnableCommand = disabling(false);
export const coordinatorSignOutCommand = coordinatorCommand<{ sessionsEnded: number }>(({ db, env, who }, actor, teacherId) =>
  endTeacherSessions(db, env, actor, who.schoolId, teacherId),
);
export const coordinatorSendResetCommand = coordinatorCommand<object>(({ db, config, who, client }, actor, teacherId) =>
  sendTeacherReset(db, config, actor, who.schoolId, teacherId, client),
);

/** A coordinator's read (their school's teachers, its usage): the coordinator, or the refusal. */
export async function asCoordinator(db: Db, who: { schoolId: number; teacherId: number }) {
  const coordinator = await findCoordinator(db, who);
  return coordinator ? done(coordinator) : failed({ kind: "refused", error: NOT_COORDINATOR });
}

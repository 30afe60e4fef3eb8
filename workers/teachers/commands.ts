import { z } from "zod";
import { type AdminCommandContext, adminCommand } from "../kernel/command.ts";
import { failed, type Outcome } from "../kernel/failure.ts";
import { idFrom } from "../validation/schemas.ts";
import {
  deleteTeacher,
  endTeacherSessions,
  sendTeacherReset,
  setTeacherDisabled,
  TEACHER_NOT_FOUND,
  type TeacherIdentity,
} from "./management.ts";

/**
 * The admins' actions on a school's teacher, each once (docs/decisions/0027-commands.md): the
 * API's /api/schools/:id/teachers/:teacherId routes and the school page's teachers table run these.
 * A malformed id names no teacher: 404, as a teacher of another school is.
 */

const TeacherRef = z.object({ id: z.unknown(), teacherId: z.unknown() });
const NO_TEACHER = { kind: "not-found", error: TEACHER_NOT_FOUND } as const;

/** What every action answers: the teacher it was about and a sentence for the admin. */
type Done<Extra> = { message: string; teacher: TeacherIdentity } & Extra;

function teacherCommand<Extra extends object>(
  act: (context: AdminCommandContext, schoolId: number, teacherId: number) => Promise<Outcome<Done<Extra>>>,
) {
  return adminCommand(TeacherRef, async (context, { id, teacherId }) => {
    const [schoolId, teacher] = [idFrom(id), idFrom(teacherId)];
    if (!schoolId || !teacher) return failed(NO_TEACHER);
    return act(context, schoolId, teacher);
  });
}

export const disableTeacherCommand = teacherCommand<{ changed: boolean }>(({ db, env, actor }, schoolId, teacherId) =>
  setTeacherDisabled(db, env, actor, schoolId, teacherId, true),
);
export const enableTeacherCommand = teacherCommand<{ changed: boolean }>(({ db, env, actor }, schoolId, teacherId) =>
  setTeacherDisabled(db, env, actor, schoolId, teacherId, false),
);
export const endTeacherSessionsCommand = teacherCommand<{ sessionsEnded: number }>(({ db, env, actor }, schoolId, teacherId) =>
  endTeacherSessions(db, env, actor, schoolId, teacherId),
);
export const sendTeacherResetCommand = teacherCommand<object>(({ db, config, actor, client }, schoolId, teacherId) =>
  sendTeacherReset(db, config, actor, schoolId, teacherId, client),
);
export const deleteTeacherCommand = teacherCommand<object>(({ db, env, actor }, schoolId, teacherId) =>
  deleteTeacher(db, env, actor, schoolId, teacherId),
);

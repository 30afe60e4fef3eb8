import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../http/context.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { parseInput } from "../http/validate.ts";
import {
  deleteTeacherCommand,
  disableTeacherCommand,
  enableTeacherCommand,
  endTeacherSessionsCommand,
  sendTeacherResetCommand,
} from "../teachers/commands.ts";
import { makeCoordinatorCommand, removeCoordinatorCommand } from "../teachers/coordinators.ts";
import { listSchoolTeachers, SCHOOL_NOT_FOUND } from "../teachers/management.ts";
import { IdTextSchema } from "../validation/schemas.ts";

const IdText = IdTextSchema();

/** The teacher is named by the path alone: no body is read. */
const TEACHER = { params: ["id", "teacherId"], body: false };

/** What an action answers: the sentence for the admin, the teacher, and what changed. */
const answer = <Value extends object>(c: Context<AppEnv>, value: Value) => c.json(value);

/**
 * /api/schools/:id/teachers: a school's teachers for admins (docs/decisions/0015). Mounted after
 * the schools routes, so `/slug/:slug` and `/:id` keep their meaning; each route has its own guards
 * (a sub-app's `use` would reach every /api/schools path).
 */
export const schoolTeachersApi = new Hono<AdminApiEnv>()
  .get("/:id/teachers", requireRole("admin"), async (c) => {
    const schoolId = parseInput(IdText, c.req.param("id"));
    if (!schoolId.ok) return c.json({ error: SCHOOL_NOT_FOUND }, 404);
    const teachers = await listSchoolTeachers(c.var.context.db, c.env, schoolId.data);
    return teachers ? c.json({ teachers }) : c.json({ error: SCHOOL_NOT_FOUND }, 404);
  })
  .post("/:id/teachers/:teacherId/disable", requireRole("admin"), runJson(disableTeacherCommand, answer, TEACHER))
  .post("/:id/teachers/:teacherId/enable", requireRole("admin"), runJson(enableTeacherCommand, answer, TEACHER))
  .post("/:id/teachers/:teacherId/sign-out", requireRole("admin"), runJson(endTeacherSessionsCommand, answer, TEACHER))
  .post("/:id/teachers/:teacherId/send-reset", requireRole("admin"), runJson(sendTeacherResetCommand, answer, TEACHER))
  .delete("/:id/teachers/:teacherId", requireRole("admin"), runJson(deleteTeacherCommand, answer, TEACHER))
  // A school coordinator (docs/decisions/0030): named and un-named by an admin, audited.
  .post("/:id/teachers/:teacherId/coordinator", requireRole("admin"), runJson(makeCoordinatorCommand, answer, TEACHER))
  .delete("/:id/teachers/:teacherId/coordinator", requireRole("admin"), runJson(removeCoordinatorCommand, answer, TEACHER));

import { Hono } from "hono";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { answerJson, runJson } from "../http/run-command.ts";
import {
  deleteTeacherCommand,
  disableTeacherCommand,
  enableTeacherCommand,
  endTeacherSessionsCommand,
  sendTeacherResetCommand,
} from "../teachers/commands.ts";
import { makeCoordinatorCommand, removeCoordinatorCommand } from "../teachers/coordinators.ts";
import { listSchoolTeachers } from "../teachers/management.ts";
import { schoolList } from "./school-list.ts";

/** The teacher is named by the path alone: no body is read. */
const TEACHER = { params: ["id", "teacherId"], body: false } as const;

/**
 * /api/schools/:id/teachers: a school's teachers for admins (docs/decisions/0015). Mounted after
 * the schools routes, so `/slug/:slug` and `/:id` keep their meaning; each route has its own guards
 * (a sub-app's `use` would reach every /api/schools path).
 */
export const schoolTeachersApi = new Hono<AdminApiEnv>()
  .get("/:id/teachers", requireRole("admin"), schoolList("teachers", listSchoolTeachers))
  .post("/:id/teachers/:teacherId/disable", requireRole("admin"), runJson(disableTeacherCommand, answerJson, TEACHER))
  .post("/:id/teachers/:teacherId/enable", requireRole("admin"), runJson(enableTeacherCommand, answerJson, TEACHER))
  .post("/:id/teachers/:teacherId/sign-out", requireRole("admin"), runJson(endTeacherSessionsCommand, answerJson, TEACHER))
  .post("/:id/teachers/:teacherId/send-reset", requireRole("admin"), runJson(sendTeacherResetCommand, answerJson, TEACHER))
  .delete("/:id/teachers/:teacherId", requireRole("admin"), runJson(deleteTeacherCommand, answerJson, TEACHER))
  // A school coordinator (docs/decisions/0030): named and un-named by an admin, audited.
  .post("/:id/teachers/:teacherId/coordinator", requireRole("admin"), runJson(makeCoordinatorCommand, answerJson, TEACHER))
  .delete("/:id/teachers/:teacherId/coordinator", requireRole("admin"), runJson(removeCoordinatorCommand, answerJson, TEACHER));

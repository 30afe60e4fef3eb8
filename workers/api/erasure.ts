import { Hono } from "hono";
import { sessionCookie } from "../auth/sessions.ts";
import { deleteOwnAccountCommand, eraseSchoolCommand } from "../erasure/commands.ts";
import { type AdminApiEnv, requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { answerJson, runJson } from "../http/run-command.ts";

/**
 * POST /api/schools/:id/erase-personal-data (docs/decisions/0045): an admin erases a school's
 * personal data and keeps the school and its figures. The school is named by the path alone.
 */
export const schoolErasureApi = new Hono<AdminApiEnv>().post(
  "/:id/erase-personal-data",
  requireRole("admin"),
  runJson(eraseSchoolCommand, answerJson, { params: ["id"], body: false }),
);

/**
 * DELETE /api/teacher/account with `{ confirm: "<their e-mail address>" }`: the signed-in teacher
 * deletes their own account; the answer clears this browser's cookie (every session has ended).
 */
export const ownAccountErasureApi = new Hono<TeacherApiEnv>().delete(
  "/account",
  requireRole("teacher"),
  runJson(deleteOwnAccountCommand, (c, value) => {
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
    return c.json(value);
  }),
);

import { Hono } from "hono";
import { sessionCookie, type TeacherSession } from "../auth/sessions.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { clientIp } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import {
  AccountUpdateSchema,
  changeTeacherPassword,
  endTeacherSession,
  getTeacherAccount,
  listTeacherSessions,
  PasswordChangeSchema,
  signOutEverywhere,
  updateTeacherAccount,
} from "../teachers/account.ts";

/** The teacher a call is about: the checked session's, never the client's word. */
const refOf = (session: TeacherSession) => ({ schoolId: session.school.id, teacherId: session.teacher.id });

/**
 * The signed-in teacher's own account, for scripts (the account page runs the same core in its
 * loader and actions): /api/teacher/account, /password, /sessions, /sign-out-everywhere. Every
 * route needs the teacher's session, and every write our own origin. Mounted under /teacher
 * next to teacher.ts; each route carries its guards itself, so none leaks to that file's
 * sign-in routes.
 */
export const teacherAccountApi = new Hono<TeacherApiEnv>()
  .get("/account", requireRole("teacher"), async (c) => {
    const account = await getTeacherAccount(c.var.context.db, c.var.teacher.teacher.id);
    if (!account) return c.json({ error: "Your account could not be found." }, 404);
    return c.json(account);
  })
  .put("/account", requireRole("teacher"), validate("json", AccountUpdateSchema), async (c) => {
    const result = await updateTeacherAccount(c.var.context.db, c.env, refOf(c.var.teacher), c.req.valid("json"));
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ ...result.account, message: result.message });
  })
  .post("/password", requireRole("teacher"), validate("json", PasswordChangeSchema), async (c) => {
    const { tokenHash } = c.var.teacher;
    const result = await changeTeacherPassword(
      c.var.context.db,
      c.env,
      { ...refOf(c.var.teacher), keepTokenHash: tokenHash, clientIp: clientIp(c.req.raw) },
      c.req.valid("json"),
    );
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ message: result.message, sessionsEnded: result.sessionsEnded });
  })
  .get("/sessions", requireRole("teacher"), async (c) => {
    return c.json({ sessions: await listTeacherSessions(c.env, refOf(c.var.teacher), c.var.teacher.tokenHash) });
  })
  .delete("/sessions/:id", requireRole("teacher"), async (c) => {
    const result = await endTeacherSession(c.env, refOf(c.var.teacher), c.req.param("id"), c.var.teacher.tokenHash);
    if (!result.ok) return c.json({ error: result.error }, result.status);
    if (result.current) c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
    return c.json({ message: result.message, current: result.current });
  })
  .post("/sign-out-everywhere", requireRole("teacher"), async (c) => {
    const result = await signOutEverywhere(c.env, refOf(c.var.teacher));
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
    return c.json(result);
  });

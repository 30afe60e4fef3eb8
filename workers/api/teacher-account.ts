import { Hono } from "hono";
import { sessionCookie, type TeacherSession } from "../auth/sessions.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { getTeacherAccount, listTeacherSessions } from "../teachers/own-account.ts";
import {
  changePasswordCommand,
  endSessionCommand,
  signOutEverywhereCommand,
  updateAccountCommand,
} from "../teachers/own-account-commands.ts";
import { getReadingSettings, saveReadingSettingsCommand } from "../teachers/reading-settings.ts";

/** The teacher a call is about: the checked session's, never the client's word. */
const refOf = (session: TeacherSession) => ({ schoolId: session.school.id, teacherId: session.teacher.id });

/**
 * The signed-in teacher's own account, for scripts (the account page runs the same core in its
 * loader and actions): /api/teacher/account, /password, /sessions, /sign-out-everywhere, and the
 * reader's /reading-settings (docs/decisions/0031). Every
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
  .put(
    "/account",
    requireRole("teacher"),
    runJson(updateAccountCommand, (c, { account, message }) => c.json({ ...account, message })),
  )
  .post(
    "/password",
    requireRole("teacher"),
    runJson(changePasswordCommand, (c, { message, sessionsEnded }) => c.json({ message, sessionsEnded })),
  )
  .get("/sessions", requireRole("teacher"), async (c) => {
    return c.json({ sessions: await listTeacherSessions(c.env, refOf(c.var.teacher), c.var.teacher.tokenHash) });
  })
  .delete(
    "/sessions/:id",
    requireRole("teacher"),
    runJson(
      endSessionCommand,
      (c, { message, current }) => {
        if (current) c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
        return c.json({ message, current });
      },
      { params: ["id"], body: false },
    ),
  )
  .post(
    "/sign-out-everywhere",
    requireRole("teacher"),
    runJson(
      signOutEverywhereCommand,
      (c, result) => {
        c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
        return c.json(result);
      },
      { body: false },
    ),
  )
  .get("/reading-settings", requireRole("teacher"), async (c) => {
    const settings = await getReadingSettings(c.var.context.db, refOf(c.var.teacher));
    if (!settings) return c.json({ error: "Your account could not be found." }, 404);
    return c.json({ settings });
  })
  .put(
    "/reading-settings",
    requireRole("teacher"),
    runJson(saveReadingSettingsCommand, (c, { settings, message }) => c.json({ settings, message })),
  );

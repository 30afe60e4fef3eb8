import { createMiddleware } from "hono/factory";
import { getTeacherSession, type TeacherSession } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";

export type TeacherEnv = { Bindings: Cloudflare.Env; Variables: { teacherSession: TeacherSession } };

/**
 * Teacher endpoints under /schools/slug/{slug}: a session is required (401), and the school is the
 * session's own; another school's slug answers 404 exactly like a school that does not exist.
 */
export const requireTeacherOfSlug = createMiddleware<TeacherEnv>(async (c, next) => {
  const session = await getTeacherSession(getDb(c.env.DB), c.req.raw);
  if (!session) return c.json({ error: "Not signed in" }, 401);
  if (session.school.slug !== c.req.param("slug")?.toLowerCase()) return c.json({ error: "School not found" }, 404);
  c.set("teacherSession", session);
  c.header("Cache-Control", "private, no-store");
  await next();
});

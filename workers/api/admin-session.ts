import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { type AdminSession, getAdminSession } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";

export type AdminEnv = { Bindings: Cloudflare.Env; Variables: { adminSession: AdminSession } };

/** Every admin endpoint: an admin session (a teacher's is not one), else 401. */
export const requireAdminApi = createMiddleware<AdminEnv>(async (c, next) => {
  const session = await getAdminSession(getDb(c.env.DB), c.req.raw);
  if (!session) return c.json({ error: "Admin sign-in required" }, 401);
  c.set("adminSession", session);
  c.header("Cache-Control", "private, no-store");
  await next();
});

/** Superadmin-only endpoints: 403 for plain admins. Use after requireAdminApi. */
export const requireSuperadminApi = createMiddleware<AdminEnv>(async (c, next) => {
  if (c.get("adminSession").admin.role !== "superadmin") return c.json({ error: "Superadmin access required" }, 403);
  await next();
});

/** The signed-in admin as the audit log records them. Use after requireAdminApi. */
export function actorOf(c: Context<AdminEnv>) {
  const { admin } = c.get("adminSession");
  return { id: admin.id, email: admin.email };
}

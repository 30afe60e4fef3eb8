import { Hono } from "hono";
import { z } from "zod";
import { loginAdmin } from "../admins/accounts.ts";
import { readSessionToken, revokeSession, sessionCookie } from "../auth/sessions.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { failureResponse } from "../http/run-command.ts";
import { clientIp } from "../kernel/context.ts";
import { validate } from "../kernel/validate.ts";
import { EmailSchema } from "../validation/schemas.ts";

const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, "Please enter both email and password").max(1024),
  role: z.enum(["admin", "superadmin"]).default("admin"),
});

/** /api/admin: sign in, sign out, who am I. */
export const adminAuthApi = new Hono<AdminApiEnv>()
  .post("/login", validate("json", LoginSchema), async (c) => {
    const body = c.req.valid("json");
    const db = c.var.context.db;
    const result = await loginAdmin(db, {
      email: body.email,
      password: body.password,
      clientIp: clientIp(c.req.raw),
      requireRole: body.role,
    });
    if (!result.ok) return failureResponse(c, result.failure);
    const previous = readSessionToken(c.req.raw, "admin");
    if (previous) await revokeSession(db, previous);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "admin", result.value.token));
    return c.json({ admin: result.value.admin, expiresAt: result.value.expiresAt });
  })
  .post("/logout", async (c) => {
    const token = readSessionToken(c.req.raw, "admin");
    if (token) await revokeSession(c.var.context.db, token);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "admin", null));
    return c.json({ ok: true });
  })
  .get("/me", requireRole("admin"), (c) => {
    const { admin, expiresAt } = c.var.admin;
    return c.json({ admin, expiresAt });
  });

import { eq } from "drizzle-orm";
import { BAD_CREDENTIALS, checkLogin, loginHousekeeping } from "../auth/login-guard.ts";
import { prepareSession, SESSION_LIFETIME } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { admins, loginEvents } from "../db/schema.ts";

export type AdminRole = "admin" | "superadmin";

export type AdminLoginResult =
  | { ok: true; token: string; admin: { id: number; name: string; email: string; role: AdminRole }; expiresAt: number }
  | { ok: false; status: 401 | 403 | 429; error: string };

/**
 * Signs an admin in with the teachers' rules: same answer and work for unknown e-mail and wrong
 * password, the same per-client and per-account throttling. A disabled account, or a plain admin
 * at the superadmin door, is refused only after the password was right.
 */
export async function loginAdmin(
  db: Db,
  input: { email: string; password: string; clientIp: string; requireRole?: AdminRole },
  now = Date.now(),
): Promise<AdminLoginResult> {
  const [admin] = await db.select().from(admins).where(eq(admins.email, input.email)).limit(1);
  const check = await checkLogin(
    db,
    { scope: "admin", email: input.email, clientIp: input.clientIp, password: input.password, storedHash: admin?.passwordHash },
    now,
  );
  if (!check.ok) return check;
  // checkLogin passes only with a stored hash, so the account exists here.
  if (!admin) return { ok: false, status: 401, error: BAD_CREDENTIALS };
  if (admin.disabled) return { ok: false, status: 403, error: "This account has been disabled. Please contact a superadmin." };
  if (input.requireRole === "superadmin" && admin.role !== "superadmin") {
    return { ok: false, status: 403, error: "This account is not a superadmin account." };
  }
  const session = await prepareSession(db, { kind: "admin", adminId: admin.id }, now);
  await db.batch([
    session.insert,
    db.insert(loginEvents).values({ kind: "admin", adminId: admin.id, at: now }),
    ...loginHousekeeping(db, now),
  ]);
  const { id, name, email, role } = admin;
  return { ok: true, token: session.token, admin: { id, name, email, role }, expiresAt: now + SESSION_LIFETIME.admin.absoluteMs };
}

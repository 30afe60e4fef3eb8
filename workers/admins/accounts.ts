import { eq } from "drizzle-orm";
import { verifyPassword } from "../auth/password.ts";
import { prepareSession } from "../auth/sessions.ts";
import { blockedFor, clearHits, describeWait, recordHit } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import { admins, loginEvents } from "../db/schema.ts";
import { LOGIN_THROTTLE } from "../teachers/accounts.ts";

export type AdminRole = "admin" | "superadmin";

const BAD_CREDENTIALS = "Invalid email or password";
// The same cost as a real check, for unknown addresses (see teachers/accounts.ts).
const DUMMY_HASH =
  "pbkdf2-sha512$100000$3q2+78r+ur7erb7vyv66vg==$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY3ODkwYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMg==";

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
  const keys = {
    client: `login:client:${input.clientIp}`,
    pair: `login:admin-pair:${input.email}:${input.clientIp}`,
    account: `login:admin:${input.email}`,
  };
  const wait = await blockedFor(db, Object.values(keys), now);
  if (wait > 0) return { ok: false, status: 429, error: `Too many login attempts. Please try again in ${describeWait(wait)}.` };

  const [admin] = await db.select().from(admins).where(eq(admins.email, input.email)).limit(1);
  const valid = await verifyPassword(input.password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !valid) {
    for (const [rule, key] of Object.entries(keys) as [keyof typeof keys, string][]) await recordHit(db, key, LOGIN_THROTTLE[rule], now);
    return { ok: false, status: 401, error: BAD_CREDENTIALS };
  }
  await clearHits(db, keys.pair);
  if (admin.disabled) return { ok: false, status: 403, error: "This account has been disabled. Please contact a superadmin." };
  if (input.requireRole === "superadmin" && admin.role !== "superadmin") {
    return { ok: false, status: 403, error: "This account is not a superadmin account." };
  }
  const session = await prepareSession(db, { kind: "admin", adminId: admin.id }, now);
  await db.batch([session.insert, db.insert(loginEvents).values({ kind: "admin", adminId: admin.id, at: now })]);
  const { id, name, email, role } = admin;
  return { ok: true, token: session.token, admin: { id, name, email, role }, expiresAt: now + 9_000_000 };
}

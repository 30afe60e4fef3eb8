import { eq } from "drizzle-orm";
import { BAD_CREDENTIALS, checkLogin, loginHousekeeping } from "../auth/login-guard.ts";
import { prepareSession, SESSION_LIFETIME } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { admins, loginEvents } from "../db/schema.ts";
import { done, type Failed, failure, type Outcome } from "../kernel/failure.ts";
import { type SignInRefusal, signInEntry } from "./audit.ts";

export type AdminRole = "admin" | "superadmin";

export type AdminSignIn = { token: string; admin: { id: number; name: string; email: string; role: AdminRole }; expiresAt: number };

/**
 * Signs an admin in with the teachers' rules: same answer and work for unknown e-mail and wrong
 * password, the same per-client and per-account throttling. A disabled account, or a plain admin
 * at the superadmin door, is refused only after the password was right.
 *
 * Every attempt that reaches the password check goes into the audit log ("sign in" in the
 * session's batch, "sign-in failed" with its reason), the e-mail tried as the actor. Attempts the
 * throttle refuses before any check are not recorded: its counters hold them, and a flood of them
 * would otherwise write a row each.
 */
export async function loginAdmin(
  db: Db,
  input: { email: string; password: string; clientIp: string; requireRole?: AdminRole },
  now = Date.now(),
): Promise<Outcome<AdminSignIn>> {
  const [admin] = await db.select().from(admins).where(eq(admins.email, input.email)).limit(1);
  const door = input.requireRole ?? "admin";
  const refuse = async (result: Failed, refused: SignInRefusal): Promise<Failed> => {
    await signInEntry(db, { email: input.email, adminId: admin?.id ?? null, door, refused }, now);
    return result;
  };
  const check = await checkLogin(
    db,
    { scope: "admin", email: input.email, clientIp: input.clientIp, password: input.password, storedHash: admin?.passwordHash },
    now,
  );
  if (!check.ok) {
    // The admins' sign-in never said how many tries are left: the sentence only, not the teachers' details.
    const refusal = failure(check.failure.kind, check.failure.error);
    return check.failure.kind === "throttled" ? refusal : refuse(refusal, admin ? "wrong password" : "unknown account");
  }
  // checkLogin passes only with a stored hash, so the account exists here.
  if (!admin) return failure("unauthenticated", BAD_CREDENTIALS);
  if (admin.disabled) {
    return refuse(failure("refused", "This account has been disabled. Please contact a superadmin."), "account disabled");
  }
  if (input.requireRole === "superadmin" && admin.role !== "superadmin") {
    return refuse(failure("refused", "This account is not a superadmin account."), "not a superadmin");
  }
  const session = await prepareSession(db, { kind: "admin", adminId: admin.id }, now);
  await db.batch([
    session.insert,
    db.insert(loginEvents).values({ kind: "admin", adminId: admin.id, at: now }),
    signInEntry(db, { email: admin.email, adminId: admin.id, door }, now),
    ...loginHousekeeping(db, now),
  ]);
  const { id, name, email, role } = admin;
  return done({ token: session.token, admin: { id, name, email, role }, expiresAt: now + SESSION_LIFETIME.admin.absoluteMs });
}

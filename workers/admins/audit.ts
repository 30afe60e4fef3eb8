import { is, SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

export interface Actor {
  id: number;
  email: string;
}

/**
 * Who an audit entry names: an admin (their id and e-mail), or a school's coordinator acting on
 * their school's teachers (no admin id; the e-mail followed by "(coordinator)": docs/decisions/0030).
 */
export interface AuditActor {
  id: number | null;
  email: string;
}

/** The actor the audit log records for a signed-in admin: built here only, from the session. */
export function adminActor(session: { admin: { id: number; email: string } }): Actor {
  return { id: session.admin.id, email: session.admin.email };
}

/**
 * The audit row for an admin write: who, what, when, before and after. Returned unexecuted so
 * the caller puts it in the same D1 batch as the write: no change without its record. The id may
 * be SQL evaluated in the batch (the id of the row just inserted).
 */
export function auditEntry(
  db: Db,
  actor: AuditActor,
  entry: { action: string; entityType: string; entityId?: string | number | SQL | null; before?: unknown; after?: unknown },
  now = Date.now(),
) {
  const { entityId } = entry;
  return db.insert(auditLog).values({
    adminId: actor.id,
    adminEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entityId === undefined || entityId === null ? null : is(entityId, SQL) ? entityId : String(entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    at: now,
  });
}

export const SIGN_IN = "sign in";
export const SIGN_IN_FAILED = "sign-in failed";

/** Why a sign-in that reached the password check was refused, as the audit log says it. */
export type SignInRefusal = "unknown account" | "wrong password" | "account disabled" | "not a superadmin";

/**
 * The audit row of an admin or superadmin sign-in: the actor is the e-mail tried (and the account,
 * when one has it), the door is the login page it came through, a refusal says why. Never the password.
 */
export function signInEntry(
  db: Db,
  attempt: { email: string; adminId: number | null; door: "admin" | "superadmin"; refused?: SignInRefusal },
  now = Date.now(),
) {
  return db.insert(auditLog).values({
    adminId: attempt.adminId,
    adminEmail: attempt.email,
    action: attempt.refused ? SIGN_IN_FAILED : SIGN_IN,
    entityType: "admin",
    entityId: attempt.adminId === null ? null : String(attempt.adminId),
    before: null,
    after: attempt.refused ? { door: attempt.door, reason: attempt.refused } : { door: attempt.door },
    at: now,
  });
}

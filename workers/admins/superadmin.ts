import { and, eq, ne, sql } from "drizzle-orm";
import { hashPassword } from "../auth/password.ts";
import type { Db } from "../db/client.ts";
import { admins, sessions } from "../db/schema.ts";
import { done, failure } from "../kernel/failure.ts";
import { auditWhenChanged } from "../schools/audit.ts";
import { type Actor, auditEntry } from "./audit.ts";
import { adminTotals } from "./stats.ts";

const PUBLIC_ADMIN = {
  id: admins.id,
  email: admins.email,
  name: admins.name,
  role: admins.role,
  disabled: admins.disabled,
  createdAt: admins.createdAt,
};

export function listAdmins(db: Db) {
  return db.select(PUBLIC_ADMIN).from(admins).orderBy(admins.email);
}

export async function createAdmin(
  db: Db,
  actor: Actor,
  input: { email: string; name: string; password: string; role: "admin" | "superadmin" },
) {
  const [existing] = await db.select({ id: admins.id }).from(admins).where(eq(admins.email, input.email));
  if (existing) return failure("conflict", "An account with this e-mail already exists", "email");
  const passwordHash = await hashPassword(input.password);
  const [created] = await db.batch([
    db.insert(admins).values({ email: input.email, name: input.name, role: input.role, passwordHash }).returning(PUBLIC_ADMIN),
    auditEntry(db, actor, {
      action: "create",
      entityType: "admin",
      // The new account's id (the insert just before it in the batch).
      entityId: sql`CAST(last_insert_rowid() AS TEXT)`,
      after: { email: input.email, name: input.name, role: input.role },
    }),
  ]);
  return done(created[0]!);
}

/**
 * Disables or re-enables an admin, or sets a new password. Disabling or a new password ends the
 * admin's sessions at once. A superadmin cannot disable themselves (so one always remains).
 */
export async function updateAdmin(db: Db, actor: Actor, id: number, change: { disabled?: boolean; password?: string }) {
  const [before] = await db.select(PUBLIC_ADMIN).from(admins).where(eq(admins.id, id));
  if (!before) return failure("not-found", "Admin not found");
  if (change.disabled && id === actor.id) return failure("invalid", "You cannot disable your own account");
  const set: { disabled?: boolean; passwordHash?: string } = {};
  if (change.disabled !== undefined) set.disabled = change.disabled;
  if (change.password) set.passwordHash = await hashPassword(change.password);
  if (Object.keys(set).length === 0) return failure("invalid", "Nothing to change");
  const endSessions = change.disabled === true || change.password !== undefined;
  // Disabling keeps an active superadmin: the update's own WHERE checks it, so two superadmins
  // disabling each other at once cannot both succeed; the audit entry follows only a real change.
  const keepsASuperadmin = change.disabled ? sql`(${admins.role} <> 'superadmin' OR ${anotherActiveSuperadmin(id)})` : sql`1`;
  const [updated] = await db.batch([
    db
      .update(admins)
      .set(set)
      .where(and(eq(admins.id, id), keepsASuperadmin))
      .returning(PUBLIC_ADMIN),
    auditWhenChanged(
      db,
      actor,
      {
        action: change.password ? "reset-password" : change.disabled ? "disable" : "enable",
        entityType: "admin",
        entityId: id,
        before: { disabled: before.disabled },
        after: { disabled: change.disabled ?? before.disabled, passwordChanged: Boolean(change.password) },
      },
      Date.now(),
    ),
    // changes() here is the audit insert's: 1 only when the update above took.
    ...(endSessions ? [db.delete(sessions).where(and(eq(sessions.adminId, id), sql`changes() > 0`))] : []),
  ]);
  if (!updated[0]) return failure("conflict", "The last active superadmin cannot be disabled.");
  return done(updated[0]);
}

/** Whether any active superadmin other than `id` exists (SQL, for the guard of a delete). */
const anotherActiveSuperadmin = (id: number) =>
  sql`EXISTS (SELECT 1 FROM admins AS other WHERE other.role = 'superadmin' AND other.disabled = 0 AND other.id <> ${id})`;

/**
 * Deletes an admin account: its sessions end with it (sessions.admin_id cascades), its past
 * entries in the log keep their e-mail. Never the superadmin's own account, nor the last active
 * superadmin; the delete's own WHERE checks both, so two superadmins deleting each other at once
 * cannot both succeed. The audit entry is written only when a row went (a repeated delete is a 404).
 */
export async function deleteAdmin(db: Db, actor: Actor, id: number, now = Date.now()) {
  const notFound = failure("not-found", "Admin not found");
  const [target] = await db.select(PUBLIC_ADMIN).from(admins).where(eq(admins.id, id));
  if (!target) return notFound;
  if (id === actor.id) return failure("conflict", "You cannot delete your own account.");
  const { email, name, role, disabled } = target;
  const [deleted] = await db.batch([
    db
      .delete(admins)
      .where(
        and(
          eq(admins.id, id),
          ne(admins.id, actor.id),
          sql`(${admins.role} <> 'superadmin' OR ${admins.disabled} = 1 OR ${anotherActiveSuperadmin(id)})`,
        ),
      )
      .returning({ id: admins.id }),
    auditWhenChanged(db, actor, { action: "delete", entityType: "admin", entityId: id, before: { email, name, role, disabled } }, now),
  ]);
  if (deleted.length === 1) return done(target);
  // Refused by the guard: gone meanwhile, or the last active superadmin (another one went meanwhile).
  const [still] = await db.select({ id: admins.id }).from(admins).where(eq(admins.id, id));
  if (!still) return notFound;
  const error = `${target.email} is the last active superadmin and cannot be deleted. Make another account a superadmin first.`;
  return failure("conflict", error);
}

/** The superadmin dashboard's figures: the admin dashboard's, in the order GET /api/superadmin/stats has always answered them. */
export async function globalFigures(db: Db, now = Date.now()) {
  const figures = await adminTotals(db, now);
  return { schools: figures.schools, books: figures.books, teachers: figures.teachers, loginsThisWeek: figures.loginsThisWeek };
}

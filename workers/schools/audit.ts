import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { Actor, AuditActor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

/**
 * auditEntry's row for a guarded write: INSERT ... SELECT ... WHERE `condition`, so it is written
 * only when the condition holds as the batch reaches it, and its id or values may be SQL evaluated
 * in the batch (the id of the row just inserted, the counter just raised, the sessions just ended).
 */
export function auditWhere(
  db: Db,
  actor: AuditActor,
  entry: { action: string; entityId: number | string | SQL; entityType: string; before?: unknown; after?: unknown },
  condition: SQL,
  now: number,
) {
  const json = (value: unknown) => (is(value, SQL) ? value : value === undefined ? null : JSON.stringify(value));
  const row: Record<keyof typeof auditLog.$inferSelect, unknown> = {
    id: null,
    adminId: actor.id,
    adminEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    // D1 binds JS numbers as REAL, so a number is sent as text ("12", not "12.0").
    entityId: is(entry.entityId, SQL) ? sql`CAST(${entry.entityId} AS TEXT)` : String(entry.entityId),
    before: json(entry.before),
    after: json(entry.after),
    at: now,
  };
  // insert().select() fills every column in the table's order.
  const columns = Object.keys(getTableColumns(auditLog)) as (keyof typeof row)[];
  const list = sql.join(
    columns.map((column) => sql`${row[column]}`),
    sql`, `,
  );
  return db.insert(auditLog).select(sql`SELECT ${list} WHERE ${condition}`);
}

/** auditWhere for the common guard: only when the statement before it in the batch changed a row. */
export function auditWhenChanged(
  db: Db,
  actor: Actor,
  entry: { action: string; entityId: number | string | SQL; entityType?: string; before?: unknown; after?: unknown },
  now: number,
) {
  return auditWhere(db, actor, { ...entry, entityType: entry.entityType ?? "school" }, sql`changes() > 0`, now);
}

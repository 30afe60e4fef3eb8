import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

export interface Actor {
  id: number;
  email: string;
}

/**
 * The audit row for an admin write: who, what, when, before and after. Returned unexecuted so
 * the caller puts it in the same D1 batch as the write: no change without its record.
 */
export function auditEntry(
  db: Db,
  actor: Actor,
  entry: { action: string; entityType: string; entityId?: string | number | null; before?: unknown; after?: unknown },
  now = Date.now(),
) {
  return db.insert(auditLog).values({
    adminId: actor.id,
    adminEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    at: now,
  });
}

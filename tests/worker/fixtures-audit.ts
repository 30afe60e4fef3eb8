import { and, eq } from "drizzle-orm";
import { auditLog } from "../../workers/db/schema.ts";
import { db } from "./helpers.ts";

/**
 * The audit log's entries about one entity (a teacher, a school), only those of `action` when one is
 * named: what a test reads to say a write was audited once, or that a refused one left nothing.
 */
export const auditEntriesOf = (entityType: string, entityId: number | string, action?: string) =>
  db()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityType, entityType),
        eq(auditLog.entityId, String(entityId)),
        action === undefined ? undefined : eq(auditLog.action, action),
      ),
    );

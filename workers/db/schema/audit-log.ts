import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { admins } from "./people.ts";

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    // Kept as text so the entry stays readable after the admin row is gone.
    adminEmail: text("admin_email").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_entity_idx").on(t.entityType, t.entityId),
    // The superadmin's filters by who and by what, newest first within a date range.
    index("audit_log_admin_at_idx").on(t.adminEmail, t.at),
    index("audit_log_action_at_idx").on(t.action, t.at),
  ],
);

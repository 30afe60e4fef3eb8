/** Schools, the tenants: one row per school, with its limits and the counters the reports read. */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./timestamps.ts";

export const schools = sqliteTable(
  "schools",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    address1: text("address1").notNull().default(""),
    address2: text("address2"),
    address3: text("address3"),
    city: text("city").notNull().default(""),
    state: text("state").notNull().default(""),
    zipCode: text("zip_code").notNull().default(""),
    email: text("email").notNull().default(""),
    principal: text("principal"),
    teacherLimit: integer("teacher_limit").notNull().default(25),
    // How many signed-in sessions one teacher may hold at once; a new sign-in past it ends the oldest.
    sessionLimit: integer("session_limit").notNull().default(3),
    // Books one teacher may keep for offline reading at once (docs/decisions/0050); 0: none.
    offlineBooksPerTeacher: integer("offline_books_per_teacher").notNull().default(5),
    // Admin-adjustable counter of the spec's "total login count"; login_events holds the history.
    totalLogins: integer("total_logins").notNull().default(0),
    // The last UTC day (YYYY-MM-DD) a teacher of the school read: "no activity in 30 days" walks its index.
    lastActiveDay: text("last_active_day"),
    // The last usage batch the school's object flushed (docs/decisions/0024): D1 applies each number once.
    usageFlushSeq: integer("usage_flush_seq").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("schools_last_active_idx").on(t.lastActiveDay),
    // The admin list sorts by name (case-insensitively) and pages with LIMIT: an index walk, not a sort of every school.
    index("schools_name_idx").on(sql`${t.name} COLLATE NOCASE`),
  ],
);

/** The school a row belongs to, for the tables whose rows go when their school does. */
export const schoolIdColumn = () =>
  integer("school_id")
    .notNull()
    .references(() => schools.id, { onDelete: "cascade" });

export type School = typeof schools.$inferSelect;

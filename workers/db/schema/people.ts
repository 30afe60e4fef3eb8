/** The people who sign in: a school's teachers and the publisher's admins. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { schoolIdColumn } from "./schools.ts";
import { createdAt } from "./timestamps.ts";

export const teachers = sqliteTable(
  "teachers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: schoolIdColumn(),
    name: text("name").notNull(),
    // Stored lower-cased and trimmed, so the unique index is case-insensitive.
    email: text("email").notNull(),
    mobile: text("mobile").notNull(),
    passwordHash: text("password_hash").notNull(),
    // An admin can disable a teacher: they cannot sign in, and their sessions count as signed out.
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    // The last UTC day the teacher read: "active teachers in the last 30 days" counts on its index.
    lastActiveDay: text("last_active_day"),
    // A school coordinator (docs/decisions/0030): sees the school's usage and manages its teachers.
    coordinator: integer("coordinator", { mode: "boolean" }).notNull().default(false),
    // The Text view's reading settings (docs/decisions/0031), as JSON; null until first saved. Read
    // through readStoredSettings, so a value an older reader wrote still opens.
    readingSettings: text("reading_settings", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
    // Set when the teacher's personal data was erased (docs/decisions/0045): the row stays, holding no
    // person (no name, address, mobile or password), so the usage rows that name its id still count
    // for the school and the publisher. No account is shown, counted or signed in for it.
    erasedAt: integer("erased_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("teachers_school_email_idx").on(t.schoolId, t.email),
    index("teachers_last_active_idx").on(t.lastActiveDay),
    // The hourly job finds the erasures of the last day whose school object may not have been emptied.
    index("teachers_erased_idx").on(t.erasedAt),
  ],
);

export const admins = sqliteTable("admins", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  role: text("role", { enum: ["admin", "superadmin"] })
    .notNull()
    .default("admin"),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
});

/** The teacher a row belongs to, for the tables whose rows go when their teacher does. */
export const teacherIdColumn = () =>
  integer("teacher_id")
    .notNull()
    .references(() => teachers.id, { onDelete: "cascade" });

export type Teacher = typeof teachers.$inferSelect;
export type Admin = typeof admins.$inferSelect;

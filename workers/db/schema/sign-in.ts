/** Signing in: one-time codes, admins' sessions, the login history and schools' Google/Microsoft sign-in. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { admins, teachers } from "./people.ts";
import { schoolIdColumn, schools } from "./schools.ts";
import { createdAt } from "./timestamps.ts";

export const otpCodes = sqliteTable(
  "otp_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: schoolIdColumn(),
    email: text("email").notNull(),
    purpose: text("purpose", { enum: ["register", "reset"] }).notNull(),
    // HMAC of the code bound to school, e-mail and purpose; the plain code is never stored.
    codeHash: text("code_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: integer("used_at", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("otp_codes_lookup_idx").on(t.schoolId, t.email, t.purpose, t.createdAt),
    // Sign-ins sweep codes that expired a day ago (loginHousekeeping); the limits look back one hour.
    index("otp_codes_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Admins' sessions. Teachers' sessions live in their school's object (docs/decisions/0024); the
 * teacher rows here are from before it, kept (unread but for the school an old cookie names) until
 * they expire and the sweep takes them.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the cookie token; the token itself only lives in the browser.
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["teacher", "admin"] }).notNull(),
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "cascade" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "cascade" }),
    schoolId: integer("school_id").references(() => schools.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    /** The browser and system the session was signed in from ("Chrome on Windows"), for the account page. */
    device: text("device"),
  },
  (t) => [
    index("sessions_teacher_idx").on(t.teacherId),
    index("sessions_admin_idx").on(t.adminId),
    index("sessions_school_idx").on(t.schoolId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const loginEvents = sqliteTable(
  "login_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: ["teacher", "admin"] }).notNull(),
    schoolId: integer("school_id").references(() => schools.id, { onDelete: "cascade" }),
    // A deleted teacher's logins still count towards the school's history.
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "set null" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("login_events_school_at_idx").on(t.schoolId, t.at),
    index("login_events_teacher_idx").on(t.teacherId),
    index("login_events_admin_idx").on(t.adminId),
    index("login_events_at_idx").on(t.at),
  ],
);

/**
 * A school's sign-in with its Google or Microsoft accounts (docs/decisions/0029): which provider,
 * the e-mail domains allowed (a JSON array of lower-case domains) and, for Microsoft, the tenant.
 */
export const schoolSignIn = sqliteTable(
  "school_sign_in",
  {
    schoolId: schoolIdColumn(),
    provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    domains: text("domains", { mode: "json" }).$type<string[]>().notNull().default([]),
    tenantId: text("tenant_id"),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.provider] })],
);

/**
 * A provider sign-in that succeeded (docs/decisions/0029), keyed by its sealed state's id so a
 * state signs in once: the teacher, and the hash of the one-time ticket that opens the session on
 * the host where the teacher began (a school's own subdomain has its own cookies). Taken (deleted)
 * when used; unused ones go after 10 minutes.
 */
export const oidcRequests = sqliteTable(
  "oidc_requests",
  {
    state: text("state").primaryKey(),
    schoolId: schoolIdColumn(),
    provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
    // Where the teacher began: the origin and the school's base path there.
    returnTo: text("return_to").notNull(),
    handoffHash: text("handoff_hash").unique(),
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("oidc_requests_created_idx").on(t.createdAt)],
);

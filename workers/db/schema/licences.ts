/** Which school may read which book, and when (docs/decisions/0028). */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bookIdColumn } from "./catalogue.ts";
import { schoolIdColumn } from "./schools.ts";
import { createdAt } from "./timestamps.ts";

/**
 * A school's licence for a book (docs/decisions/0028): from `starts_on` to `ends_on` (UTC days,
 * YYYY-MM-DD, both included; no end: open-ended), for at most `seats` readers at once (null:
 * unlimited). Teachers see a book while its licence is active. One per (school, book): renewing
 * moves its dates. The table keeps its old name, book_access: every assignment became a licence.
 */
export const bookAccess = sqliteTable(
  "book_access",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: schoolIdColumn(),
    bookId: bookIdColumn(),
    startsOn: text("starts_on").notNull().default(sql`(date('now'))`),
    endsOn: text("ends_on"),
    seats: integer("seats"),
    note: text("note").notNull().default(""),
    // Whether teachers may keep the book for offline reading, and for how many days (docs/decisions/0050).
    offlineAllowed: integer("offline_allowed", { mode: "boolean" }).notNull().default(true),
    offlineDays: integer("offline_days").notNull().default(14),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`),
  },
  (t) => [
    uniqueIndex("book_access_school_book").on(t.schoolId, t.bookId),
    index("book_access_book_idx").on(t.bookId),
    index("book_access_ends_idx").on(t.endsOn),
  ],
);

/**
 * The reminders the scheduled job sent (docs/decisions/0028): one per licence, last day and notice
 * (30 or 7 days before). Claimed before the e-mail goes, so a retried or overlapping job sends it
 * once; a renewal's new last day is reminded of again.
 */
export const licenceReminders = sqliteTable(
  "licence_reminders",
  {
    licenceId: integer("licence_id")
      .notNull()
      .references(() => bookAccess.id, { onDelete: "cascade" }),
    endsOn: text("ends_on").notNull(),
    daysBefore: integer("days_before").notNull(),
    sentAt: integer("sent_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenceId, t.endsOn, t.daysBefore] })],
);

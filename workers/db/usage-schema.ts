/**
 * Usage rollups (docs/decisions/0019): what the reports read. The server adds to them as it serves
 * a teacher (workers/reading/usage-events.ts); no raw reading events are stored. Days are UTC
 * `YYYY-MM-DD` texts; reading time is in seconds.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bookIdColumn, schoolIdColumn, teacherIdColumn } from "./schema.ts";

/**
 * One row per day, school, book and teacher: pages served, reading time, and when the teacher was
 * last seen in the book that day (to time the next gap). The only rows that name a teacher; a
 * deleted teacher's, book's or school's rows go with them, and the nightly sweep drops rows older
 * than the retention period.
 */
export const readingDaily = sqliteTable(
  "reading_daily",
  {
    day: text("day").notNull(),
    schoolId: schoolIdColumn(),
    bookId: bookIdColumn(),
    teacherId: teacherIdColumn(),
    pages: integer("pages").notNull().default(0),
    seconds: integer("seconds").notNull().default(0),
    lastAt: integer("last_at", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.schoolId, t.bookId, t.teacherId] }),
    index("reading_daily_school_day_idx").on(t.schoolId, t.day),
    index("reading_daily_book_day_idx").on(t.bookId, t.day),
    index("reading_daily_teacher_day_idx").on(t.teacherId, t.day),
  ],
);

const totals = {
  activeTeachers: integer("active_teachers").notNull().default(0),
  booksOpened: integer("books_opened").notNull().default(0),
  pages: integer("pages").notNull().default(0),
  seconds: integer("seconds").notNull().default(0),
};

/** A school's day: no teacher named, so it outlives the teacher rows (deleted teachers still count). */
export const schoolUsageDaily = sqliteTable(
  "school_usage_daily",
  {
    schoolId: schoolIdColumn(),
    day: text("day").notNull(),
    ...totals,
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.day] }), index("school_usage_daily_day_idx").on(t.day)],
);

/** Every school's day together: the overview's chart reads at most 366 rows. Kept when a school goes. */
export const usageDaily = sqliteTable("usage_daily", { day: text("day").primaryKey(), ...totals });

/**
 * The overview's top books and top schools per range, recomputed by the scheduled job (and by the
 * overview when older than RANKING_MAX_AGE): ranking a year of rollups reads millions of rows, too
 * many for a page load at scale.
 */
export const usageRankings = sqliteTable(
  "usage_rankings",
  {
    rangeDays: integer("range_days").notNull(),
    kind: text("kind", { enum: ["book", "school"] }).notNull(),
    rank: integer("rank").notNull(),
    entityId: integer("entity_id").notNull(),
    pages: integer("pages").notNull(),
    seconds: integer("seconds").notNull(),
    readers: integer("readers").notNull(),
    computedAt: integer("computed_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rangeDays, t.kind, t.rank] })],
);

/**
 * Seats (docs/decisions/0028): per school, book and day, the most teachers who held a seat of the
 * book at once and how many different teachers were turned away for want of one. Each school's
 * object keeps the day's figures and sends them whole with its usage flush; D1 keeps the higher of
 * what it has and what arrives, so a flush sent twice changes nothing. No teacher is named.
 */
export const seatDaily = sqliteTable(
  "seat_daily",
  {
    schoolId: schoolIdColumn(),
    bookId: bookIdColumn(),
    day: text("day").notNull(),
    peakReaders: integer("peak_readers").notNull().default(0),
    turnedAway: integer("turned_away").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.bookId, t.day] }), index("seat_daily_book_day_idx").on(t.bookId, t.day)],
);

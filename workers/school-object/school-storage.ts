/**
 * The school object's own SQLite tables (docs/decisions/0024), and its `meta` values: the school's
 * id, its catalogue version and the last flush's sequence number. Every statement is IF NOT EXISTS,
 * so an object that began before a table was added takes it on its next start.
 */
import { ANNOTATIONS_INDEX, ANNOTATIONS_TABLE } from "./annotations.ts";

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS teachers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0)`,
  // ended: null while live; 'disabled' when an admin disabled the teacher (kept a while, to say so).
  `CREATE TABLE IF NOT EXISTS sessions (token_hash TEXT PRIMARY KEY, teacher_id INTEGER NOT NULL, device TEXT,
    created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, ended TEXT)`,
  "CREATE INDEX IF NOT EXISTS sessions_teacher ON sessions (teacher_id, created_at)",
  // Fixed windows per teacher and book: 'h' (hour) and 'd' (day), as pageBudget sets them.
  `CREATE TABLE IF NOT EXISTS budgets (teacher_id INTEGER NOT NULL, book_id INTEGER NOT NULL, window TEXT NOT NULL,
    count INTEGER NOT NULL, window_start INTEGER NOT NULL, PRIMARY KEY (teacher_id, book_id, window))`,
  // When each teacher last read each book today and yesterday: first-of-day marks and reading gaps.
  `CREATE TABLE IF NOT EXISTS reading_days (day TEXT NOT NULL, teacher_id INTEGER NOT NULL, book_id INTEGER NOT NULL,
    last_at INTEGER NOT NULL, PRIMARY KEY (day, teacher_id, book_id))`,
  // Usage not yet in D1; seq 0 gathers new events, a flush in flight owns its own seq.
  `CREATE TABLE IF NOT EXISTS pending (seq INTEGER NOT NULL, day TEXT NOT NULL, book_id INTEGER NOT NULL,
    teacher_id INTEGER NOT NULL, pages INTEGER NOT NULL, seconds INTEGER NOT NULL, last_at INTEGER NOT NULL,
    new_teacher INTEGER NOT NULL, new_book INTEGER NOT NULL, PRIMARY KEY (seq, day, book_id, teacher_id))`,
  // The page each teacher is on in each book, until flushed to D1's reading_progress (seq as in pending).
  `CREATE TABLE IF NOT EXISTS progress (seq INTEGER NOT NULL, teacher_id INTEGER NOT NULL, book_id INTEGER NOT NULL,
    page INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (seq, teacher_id, book_id))`,
  // Who holds a seat of a book with a seat limit (docs/decisions/0028): until SEAT_HOLD_MS after their last page.
  `CREATE TABLE IF NOT EXISTS seats (book_id INTEGER NOT NULL, teacher_id INTEGER NOT NULL, last_at INTEGER NOT NULL,
    PRIMARY KEY (book_id, teacher_id))`,
  // Each day's seat figures per book, whole (not deltas): the most holders at once and how many
  // different teachers found no seat; dirty until the next flush has sent them.
  `CREATE TABLE IF NOT EXISTS seat_days (day TEXT NOT NULL, book_id INTEGER NOT NULL, peak INTEGER NOT NULL DEFAULT 0,
    turned_away INTEGER NOT NULL DEFAULT 0, dirty INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (day, book_id))`,
  // Who was turned away from which book today (counted once per teacher and day).
  `CREATE TABLE IF NOT EXISTS seat_refusals (day TEXT NOT NULL, book_id INTEGER NOT NULL, teacher_id INTEGER NOT NULL,
    PRIMARY KEY (day, book_id, teacher_id))`,
  // Each teacher's bookmarks, highlights and notes (docs/decisions/0032): workers/school-object/annotations.ts.
  ANNOTATIONS_TABLE,
  ANNOTATIONS_INDEX,
];

/** Whether the object has ever served its school (an object that has not has no tables, and writes none until it does). */
export function hasStarted(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
}

export function createSchema(sql: SqlStorage) {
  for (const statement of SCHEMA) sql.exec(statement);
}

export type MetaKey = "school_id" | "catalogue_version" | "flush_seq";

export function readMeta(sql: SqlStorage, key: MetaKey): number | null {
  const [row] = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray();
  return row?.value ?? null;
}

export function writeMeta(sql: SqlStorage, key: MetaKey, value: number) {
  sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}

/**
 * The school's catalogue version: an admin's change to its books raises it, and what Workers
 * remember of the school's books under an older one is stale (workers/reading/page-view-cache.ts).
 */
export function catalogueVersion(sql: SqlStorage): number {
  return readMeta(sql, "catalogue_version") ?? 0;
}

/** The catalogue changed: the new version. */
export function raiseCatalogueVersion(sql: SqlStorage): number {
  const version = catalogueVersion(sql) + 1;
  writeMeta(sql, "catalogue_version", version);
  return version;
}

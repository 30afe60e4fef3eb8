/**
 * The school object's SQLite schema as numbered, append-only migrations recorded in the object's
 * own storage (docs/decisions/0042; lambrospetrou/durable-utils's SQL schema migrations are the
 * model). Every object runs, once, each migration it has not recorded, in order, at its start;
 * thousands of live objects each take a new one the first time they wake under the new code.
 *
 * Append-only: never edit or remove a migration that has shipped (an object that ran it will not
 * run it again); add the next number. A migration runs in one transaction with its record, so a
 * statement that fails leaves nothing of it, and the object tries again on its next start.
 */

export interface StorageMigration {
  /** 1, 2, 3, ...: the order they run in, and what the object records. */
  id: number;
  /** What it does, for the reader of this list. */
  description: string;
  statements: readonly string[];
}

export const MIGRATIONS: readonly StorageMigration[] = [
  {
    id: 1,
    description:
      "The tables as the object made them before migrations were recorded (each IF NOT EXISTS, so an object made then takes this as a no-op)",
    statements: [
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
      // Each teacher's bookmarks, highlights and notes (docs/decisions/0032): annotations.ts.
      `CREATE TABLE IF NOT EXISTS annotations (id INTEGER PRIMARY KEY AUTOINCREMENT,
    teacher_id INTEGER NOT NULL, book_id INTEGER NOT NULL, kind TEXT NOT NULL, page INTEGER NOT NULL,
    label TEXT, note TEXT, colour TEXT, anchor TEXT, text TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      "CREATE INDEX IF NOT EXISTS annotations_teacher_book ON annotations (teacher_id, book_id, page)",
    ],
  },
  {
    id: 2,
    description:
      "Annotations remember the client id they were made under (issue 45, docs/decisions/0051): the same id sent again answers the first one",
    statements: [
      "ALTER TABLE annotations ADD COLUMN client_id TEXT",
      // Per teacher: another teacher's id is never looked at, and one teacher cannot make two under one id.
      "CREATE UNIQUE INDEX annotations_client_id ON annotations (teacher_id, client_id) WHERE client_id IS NOT NULL",
    ],
  },
  {
    id: 3,
    description:
      "Offline loans (issue 45, docs/decisions/0050): a book one session keeps offline, its key and the seat it holds; and the pages read offline, once per loan, page and day",
    statements: [
      // key: base64 of 32 random bytes, wiped (NULL) when the loan ends; ended: why (shared/rules/offline.ts LOAN_END_REASONS).
      `CREATE TABLE offline_loans (id TEXT PRIMARY KEY, teacher_id INTEGER NOT NULL, token_hash TEXT NOT NULL, book_id INTEGER NOT NULL,
    key TEXT, page_count INTEGER NOT NULL, until INTEGER NOT NULL, created_at INTEGER NOT NULL, ended TEXT, ended_at INTEGER)`,
      "CREATE INDEX offline_loans_session ON offline_loans (token_hash, book_id)",
      "CREATE INDEX offline_loans_book ON offline_loans (book_id) WHERE ended IS NULL",
      "CREATE INDEX offline_loans_teacher ON offline_loans (teacher_id)",
      `CREATE TABLE offline_reads (loan_id TEXT NOT NULL, page INTEGER NOT NULL, day TEXT NOT NULL, PRIMARY KEY (loan_id, page, day))`,
    ],
  },
];

const RECORD = "CREATE TABLE IF NOT EXISTS storage_migrations (id INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)";

/**
 * Runs each migration of `migrations` the object has not recorded, in order, each in a
 * transaction with its record; the ids it ran. An id the object recorded that the list does not
 * hold (the Worker rolled back to older code) is left alone: migrations only add, so older code
 * still works on the newer tables.
 */
export function migrate(storage: DurableObjectStorage, migrations: readonly StorageMigration[] = MIGRATIONS, now = Date.now()): number[] {
  const sql = storage.sql;
  // Read, not made, on every start: the record's table is made with the first migration that runs.
  const recorded = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'storage_migrations'").toArray().length > 0;
  const applied = new Set(
    recorded
      ? sql
          .exec<{ id: number }>("SELECT id FROM storage_migrations")
          .toArray()
          .map((row) => row.id)
      : [],
  );
  const newest = Math.max(0, ...applied);
  const ran: number[] = [];
  let previous = 0;
  for (const migration of migrations) {
    if (!Number.isInteger(migration.id) || migration.id <= previous)
      throw new Error(`School object migration ${migration.id} is out of order: ids are 1, 2, 3, ... in the order they run`);
    previous = migration.id;
    if (applied.has(migration.id)) continue;
    // A migration slipped in below one that already ran would run after it: add the next number instead.
    if (migration.id < newest) throw new Error(`School object migration ${migration.id} is older than ${newest}, which already ran`);
    storage.transactionSync(() => {
      for (const statement of migration.statements) sql.exec(statement);
      sql.exec(RECORD);
      sql.exec("INSERT INTO storage_migrations (id, applied_at) VALUES (?, ?)", migration.id, now);
    });
    ran.push(migration.id);
  }
  return ran;
}

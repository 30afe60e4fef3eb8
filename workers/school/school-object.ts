/**
 * One school's hot state, in a Durable Object of its own (docs/decisions/0024): its teachers'
 * sessions, their reading budgets, and the usage they make until it is flushed to D1. A teacher's
 * page view is one call here (`readPage`): the session is checked, a page of the budget spent and
 * the page counted in one single-threaded step, with no D1 statement and no await between them.
 *
 * Everything lives in the object's own SQLite storage. Usage and reading progress leave in batches: an alarm flushes it
 * FLUSH_INTERVAL_MS after the first unflushed event, and the reports flush a school on demand. A
 * flush is one D1 statement carrying a sequence number that D1 applies once (migration 0010), so a
 * retried alarm, or a flush whose answer was lost, never counts twice.
 *
 * Each method takes the school's id first: the object learns it on its first call and, that once,
 * moves the school's sessions, budgets and today's reading marks over from D1 (`importFromD1`).
 */
import { DurableObject } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { ENDED_SESSION_KEPT_MS, SESSION_LIFETIME } from "../auth/sessions.ts";
import { getDb, runTransaction } from "../db/client.ts";
import { pageBudget } from "../reading/page-budget.ts";
import { READING_GAP_CAP_MS, utcDay } from "../reading/usage-events.ts";
import {
  ANNOTATIONS_INDEX,
  ANNOTATIONS_TABLE,
  type Annotation,
  type AnnotationPatch,
  addAnnotation,
  deleteAnnotation,
  highlightedPages,
  listAnnotations,
  type NewAnnotation,
  updateAnnotation,
} from "./annotations.ts";
import { flushStatement, type ProgressRow, type SeatDayRow, seatDayStatement, type UsageRow } from "./usage-flush.ts";

/** How long usage waits in the object before the alarm sends it to D1. */
export const FLUSH_INTERVAL_MS = 5 * 60_000;
/** At most this many rows go in one flush statement; a bigger backlog takes several. */
const FLUSH_ROWS = 2_000;
// Writing last-seen on every request would be a storage write per page view; five minutes is enough for idle expiry.
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export interface SessionTeacher {
  id: number;
  name: string;
  email: string;
}

export type SessionCheck = { status: "ok"; teacher: SessionTeacher } | { status: "disabled" } | { status: "none" };
export type PageCheck =
  | { status: "ok"; teacher: SessionTeacher; catalogueVersion: number }
  | { status: "disabled" }
  | { status: "none" }
  | { status: "limit"; waitMs: number }
  /** Every seat of the book is held by other teachers (the licence's limit): nothing spent. */
  | { status: "no-seat"; seats: number }
  /** The book was read under an older catalogue version of the school: nothing spent, read it again. */
  | { status: "stale"; catalogueVersion: number };

export interface SessionRow {
  tokenHash: string;
  device: string | null;
  createdAt: number;
  lastSeenAt: number;
}

export interface ReadingEventInput {
  teacherId: number;
  bookId: number;
  /** 1 for a page image read, 0 for a book opened or a reader's ping. */
  pages: 0 | 1;
  now?: number;
}

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
  // Each teacher's bookmarks, highlights and notes (docs/decisions/0032): workers/school/annotations.ts.
  ANNOTATIONS_TABLE,
  ANNOTATIONS_INDEX,
];

/**
 * What an annotation call answers: the value, the session's refusal, the budget's, the seat limit's
 * (every seat held by others), a full book, or no such annotation.
 */
export type AnnotationAnswer<Value> =
  | { status: "ok"; value: Value }
  | { status: "none" }
  | { status: "disabled" }
  | { status: "limit"; waitMs: number }
  | { status: "no-seat"; seats: number }
  | { status: "full" }
  | { status: "not-found" }
  | { status: "invalid"; error: string };

/** Why a list's highlights came without their words: the budget is spent, or every seat is held by others. */
export type Withheld = { reason: "limit"; waitMs: number } | { reason: "no-seat"; seats: number };

/** An annotation as a change answers it: without a highlight's words (the client has them; reading them costs pages). */
export type ChangedAnnotation = Omit<Annotation, "text">;

/** A teacher holding a seat of a book: since their last page of it (lastAt), for SEAT_HOLD_MS. */
export type SeatHolder = {
  bookId: number;
  teacherId: number;
  name: string;
  email: string;
  lastAt: number;
};

/**
 * A teacher holds a seat of a book while they have read a page of it in the last 10 minutes, until
 * they close it, or until their last session ends (or an admin or coordinator frees it).
 */
export const SEAT_HOLD_MS = 10 * 60_000;

/** What the object needs of the Worker's bindings: D1, to move state in and flush usage out. */
type SchoolEnv = { DB: D1Database };

export class School extends DurableObject<SchoolEnv> {
  private readonly sql: SqlStorage;
  private schoolId: number | null = null;
  private alarmSet: boolean | null = null;
  private flushing: Promise<number> | null = null;

  constructor(ctx: DurableObjectState, env: SchoolEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // An object that has never served its school has no tables yet (and writes none until it does).
    const started = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
    this.schoolId = started ? this.meta("school_id") : null;
    // Tables added since the object began (every statement is IF NOT EXISTS).
    if (started) this.createSchema();
  }

  private createSchema() {
    for (const statement of SCHEMA) this.sql.exec(statement);
  }

  private meta(key: string): number | null {
    const [row] = this.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray();
    return row?.value ?? null;
  }

  private setMeta(key: string, value: number) {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /**
   * The school this object is; on the first call ever, what D1 held of its hot state moves in.
   * False for a school D1 does not have (a made-up cookie, a deleted school): the object then
   * writes nothing, so no request can make an object that stays.
   */
  private async ready(schoolId: number): Promise<boolean> {
    if (this.schoolId === schoolId) return true;
    if (this.schoolId !== null) throw new Error(`School object ${this.schoolId} was called as school ${schoolId}`);
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.schoolId !== null) return this.schoolId === schoolId;
      const found = await this.readFromD1(schoolId);
      if (!found) return false;
      this.createSchema();
      this.ctx.storage.transactionSync(() => {
        this.moveIn(found);
        this.setMeta("school_id", schoolId);
      });
      this.schoolId = schoolId;
      return true;
    });
  }

  /**
   * What D1 holds of the school's hot state, from the previous design: teacher sessions, page
   * budgets, disabled teachers and today's reading marks (one batch, once per school); null when
   * D1 has no such school. Sessions and budgets stay in D1 unread (a session's row still tells an
   * old cookie which school it belongs to) until the sweeps take them.
   */
  private async readFromD1(schoolId: number) {
    const db = getDb(this.env.DB);
    const now = Date.now();
    // One round trip: four reads in one batch.
    const results = await runTransaction(db, [
      sql`
        SELECT s.token_hash AS tokenHash, s.teacher_id AS teacherId, s.device, s.created_at AS createdAt,
          s.last_seen_at AS lastSeenAt, s.expires_at AS expiresAt, t.disabled, t.name, t.email
        FROM sessions s JOIN teachers t ON t.id = s.teacher_id
        WHERE s.kind = 'teacher' AND t.school_id = ${schoolId} AND s.expires_at > ${now - ENDED_SESSION_KEPT_MS}`,
      sql`
        SELECT r.key, r.count, r.window_start AS windowStart FROM rate_limits r
        WHERE r.key >= 'pages:' AND r.key < 'pages;' AND r.window_start > ${now - 24 * 3600_000}
          AND CAST(substr(r.key, 9, instr(substr(r.key, 9), ':') - 1) AS INTEGER) IN (SELECT id FROM teachers WHERE school_id = ${schoolId})`,
      sql`
        SELECT day, teacher_id AS teacherId, book_id AS bookId, coalesce(last_at, 0) AS lastAt FROM reading_daily
        WHERE school_id = ${schoolId} AND day >= ${utcDay(now - 24 * 3600_000)}`,
      sql`SELECT id, name, email FROM teachers WHERE school_id = ${schoolId} AND disabled = 1`,
      sql`SELECT id FROM schools WHERE id = ${schoolId}`,
    ]);
    const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
    const sessions = rows<{
      tokenHash: string;
      teacherId: number;
      device: string | null;
      createdAt: number;
      lastSeenAt: number;
      expiresAt: number;
      disabled: number;
      name: string;
      email: string;
    }>(0);
    const budgets = rows<{ key: string; count: number; windowStart: number }>(1);
    const days = rows<{ day: string; teacherId: number; bookId: number; lastAt: number }>(2);
    const disabled = rows<{ id: number; name: string; email: string }>(3);
    return rows(4).length ? { sessions, budgets, days, disabled } : null;
  }

  /** Keeps what readFromD1 found (inside the caller's transaction). */
  private moveIn({ sessions, budgets, days, disabled }: NonNullable<Awaited<ReturnType<School["readFromD1"]>>>) {
    for (const s of sessions) {
      this.saveTeacher({ id: s.teacherId, name: s.name, email: s.email });
      this.sql.exec(
        `INSERT OR IGNORE INTO sessions (token_hash, teacher_id, device, created_at, last_seen_at, expires_at, ended)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        s.tokenHash,
        s.teacherId,
        s.device,
        s.createdAt,
        s.lastSeenAt,
        s.expiresAt,
        s.disabled ? "disabled" : null,
      );
    }
    for (const b of budgets) {
      const [, window, teacherId, bookId] = b.key.split(":");
      if ((window !== "h" && window !== "d") || !teacherId || !bookId) continue;
      this.sql.exec(
        "INSERT OR REPLACE INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, ?, ?, ?, ?)",
        Number(teacherId),
        Number(bookId),
        window,
        b.count,
        b.windowStart,
      );
    }
    for (const d of days) {
      this.sql.exec(
        "INSERT OR REPLACE INTO reading_days (day, teacher_id, book_id, last_at) VALUES (?, ?, ?, ?)",
        d.day,
        d.teacherId,
        d.bookId,
        d.lastAt,
      );
    }
    for (const t of disabled) {
      this.saveTeacher(t);
      this.sql.exec("UPDATE teachers SET disabled = 1 WHERE id = ?", t.id);
    }
  }

  private saveTeacher(teacher: SessionTeacher) {
    this.sql.exec(
      "INSERT INTO teachers (id, name, email) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email",
      teacher.id,
      teacher.name,
      teacher.email,
    );
  }

  // ---- Sessions ----------------------------------------------------------------------------

  /**
   * Signs a teacher in: a new session, and the teacher's oldest beyond the school's session limit
   * ended. A teacher an admin disabled gets none (D1 said otherwise only if the disable is half done).
   */
  async openSession(
    schoolId: number,
    input: { tokenHash: string; teacher: SessionTeacher; device: string | null; sessionLimit: number; now?: number },
  ): Promise<{ ok: true } | { ok: false; reason: "disabled" | "no-school" }> {
    if (!(await this.ready(schoolId))) return { ok: false, reason: "no-school" };
    const now = input.now ?? Date.now();
    const [row] = this.sql.exec<{ disabled: number }>("SELECT disabled FROM teachers WHERE id = ?", input.teacher.id).toArray();
    if (row?.disabled) return { ok: false, reason: "disabled" };
    this.ctx.storage.transactionSync(() => {
      this.saveTeacher(input.teacher);
      this.sql.exec(
        `INSERT INTO sessions (token_hash, teacher_id, device, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
        input.tokenHash,
        input.teacher.id,
        input.device,
        now,
        now,
        now + SESSION_LIFETIME.teacher.absoluteMs,
      );
      this.endBeyondLimit(input.teacher.id, input.sessionLimit);
    });
    return { ok: true };
  }

  private endBeyondLimit(teacherId: number, limit: number): number {
    return this.sql.exec(
      `DELETE FROM sessions WHERE teacher_id = ? AND ended IS NULL AND token_hash NOT IN (
        SELECT token_hash FROM sessions WHERE teacher_id = ? AND ended IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
      teacherId,
      teacherId,
      Math.max(limit, 1),
    ).rowsWritten;
  }

  /** The session's teacher when it is live (its last-seen refreshed now and then), else why not. */
  private check(tokenHash: string, now: number): SessionCheck {
    const [row] = this.sql
      .exec<{
        teacherId: number;
        name: string;
        email: string;
        lastSeenAt: number;
        expiresAt: number;
        ended: string | null;
        disabled: number;
      }>(
        `SELECT s.teacher_id AS teacherId, t.name, t.email, s.last_seen_at AS lastSeenAt, s.expires_at AS expiresAt, s.ended, t.disabled
         FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ?`,
        tokenHash,
      )
      .toArray();
    if (!row) return { status: "none" };
    // A session a disable ended tells its teacher why while they are disabled; once enabled it is just ended.
    if (row.disabled) return { status: "disabled" };
    if (row.ended !== null) return { status: "none" };
    if (row.expiresAt <= now || row.lastSeenAt + SESSION_LIFETIME.teacher.idleMs <= now) {
      this.sql.exec("DELETE FROM sessions WHERE token_hash = ?", tokenHash);
      return { status: "none" };
    }
    if (now - row.lastSeenAt > LAST_SEEN_RESOLUTION_MS) {
      this.sql.exec("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", now, tokenHash);
    }
    return { status: "ok", teacher: { id: row.teacherId, name: row.name, email: row.email } };
  }

  async checkSession(schoolId: number, tokenHash: string, now = Date.now()): Promise<SessionCheck> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return this.check(tokenHash, now);
  }

  /** Ends one session (sign-out, or a device revoked); true when it was live. The teacher's last one frees their seats. */
  async endSession(schoolId: number, tokenHash: string, teacherId?: number): Promise<boolean> {
    if (!(await this.ready(schoolId))) return false;
    const [ended] = (
      teacherId === undefined
        ? this.sql.exec<{ teacherId: number }>(
            "DELETE FROM sessions WHERE token_hash = ? AND ended IS NULL RETURNING teacher_id AS teacherId",
            tokenHash,
          )
        : this.sql.exec<{ teacherId: number }>(
            "DELETE FROM sessions WHERE token_hash = ? AND teacher_id = ? AND ended IS NULL RETURNING teacher_id AS teacherId",
            tokenHash,
            teacherId,
          )
    ).toArray();
    if (ended) this.freeSeatsOfSignedOut(ended.teacherId, Date.now());
    return ended !== undefined;
  }

  /** Signs a teacher out everywhere, except (optionally) one session; how many ended. No session left frees their seats. */
  async endTeacherSessions(schoolId: number, teacherId: number, keepTokenHash?: string): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    const ended = this.sql.exec(
      "DELETE FROM sessions WHERE teacher_id = ? AND ended IS NULL AND token_hash != ?",
      teacherId,
      keepTokenHash ?? "",
    ).rowsWritten;
    this.freeSeatsOfSignedOut(teacherId, Date.now());
    return ended;
  }

  /**
   * A teacher with no live session left holds no seat: whoever signs out, is signed out or is
   * disabled gives their seats back at once rather than SEAT_HOLD_MS later (issue 41).
   */
  private freeSeatsOfSignedOut(teacherId: number, now: number) {
    this.sql.exec(
      `DELETE FROM seats WHERE teacher_id = ?1 AND NOT EXISTS (SELECT 1 FROM sessions
         WHERE teacher_id = ?1 AND ended IS NULL AND expires_at > ?2 AND last_seen_at > ?3)`,
      teacherId,
      now,
      now - SESSION_LIFETIME.teacher.idleMs,
    );
  }

  /** A teacher's live sessions, latest seen first. */
  async listSessions(schoolId: number, teacherId: number, now = Date.now()): Promise<SessionRow[]> {
    if (!(await this.ready(schoolId))) return [];
    return this.sql
      .exec<{ tokenHash: string; device: string | null; createdAt: number; lastSeenAt: number }>(
        `SELECT token_hash AS tokenHash, device, created_at AS createdAt, last_seen_at AS lastSeenAt FROM sessions
         WHERE teacher_id = ? AND ended IS NULL AND expires_at > ? AND last_seen_at > ?
         ORDER BY last_seen_at DESC, created_at DESC`,
        teacherId,
        now,
        now - SESSION_LIFETIME.teacher.idleMs,
      )
      .toArray();
  }

  /** How many live sessions each of these teachers has (the teacher list's column). */
  async sessionCounts(schoolId: number, teacherIds: number[], now = Date.now()): Promise<Record<number, number>> {
    if (!(await this.ready(schoolId))) return {};
    const counts: Record<number, number> = {};
    if (teacherIds.length === 0) return counts;
    const rows = this.sql
      .exec<{ teacherId: number; n: number }>(
        `SELECT teacher_id AS teacherId, count(*) AS n FROM sessions
         WHERE ended IS NULL AND expires_at > ? AND last_seen_at > ? AND teacher_id IN (SELECT value FROM json_each(?))
         GROUP BY teacher_id`,
        now,
        now - SESSION_LIFETIME.teacher.idleMs,
        JSON.stringify(teacherIds),
      )
      .toArray();
    for (const row of rows) counts[row.teacherId] = row.n;
    return counts;
  }

  /**
   * An admin disables (or enables) a teacher. Disabling ends their sessions but keeps them a while
   * marked 'disabled', so a teacher coming back is told why; the object refuses them new sessions
   * until enabled again. Returns how many live sessions ended.
   */
  async setTeacherDisabled(schoolId: number, teacher: SessionTeacher, disabled: boolean, now = Date.now()): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    let ended = 0;
    this.ctx.storage.transactionSync(() => {
      this.saveTeacher(teacher);
      this.sql.exec("UPDATE teachers SET disabled = ? WHERE id = ?", disabled ? 1 : 0, teacher.id);
      if (disabled) {
        ended = this.sql.exec(
          "UPDATE sessions SET ended = 'disabled', expires_at = min(expires_at, ?) WHERE teacher_id = ? AND ended IS NULL",
          now,
          teacher.id,
        ).rowsWritten;
        this.sql.exec("DELETE FROM seats WHERE teacher_id = ?", teacher.id);
      }
    });
    return ended;
  }

  /** A teacher's name or address changed: the watermark and the account menu show the new one. */
  async updateTeacher(schoolId: number, teacher: SessionTeacher): Promise<void> {
    if (!(await this.ready(schoolId))) return;
    this.sql.exec("UPDATE teachers SET name = ?, email = ? WHERE id = ?", teacher.name, teacher.email, teacher.id);
  }

  /** A teacher deleted: their sessions and budgets go; their unflushed usage still counts for the school. */
  async removeTeacher(schoolId: number, teacherId: number): Promise<void> {
    if (!(await this.ready(schoolId))) return;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM sessions WHERE teacher_id = ?", teacherId);
      this.sql.exec("DELETE FROM seats WHERE teacher_id = ?", teacherId);
      this.sql.exec("DELETE FROM budgets WHERE teacher_id = ?", teacherId);
      this.sql.exec("DELETE FROM annotations WHERE teacher_id = ?", teacherId);
      this.sql.exec("DELETE FROM teachers WHERE id = ?", teacherId);
    });
  }

  /** The school's session limit changed: every teacher's oldest sessions beyond it end. */
  async setSessionLimit(schoolId: number, limit: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    let ended = 0;
    this.ctx.storage.transactionSync(() => {
      const teachers = this.sql.exec<{ id: number }>("SELECT DISTINCT teacher_id AS id FROM sessions WHERE ended IS NULL").toArray();
      for (const { id } of teachers) ended += this.endBeyondLimit(id, limit);
    });
    return ended;
  }

  // ---- Reading: budgets and usage -----------------------------------------------------------

  /**
   * A teacher's page view, in one step: the session checked, a page of the teacher's budget for
   * the book spent (both windows or neither), and, when `countsAsRead`, the page counted.
   */
  async readPage(
    schoolId: number,
    input: {
      tokenHash: string;
      bookId: number;
      pageCount: number;
      countsAsRead: boolean;
      catalogueVersion?: number;
      /** The licence's seat limit (null or absent: none). */
      seats?: number | null;
      now?: number;
    },
  ): Promise<PageCheck> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    const now = input.now ?? Date.now();
    const session = this.check(input.tokenHash, now);
    if (session.status !== "ok") return session;
    const catalogueVersion = this.meta("catalogue_version") ?? 0;
    // The Worker's memory of the book predates an admin's change to this school's books.
    if (input.catalogueVersion !== undefined && input.catalogueVersion !== catalogueVersion) return { status: "stale", catalogueVersion };
    const refused = this.seatAndSpend(session.teacher.id, input.bookId, input.pageCount, input.seats ?? null, now);
    if (refused) return refused;
    if (input.countsAsRead) this.count({ teacherId: session.teacher.id, bookId: input.bookId, pages: 1 }, now);
    return { ...session, catalogueVersion };
  }

  /**
   * What reading the book's words costs, a page's view or a highlight's (docs/decisions/0028, 0032):
   * a seat when the licence limits them, and `cost` pages of the budget. A refusal costs nothing:
   * the seat is looked at first, and taken only once the budget allows the read.
   */
  private seatAndSpend(
    teacherId: number,
    bookId: number,
    pageCount: number,
    seats: number | null,
    now: number,
    cost = 1,
  ): { status: "no-seat"; seats: number } | { status: "limit"; waitMs: number } | null {
    if (seats !== null && !this.seatFree(teacherId, bookId, seats, now)) {
      this.turnedAway(teacherId, bookId, now);
      return { status: "no-seat", seats };
    }
    const waitMs = this.spend(teacherId, bookId, pageCount, now, cost);
    if (waitMs !== null) return { status: "limit", waitMs };
    this.takeSeat(teacherId, bookId, now);
    return null;
  }

  /** Whether the teacher holds a seat of the book or one is free; seats left idle past SEAT_HOLD_MS are given back first. */
  private seatFree(teacherId: number, bookId: number, seats: number, now: number): boolean {
    this.sql.exec("DELETE FROM seats WHERE book_id = ? AND last_at < ?", bookId, now - SEAT_HOLD_MS);
    const holders = this.sql.exec<{ teacherId: number }>("SELECT teacher_id AS teacherId FROM seats WHERE book_id = ?", bookId).toArray();
    return holders.some((row) => row.teacherId === teacherId) || holders.length < seats;
  }

  /**
   * The teacher reads the book now: they hold a seat of it (every book, limited or not, so the
   * reports show how many read at once), and the day's peak rises when they are one more.
   */
  private takeSeat(teacherId: number, bookId: number, now: number) {
    this.sql.exec("DELETE FROM seats WHERE book_id = ? AND last_at < ?", bookId, now - SEAT_HOLD_MS);
    this.sql.exec("INSERT OR REPLACE INTO seats (book_id, teacher_id, last_at) VALUES (?, ?, ?)", bookId, teacherId, now);
    const changed = this.sql.exec(
      `INSERT INTO seat_days (day, book_id, peak) VALUES (?1, ?2, (SELECT count(*) FROM seats WHERE book_id = ?2))
       ON CONFLICT (day, book_id) DO UPDATE SET peak = excluded.peak, dirty = 1 WHERE excluded.peak > peak`,
      utcDay(now),
      bookId,
    ).rowsWritten;
    if (changed) this.scheduleFlush(now);
  }

  /** No seat was free: counted once per teacher, book and day (the publisher's sign that the school needs more). */
  private turnedAway(teacherId: number, bookId: number, now: number) {
    const day = utcDay(now);
    const first = this.sql.exec(
      "INSERT OR IGNORE INTO seat_refusals (day, book_id, teacher_id) VALUES (?, ?, ?)",
      day,
      bookId,
      teacherId,
    ).rowsWritten;
    if (!first) return;
    this.sql.exec(
      `INSERT INTO seat_days (day, book_id, peak, turned_away) VALUES (?1, ?2, (SELECT count(*) FROM seats WHERE book_id = ?2), 1)
       ON CONFLICT (day, book_id) DO UPDATE SET turned_away = turned_away + 1, peak = max(peak, excluded.peak), dirty = 1`,
      day,
      bookId,
    );
    this.scheduleFlush(now);
  }

  /** The teacher closed the book: their seat, if they held one, is free for the next. */
  async releaseSeat(schoolId: number, input: { tokenHash: string; bookId: number; now?: number }): Promise<"ok" | "none" | "disabled"> {
    if (!(await this.ready(schoolId))) return "none";
    const session = this.check(input.tokenHash, input.now ?? Date.now());
    if (session.status !== "ok") return session.status;
    this.sql.exec("DELETE FROM seats WHERE book_id = ? AND teacher_id = ?", input.bookId, session.teacher.id);
    return "ok";
  }

  /**
   * Who holds a seat of a book now (the admin's school page and the coordinator's My school): every
   * book the school reads, limited or not; the caller keeps the ones it shows. Latest read first.
   */
  async seatHolders(schoolId: number, now = Date.now()): Promise<SeatHolder[]> {
    if (!(await this.ready(schoolId))) return [];
    return this.sql
      .exec<SeatHolder>(
        `SELECT s.book_id AS bookId, s.teacher_id AS teacherId, t.name, t.email, s.last_at AS lastAt
         FROM seats s JOIN teachers t ON t.id = s.teacher_id WHERE s.last_at >= ? ORDER BY s.last_at DESC, s.teacher_id`,
        now - SEAT_HOLD_MS,
      )
      .toArray();
  }

  /** An admin or coordinator frees a teacher's seat of a book for the next reader; true when they held it. */
  async freeSeat(schoolId: number, input: { bookId: number; teacherId: number; now?: number }): Promise<boolean> {
    if (!(await this.ready(schoolId))) return false;
    const now = input.now ?? Date.now();
    return (
      this.sql.exec(
        "DELETE FROM seats WHERE book_id = ? AND teacher_id = ? AND last_at >= ?",
        input.bookId,
        input.teacherId,
        now - SEAT_HOLD_MS,
      ).rowsWritten > 0
    );
  }

  /** How many teachers hold a seat of the book now (for the tests and the reports). */
  async seatsHeld(schoolId: number, bookId: number, now = Date.now()): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    const [row] = this.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM seats WHERE book_id = ? AND last_at >= ?", bookId, now - SEAT_HOLD_MS)
      .toArray();
    return row?.n ?? 0;
  }

  /**
   * An admin took a book from the school: what Workers remember of the school's books is stale
   * (workers/reading/page-view-cache.ts). Returns the new version.
   */
  async catalogueChanged(schoolId: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    const version = (this.meta("catalogue_version") ?? 0) + 1;
    this.setMeta("catalogue_version", version);
    return version;
  }

  /** Spends `cost` pages (one by default) of the hour's and the day's budget; the wait when either would be overspent. */
  private spend(teacherId: number, bookId: number, pageCount: number, now: number, cost = 1): number | null {
    const budget = pageBudget(pageCount);
    const windows = [
      { name: "h", ...budget.hour },
      { name: "d", ...budget.day },
    ];
    let waitMs = 0;
    const current = windows.map((window) => {
      const [row] = this.sql
        .exec<{ count: number; windowStart: number }>(
          "SELECT count, window_start AS windowStart FROM budgets WHERE teacher_id = ? AND book_id = ? AND window = ?",
          teacherId,
          bookId,
          window.name,
        )
        .toArray();
      const open = row && row.windowStart > now - window.windowMs;
      const count = open ? row.count : 0;
      const windowStart = open ? row.windowStart : now;
      if (count + cost > window.limit) waitMs = Math.max(waitMs, windowStart + window.windowMs - now, 1000);
      return { ...window, count, windowStart };
    });
    if (waitMs > 0) return waitMs;
    for (const window of current) {
      this.sql.exec(
        "INSERT OR REPLACE INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, ?, ?, ?, ?)",
        teacherId,
        bookId,
        window.name,
        window.count + cost,
        window.windowStart,
      );
    }
    return null;
  }

  // ---- Annotations (docs/decisions/0032) ---------------------------------------------------

  /**
   * The teacher's annotations of the book. Their highlights' text is read back as the pages it is
   * on would be (a highlight must not copy more of the book than reading it would): one page of the
   * budget for each highlighted page, and a seat of a book with a seat limit (taken when free).
   * Else the text is withheld (null) and `withheld` says why; bookmarks and notes are the teacher's
   * own words and always listed.
   */
  async annotations(
    schoolId: number,
    input: { tokenHash: string; bookId: number; pageCount: number; seats?: number | null; now?: number },
  ): Promise<AnnotationAnswer<{ annotations: Annotation[]; withheld: Withheld | null }>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    const now = input.now ?? Date.now();
    const session = this.check(input.tokenHash, now);
    if (session.status !== "ok") return session;
    const teacherId = session.teacher.id;
    const cost = highlightedPages(this.sql, teacherId, input.bookId);
    const refused = cost > 0 ? this.seatAndSpend(teacherId, input.bookId, input.pageCount, input.seats ?? null, now, cost) : null;
    const withheld: Withheld | null =
      refused === null
        ? null
        : refused.status === "limit"
          ? { reason: "limit", waitMs: refused.waitMs }
          : { reason: "no-seat", seats: refused.seats };
    const annotations = listAnnotations(this.sql, teacherId, input.bookId);
    return {
      status: "ok",
      value: { annotations: withheld === null ? annotations : annotations.map((a) => ({ ...a, text: null })), withheld },
    };
  }

  /**
   * Keeps a new annotation; a highlight (whose text the answer carries) is a read of its page: a
   * seat of a book with a seat limit, and a page of the budget.
   */
  async annotate(
    schoolId: number,
    input: { tokenHash: string; bookId: number; pageCount: number; seats?: number | null; annotation: NewAnnotation; now?: number },
  ): Promise<AnnotationAnswer<Annotation>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    const now = input.now ?? Date.now();
    const session = this.check(input.tokenHash, now);
    if (session.status !== "ok") return session;
    const teacherId = session.teacher.id;
    return this.ctx.storage.transactionSync((): AnnotationAnswer<Annotation> => {
      if (input.annotation.kind === "highlight") {
        const refused = this.seatAndSpend(teacherId, input.bookId, input.pageCount, input.seats ?? null, now);
        if (refused) return refused;
      }
      const added = addAnnotation(this.sql, teacherId, input.bookId, input.annotation, now);
      return added ? { status: "ok", value: added } : { status: "full" };
    });
  }

  /**
   * Changes the teacher's own annotation (another's, or none: not-found). The answer leaves out a
   * highlight's words: a change costs nothing, so it must not be a way to read them back.
   */
  async editAnnotation(
    schoolId: number,
    input: { tokenHash: string; bookId: number; id: number; patch: AnnotationPatch; now?: number },
  ): Promise<AnnotationAnswer<ChangedAnnotation>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    const now = input.now ?? Date.now();
    const session = this.check(input.tokenHash, now);
    if (session.status !== "ok") return session;
    const updated = updateAnnotation(this.sql, session.teacher.id, input.bookId, input.id, input.patch, now);
    if (!updated) return { status: "not-found" };
    if ("error" in updated) return { status: "invalid", error: updated.error };
    const { text: _text, ...changed } = updated;
    return { status: "ok", value: changed };
  }

  /** Deletes the teacher's own annotation (another's, or none: not-found). */
  async removeAnnotation(
    schoolId: number,
    input: { tokenHash: string; bookId: number; id: number; now?: number },
  ): Promise<AnnotationAnswer<null>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    const session = this.check(input.tokenHash, input.now ?? Date.now());
    if (session.status !== "ok") return session;
    return deleteAnnotation(this.sql, session.teacher.id, input.bookId, input.id) ? { status: "ok", value: null } : { status: "not-found" };
  }

  /**
   * The page a teacher settled on in a book (the reader saves it, and pings with it while they
   * read): kept here until the next flush writes it to D1, and counted as reading time.
   */
  async saveProgress(schoolId: number, input: { teacherId: number; bookId: number; page: number; now?: number }): Promise<void> {
    if (!(await this.ready(schoolId))) return;
    const now = input.now ?? Date.now();
    this.sql.exec(
      `INSERT INTO progress (seq, teacher_id, book_id, page, updated_at) VALUES (0, ?, ?, ?, ?)
       ON CONFLICT (seq, teacher_id, book_id) DO UPDATE SET page = excluded.page, updated_at = excluded.updated_at`,
      input.teacherId,
      input.bookId,
      input.page,
      now,
    );
    this.count({ teacherId: input.teacherId, bookId: input.bookId, pages: 0 }, now);
  }

  /** A teacher's progress not yet in D1 (newer than D1's), per book: the reader's resume and the dashboard read it first. */
  async unflushedProgress(schoolId: number, teacherId: number): Promise<{ bookId: number; page: number; updatedAt: number }[]> {
    if (!(await this.ready(schoolId))) return [];
    return this.sql
      .exec<{ bookId: number; page: number; updatedAt: number }>(
        `SELECT book_id AS bookId, page, max(updated_at) AS updatedAt FROM progress WHERE teacher_id = ? GROUP BY book_id`,
        teacherId,
      )
      .toArray();
  }

  /**
   * The dashboard's one call: the teacher's unflushed progress and the school's catalogue version,
   * under which the school's shelf is kept (workers/reading/shelf-cache.ts).
   */
  async dashboardState(
    schoolId: number,
    teacherId: number,
  ): Promise<{ unflushed: { bookId: number; page: number; updatedAt: number }[]; catalogueVersion: number }> {
    const unflushed = await this.unflushedProgress(schoolId, teacherId);
    return { unflushed, catalogueVersion: this.meta("catalogue_version") ?? 0 };
  }

  /** A book opened or a reader's ping (reading time, no page): counted for the next flush. */
  async record(schoolId: number, event: ReadingEventInput): Promise<void> {
    if (!(await this.ready(schoolId))) return;
    this.count(event, event.now ?? Date.now());
  }

  /**
   * Adds one event to the unflushed usage, as the previous design added it to D1's rollups: the
   * reading time is the gap since the teacher's previous event that day in any book, capped at
   * READING_GAP_CAP_MS; the day's first event of a teacher (of a teacher and book) marks them active
   * (the book opened).
   */
  private count(event: Omit<ReadingEventInput, "now">, now: number) {
    const day = utcDay(now);
    const { teacherId, bookId, pages } = event;
    const [last] = this.sql
      .exec<{ lastAt: number | null; thisBook: number }>(
        "SELECT max(last_at) AS lastAt, max(book_id = ?) AS thisBook FROM reading_days WHERE day = ? AND teacher_id = ?",
        bookId,
        day,
        teacherId,
      )
      .toArray();
    const lastAt = last?.lastAt ?? null;
    const newTeacher = lastAt === null ? 1 : 0;
    const newBook = last?.thisBook ? 0 : 1;
    const gapMs = lastAt === null ? 0 : Math.min(Math.max(now - lastAt, 0), READING_GAP_CAP_MS);
    const seconds = Math.floor((gapMs + 500) / 1000);
    this.sql.exec(
      `INSERT INTO reading_days (day, teacher_id, book_id, last_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (day, teacher_id, book_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)`,
      day,
      teacherId,
      bookId,
      now,
    );
    this.sql.exec(
      `INSERT INTO pending (seq, day, book_id, teacher_id, pages, seconds, last_at, new_teacher, new_book)
       VALUES (0, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (seq, day, book_id, teacher_id) DO UPDATE SET pages = pages + excluded.pages,
         seconds = seconds + excluded.seconds, last_at = max(last_at, excluded.last_at),
         new_teacher = new_teacher + excluded.new_teacher, new_book = new_book + excluded.new_book`,
      day,
      bookId,
      teacherId,
      pages,
      seconds,
      now,
      newTeacher,
      newBook,
    );
    this.scheduleFlush(now);
  }

  private scheduleFlush(now: number) {
    if (this.alarmSet) return;
    this.alarmSet = true;
    // The alarm is set once per batch: the next flush is at most FLUSH_INTERVAL_MS after this event.
    void this.ctx.storage.getAlarm().then((at) => {
      if (at === null) return this.ctx.storage.setAlarm(now + FLUSH_INTERVAL_MS);
    });
  }

  // ---- Flushing usage to D1 -----------------------------------------------------------------

  /** Sends the unflushed usage to D1 now (the reports and the tests); how many rows went. */
  async flush(schoolId: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return this.flushAll();
  }

  private async flushAll(): Promise<number> {
    // One flush at a time: an alarm and a report's flush arriving together wait for each other.
    while (this.flushing) await this.flushing.catch(() => {});
    this.flushing = this.flushBatches();
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async flushBatches(): Promise<number> {
    const schoolId = this.schoolId;
    if (schoolId === null) return 0;
    let sent = 0;
    for (;;) {
      const seq = this.claimBatch();
      if (seq === null) break;
      const rows = this.sql
        .exec<UsageRow>(
          `SELECT day, book_id AS bookId, teacher_id AS teacherId, pages, seconds, last_at AS lastAt,
             min(new_teacher, 1) AS newTeacher, min(new_book, 1) AS newBook FROM pending WHERE seq = ?`,
          seq,
        )
        .toArray();
      const progress = this.sql
        .exec<ProgressRow>(
          "SELECT teacher_id AS teacherId, book_id AS bookId, page, updated_at AS updatedAt FROM progress WHERE seq = ?",
          seq,
        )
        .toArray();
      // The seat figures ride along: one statement a batch (decision 24), not a second for seat_daily.
      const seatDays = this.dirtySeatDays();
      // D1 applies a sequence number once, so resending a batch whose answer was lost is harmless.
      await getDb(this.env.DB).run(flushStatement(schoolId, seq, rows, progress, seatDays));
      this.ctx.storage.transactionSync(() => {
        this.sql.exec("DELETE FROM pending WHERE seq = ?", seq);
        this.sql.exec("DELETE FROM progress WHERE seq = ?", seq);
        this.seatDaysSent(seatDays);
      });
      sent += rows.length + progress.length + seatDays.length;
    }
    sent += await this.flushSeatDays(schoolId);
    const yesterday = utcDay(Date.now() - 24 * 3600_000);
    this.sql.exec("DELETE FROM reading_days WHERE day < ?", yesterday);
    this.sql.exec("DELETE FROM seat_days WHERE day < ? AND dirty = 0", yesterday);
    this.sql.exec("DELETE FROM seat_refusals WHERE day < ?", yesterday);
    return sent;
  }

  /**
   * The day figures that changed since the last flush, whole: D1 keeps the higher of its figure
   * and the one sent (the flush statement's trigger), so sending a day twice is harmless.
   */
  private dirtySeatDays(): SeatDayRow[] {
    return this.sql
      .exec<SeatDayRow>("SELECT day, book_id AS bookId, peak, turned_away AS turnedAway FROM seat_days WHERE dirty = 1 LIMIT ?", FLUSH_ROWS)
      .toArray();
  }

  /** D1 has these figures; one that rose while the statement was on its way stays dirty for the next flush. */
  private seatDaysSent(days: SeatDayRow[]) {
    for (const row of days)
      this.sql.exec(
        "UPDATE seat_days SET dirty = 0 WHERE day = ? AND book_id = ? AND peak = ? AND turned_away = ?",
        row.day,
        row.bookId,
        row.peak,
        row.turnedAway,
      );
  }

  /** Seat figures still dirty once no usage waits (a teacher only turned away): sent alone, in one statement. */
  private async flushSeatDays(schoolId: number): Promise<number> {
    const days = this.dirtySeatDays();
    if (!days.length) return 0;
    await getDb(this.env.DB).run(seatDayStatement(schoolId, days));
    this.seatDaysSent(days);
    return days.length;
  }

  /**
   * The batch to send next: one a failed flush left behind (sent again under its own number), or
   * up to FLUSH_ROWS new rows under the next number; null when nothing waits.
   */
  private claimBatch(): number | null {
    const [left] = this.sql
      .exec<{ seq: number | null }>(
        "SELECT min(seq) AS seq FROM (SELECT seq FROM pending WHERE seq > 0 UNION ALL SELECT seq FROM progress WHERE seq > 0)",
      )
      .toArray();
    if (left?.seq) return left.seq;
    const [waiting] = this.sql
      .exec<{ n: number }>("SELECT (SELECT count(*) FROM pending WHERE seq = 0) + (SELECT count(*) FROM progress WHERE seq = 0) AS n")
      .toArray();
    if (!waiting?.n) return null;
    const seq = (this.meta("flush_seq") ?? 0) + 1;
    this.ctx.storage.transactionSync(() => {
      this.setMeta("flush_seq", seq);
      this.sql.exec(
        `UPDATE pending SET seq = ? WHERE seq = 0 AND rowid IN (SELECT rowid FROM pending WHERE seq = 0 LIMIT ?)`,
        seq,
        FLUSH_ROWS,
      );
      this.sql.exec("UPDATE progress SET seq = ? WHERE seq = 0", seq);
    });
    return seq;
  }

  async alarm(): Promise<void> {
    this.alarmSet = false;
    // A throw leaves the batch in place and the runtime retries the alarm; the batch keeps its number.
    await this.flushAll();
    const [waiting] = this.sql
      .exec<{ n: number }>(
        "SELECT (SELECT count(*) FROM pending) + (SELECT count(*) FROM progress) + (SELECT count(*) FROM seat_days WHERE dirty = 1) AS n",
      )
      .toArray();
    if (waiting?.n) {
      this.alarmSet = true;
      await this.ctx.storage.setAlarm(Date.now() + FLUSH_INTERVAL_MS);
    }
    // Ended sessions are kept a while (to tell a disabled teacher why); then they go. So do budgets whose windows ended.
    const now = Date.now();
    this.sql.exec("DELETE FROM sessions WHERE expires_at <= ?", now - ENDED_SESSION_KEPT_MS);
    this.sql.exec("DELETE FROM budgets WHERE window_start <= ?", now - 24 * 3600_000);
    // Seats are given back when their book is next read; a book no one opens again is tidied here.
    this.sql.exec("DELETE FROM seats WHERE last_at < ?", now - SEAT_HOLD_MS);
  }

  /** The school was deleted: everything the object holds goes (usage of a deleted school has nowhere to go). */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.schoolId = null;
    this.alarmSet = null;
    // Nothing is left behind, and a later call (a stale cookie) writes nothing: D1 has no such school.
  }
}

/**
 * One school's hot state, in a Durable Object of its own (docs/decisions/0024): its teachers'
 * sessions, their reading budgets, and the usage they make until it is flushed to D1. A teacher's
 * page view is one call here (`readPage`): the session is checked, a page of the budget spent and
 * the page counted in one single-threaded step, with no D1 statement and no await between them.
 *
 * The class is the object's RPC methods over plain modules, one per concern, each taking its
 * SqlStorage: sessions.ts, seats.ts, reading.ts (budgets), usage.ts, annotation-calls.ts; the
 * tables are in school-storage.ts. Usage and reading progress leave in batches: an alarm flushes
 * them FLUSH_INTERVAL_MS after the first unflushed event, and the reports flush a school on demand.
 * A flush is one D1 statement carrying a sequence number that D1 applies once (migration 0010), so
 * a retried alarm, or a flush whose answer was lost, never counts twice.
 *
 * Each method takes the school's id first: the object learns it on its first call and, that once,
 * moves the school's sessions, budgets and today's reading marks over from D1 (move-in.ts).
 */
import { DurableObject } from "cloudflare:workers";
import { getDb } from "../db/client.ts";
import * as annotating from "./annotation-calls.ts";
import type { Annotation } from "./annotations.ts";
import { moveIn, readHotStateFromD1 } from "./move-in.ts";
import { FLUSH_INTERVAL_MS } from "./policy.ts";
import * as reading from "./reading.ts";
import { catalogueVersion, createSchema, hasStarted, raiseCatalogueVersion, readMeta, writeMeta } from "./school-storage.ts";
import * as seats from "./seats.ts";
import * as sessions from "./sessions.ts";
import * as usage from "./usage.ts";

export type { AnnotationAnswer, Withheld } from "./annotation-calls.ts";
export { SEAT_HOLD_MS } from "./policy.ts";

/** What the object needs of the Worker's bindings: D1, to move state in and flush usage out. */
type SchoolEnv = { DB: D1Database };

/** What most calls may add: the time they happen at (the tests set it; else now). */
type At = { now?: number };

export class School extends DurableObject<SchoolEnv> {
  private readonly sql: SqlStorage;
  private schoolId: number | null = null;
  private alarmSet = false;
  private flushing: Promise<number> | null = null;
  /** A step that left something for the next flush calls this: the alarm is set. */
  private readonly flushSoon = (now: number) => this.scheduleFlush(now);

  constructor(ctx: DurableObjectState, env: SchoolEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // An object that has never served its school has no tables yet (and writes none until it does).
    const started = hasStarted(this.sql);
    this.schoolId = started ? readMeta(this.sql, "school_id") : null;
    // Tables added since the object began (every statement is IF NOT EXISTS).
    if (started) createSchema(this.sql);
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
      const found = await readHotStateFromD1(this.env.DB, schoolId, Date.now());
      if (!found) return false;
      createSchema(this.sql);
      this.transaction(() => {
        moveIn(this.sql, found);
        writeMeta(this.sql, "school_id", schoolId);
      });
      this.schoolId = schoolId;
      return true;
    });
  }

  private transaction<T>(step: () => T): T {
    return this.ctx.storage.transactionSync(step);
  }

  async openSession(
    schoolId: number,
    input: sessions.NewSession & At,
  ): Promise<{ ok: true } | { ok: false; reason: "disabled" | "no-school" }> {
    if (!(await this.ready(schoolId))) return { ok: false, reason: "no-school" };
    return this.transaction(() => sessions.openSession(this.sql, input, input.now ?? Date.now()));
  }

  async checkSession(schoolId: number, tokenHash: string, now = Date.now()): Promise<sessions.SessionCheck> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return sessions.checkSession(this.sql, tokenHash, now);
  }

  async endSession(schoolId: number, tokenHash: string, teacherId?: number): Promise<boolean> {
    if (!(await this.ready(schoolId))) return false;
    return sessions.endSession(this.sql, tokenHash, teacherId, Date.now());
  }

  async endTeacherSessions(schoolId: number, teacherId: number, keepTokenHash?: string): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return sessions.endTeacherSessions(this.sql, teacherId, keepTokenHash, Date.now());
  }

  async listSessions(schoolId: number, teacherId: number, now = Date.now()): Promise<sessions.SessionRow[]> {
    if (!(await this.ready(schoolId))) return [];
    return sessions.listSessions(this.sql, teacherId, now);
  }

  async sessionCounts(schoolId: number, teacherIds: number[], now = Date.now()): Promise<Record<number, number>> {
    if (!(await this.ready(schoolId))) return {};
    return sessions.sessionCounts(this.sql, teacherIds, now);
  }

  async setTeacherDisabled(schoolId: number, teacher: sessions.SessionTeacher, disabled: boolean, now = Date.now()): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return this.transaction(() => sessions.setTeacherDisabled(this.sql, teacher, disabled, now));
  }

  async updateTeacher(schoolId: number, teacher: sessions.SessionTeacher): Promise<void> {
    if (await this.ready(schoolId)) sessions.updateTeacher(this.sql, teacher);
  }

  async removeTeacher(schoolId: number, teacherId: number): Promise<void> {
    if (await this.ready(schoolId)) this.transaction(() => sessions.removeTeacher(this.sql, teacherId));
  }

  async setSessionLimit(schoolId: number, limit: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return this.transaction(() => sessions.setSessionLimit(this.sql, limit));
  }

  async readPage(schoolId: number, input: reading.PageRead & At): Promise<reading.PageCheck> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return reading.readPage(this.sql, input, input.now ?? Date.now(), this.flushSoon);
  }

  async releaseSeat(schoolId: number, input: { tokenHash: string; bookId: number } & At): Promise<"ok" | "none" | "disabled"> {
    if (!(await this.ready(schoolId))) return "none";
    return reading.closeBook(this.sql, input, input.now ?? Date.now());
  }

  async seatHolders(schoolId: number, now = Date.now()): Promise<seats.SeatHolder[]> {
    if (!(await this.ready(schoolId))) return [];
    return seats.seatHolders(this.sql, now);
  }

  async freeSeat(schoolId: number, input: { bookId: number; teacherId: number } & At): Promise<boolean> {
    if (!(await this.ready(schoolId))) return false;
    return seats.freeSeat(this.sql, input.bookId, input.teacherId, input.now ?? Date.now());
  }

  async seatsHeld(schoolId: number, bookId: number, now = Date.now()): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return seats.seatsHeld(this.sql, bookId, now);
  }

  /** An admin took a book from the school: what Workers remember of the school's books is stale. Returns the new version. */
  async catalogueChanged(schoolId: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return raiseCatalogueVersion(this.sql);
  }

  async annotations(schoolId: number, input: annotating.BookRead & At): Promise<annotating.AnnotationAnswer<annotating.AnnotationList>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return annotating.listWithText(this.sql, input, input.now ?? Date.now(), this.flushSoon);
  }

  async annotate(schoolId: number, input: annotating.AddInput & At): Promise<annotating.AnnotationAnswer<Annotation>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return this.transaction(() => annotating.addOne(this.sql, input, input.now ?? Date.now(), this.flushSoon));
  }

  async editAnnotation(
    schoolId: number,
    input: annotating.EditInput & At,
  ): Promise<annotating.AnnotationAnswer<annotating.ChangedAnnotation>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return annotating.editOne(this.sql, input, input.now ?? Date.now());
  }

  async removeAnnotation(schoolId: number, input: annotating.RemoveInput & At): Promise<annotating.AnnotationAnswer<null>> {
    if (!(await this.ready(schoolId))) return { status: "none" };
    return annotating.removeOne(this.sql, input, input.now ?? Date.now());
  }

  /** The page a teacher settled on in a book (saved, and pinged while they read): kept for the next flush, counted as reading time. */
  async saveProgress(schoolId: number, input: { teacherId: number; bookId: number; page: number } & At): Promise<void> {
    if (!(await this.ready(schoolId))) return;
    const now = input.now ?? Date.now();
    usage.saveProgress(this.sql, input, now);
    this.countEvent({ teacherId: input.teacherId, bookId: input.bookId, pages: 0 }, now);
  }

  async unflushedProgress(schoolId: number, teacherId: number): Promise<usage.UnflushedProgress[]> {
    if (!(await this.ready(schoolId))) return [];
    return usage.unflushedProgress(this.sql, teacherId);
  }

  /** The dashboard's one call: the teacher's unflushed progress and the school's catalogue version (workers/reading/shelf-cache.ts). */
  async dashboardState(schoolId: number, teacherId: number): Promise<{ unflushed: usage.UnflushedProgress[]; catalogueVersion: number }> {
    // An object that holds no such school has no tables to read: nothing unflushed, no version.
    if (!(await this.ready(schoolId))) return { unflushed: [], catalogueVersion: 0 };
    return { unflushed: usage.unflushedProgress(this.sql, teacherId), catalogueVersion: catalogueVersion(this.sql) };
  }

  /** A book opened or a reader's ping (reading time, no page): counted for the next flush. */
  async record(schoolId: number, event: usage.ReadingEventInput): Promise<void> {
    if (await this.ready(schoolId)) this.countEvent(event, event.now ?? Date.now());
  }

  private countEvent(event: Omit<usage.ReadingEventInput, "now">, now: number) {
    usage.countEvent(this.sql, event, now);
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

  /** Sends the unflushed usage to D1 now (the reports and the tests); how many rows went. */
  async flush(schoolId: number): Promise<number> {
    if (!(await this.ready(schoolId))) return 0;
    return this.flushAll();
  }

  private async flushAll(): Promise<number> {
    // One flush at a time: an alarm and a report's flush arriving together wait for each other.
    while (this.flushing) await this.flushing.catch(() => {});
    const schoolId = this.schoolId;
    this.flushing = schoolId === null ? Promise.resolve(0) : usage.sendUsage(this.ctx.storage, getDb(this.env.DB), schoolId);
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  async alarm(): Promise<void> {
    this.alarmSet = false;
    // A throw leaves the batch in place and the runtime retries the alarm; the batch keeps its number.
    await this.flushAll();
    if (usage.hasUnflushed(this.sql)) {
      this.alarmSet = true;
      await this.ctx.storage.setAlarm(Date.now() + FLUSH_INTERVAL_MS);
    }
    // What ended or went idle is tidied: ended sessions kept a while, budgets past their windows, seats no one read lately.
    const now = Date.now();
    sessions.forgetEndedSessions(this.sql, now);
    reading.forgetEndedBudgets(this.sql, now);
    seats.forgetIdleSeats(this.sql, now);
  }

  /** The school was deleted: everything the object holds goes (usage of a deleted school has nowhere to go). */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.schoolId = null;
    this.alarmSet = false;
    // Nothing is left behind, and a later call (a stale cookie) writes nothing: D1 has no such school.
  }
}

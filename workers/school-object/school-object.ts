/**
 * One school's hot state, in a Durable Object of its own (docs/decisions/0024, 0042): its teachers'
 * sessions, their reading budgets, and the usage they make until it is flushed to D1. A teacher's
 * page view is one call here (`readPage`): the session is checked, a page of the budget spent and
 * the page counted in one single-threaded step, with no D1 statement and no await between them.
 *
 * The class is the object's RPC methods, a line or two each, over plain modules, one per concern,
 * each taking its SqlStorage: sessions.ts, seats.ts, reading.ts (budgets), usage.ts,
 * annotation-calls.ts; the tables are made by migrations.ts, the policy is policy.ts. Usage and
 * reading progress leave in batches: an alarm (flush-alarm.ts) flushes them FLUSH_INTERVAL_MS after the first
 * unflushed event, and the reports flush a school on demand. A flush is one D1 statement carrying a
 * sequence number that D1 applies once (migration 0010), so a retried alarm, or a flush whose
 * answer was lost, never counts twice.
 *
 * Each method takes the school's id first: the object learns it on its first call and, that once,
 * moves the school's sessions, budgets and today's reading marks over from D1 (move-in.ts). That,
 * the session check and the transaction each method stands on are school-base.ts.
 */
import { type LoanEndReason, OFFLINE_LOAN_GONE } from "#shared/rules/offline.ts";
import type { SchoolStorageDump } from "#shared/school-storage-dump.ts";
import * as annotating from "./annotation-calls.ts";
import { listForExport } from "./annotations.ts";
import * as erasure from "./erasure.ts";
import * as loans from "./loans.ts";
import * as reading from "./reading.ts";
import { answer, type ObjectOutcome, refuse } from "./refusals.ts";
import { type AsTeacher, type At, SchoolObjectBase } from "./school-base.ts";
import { catalogueVersion, raiseCatalogueVersion } from "./school-storage.ts";
import * as seats from "./seats.ts";
import * as sessions from "./sessions.ts";
import { dumpStorage, restoreStorage } from "./storage-dump.ts";
import * as usage from "./usage.ts";

export class School extends SchoolObjectBase {
  async openSession(schoolId: number, input: sessions.NewSession & At): Promise<ObjectOutcome<null>> {
    const noSchool = refuse({ kind: "not-found", error: "School not found" });
    const now = input.now ?? Date.now();
    const opened = await this.withSchool(schoolId, noSchool, () => this.transaction(() => sessions.openSession(this.sql, input, now)));
    // The session's row will need tidying even if the teacher never reads a page (tidy.ts).
    if (opened.ok) await this.flusher.armTidy(now);
    return opened;
  }

  async checkSession(schoolId: number, tokenHash: string, now = Date.now()): Promise<sessions.SessionCheck> {
    return this.withSession(schoolId, { tokenHash, now }, answer);
  }

  async endSession(schoolId: number, tokenHash: string, teacherId?: number): Promise<boolean> {
    return this.withSchool(schoolId, false, () => sessions.endSession(this.sql, tokenHash, teacherId, Date.now()));
  }

  async endTeacherSessions(schoolId: number, teacherId: number, keepTokenHash?: string): Promise<number> {
    return this.withSchool(schoolId, 0, () => sessions.endTeacherSessions(this.sql, teacherId, keepTokenHash, Date.now()));
  }

  async listSessions(schoolId: number, teacherId: number, now = Date.now()): Promise<sessions.SessionRow[]> {
    return this.withSchool(schoolId, [], () => sessions.listSessions(this.sql, teacherId, now));
  }

  async sessionCounts(schoolId: number, teacherIds: number[], now = Date.now()): Promise<Record<number, number>> {
    return this.withSchool(schoolId, {}, () => sessions.sessionCounts(this.sql, teacherIds, now));
  }

  async setTeacherDisabled(schoolId: number, teacher: sessions.SessionTeacher, disabled: boolean, now = Date.now()): Promise<number> {
    return this.withSchool(schoolId, 0, () => this.transaction(() => sessions.setTeacherDisabled(this.sql, teacher, disabled, now)));
  }

  async updateTeacher(schoolId: number, teacher: sessions.SessionTeacher): Promise<void> {
    return this.withSchool(schoolId, undefined, () => sessions.updateTeacher(this.sql, teacher));
  }

  async removeTeacher(schoolId: number, teacherId: number): Promise<void> {
    return this.withSchool(schoolId, undefined, () => this.transaction(() => sessions.removeTeacher(this.sql, teacherId)));
  }

  /** Erasure (docs/decisions/0045): what the object holds of these teachers goes, in one transaction; their unsent usage stays, under ids that name no one. */
  async eraseTeachers(schoolId: number, teacherIds: number[]): Promise<number> {
    return this.withSchool(schoolId, 0, () => this.transaction(() => erasure.eraseTeachers(this.sql, teacherIds)));
  }

  async setSessionLimit(schoolId: number, limit: number): Promise<number> {
    return this.withSchool(schoolId, 0, () => this.transaction(() => sessions.setSessionLimit(this.sql, limit)));
  }

  async readPage(schoolId: number, input: reading.PageRead & AsTeacher): Promise<reading.PageCheck> {
    return this.withSession(schoolId, input, (teacher, now) => reading.readPage(this.sql, teacher, input, now, this.flushSoon));
  }

  /** The teacher closed the book: their seat, if they held one, is free for the next. */
  async releaseSeat(schoolId: number, input: { bookId: number } & AsTeacher): Promise<ObjectOutcome<null>> {
    return this.withSession(schoolId, input, (teacher) => {
      seats.releaseSeat(this.sql, teacher.id, input.bookId);
      return answer(null);
    });
  }

  async seatHolders(schoolId: number, now = Date.now()): Promise<seats.SeatHolder[]> {
    return this.withSchool(schoolId, [], () => seats.seatHolders(this.sql, now));
  }

  async freeSeat(schoolId: number, input: { bookId: number; teacherId: number } & At): Promise<boolean> {
    return this.withSchool(schoolId, false, () => seats.freeSeat(this.sql, input.bookId, input.teacherId, input.now ?? Date.now()));
  }

  async seatsHeld(schoolId: number, bookId: number, now = Date.now()): Promise<number> {
    return this.withSchool(schoolId, 0, () => seats.seatsHeld(this.sql, bookId, now));
  }

  /** Offline loans (loans.ts, docs/decisions/0050): the session keeps a book, lists its loans (the contact check), returns one, reports reads. */
  async createLoan(
    schoolId: number,
    input: loans.NewLoan & AsTeacher,
  ): Promise<ObjectOutcome<{ loan: loans.SessionLoan; created: boolean }>> {
    return this.withSession(schoolId, input, (t, now) =>
      this.transaction(() => loans.createLoan(this.sql, t, input.tokenHash, input, now, this.flushSoon)),
    );
  }

  async sessionLoans(schoolId: number, call: AsTeacher): Promise<ObjectOutcome<loans.SessionLoan[]>> {
    return this.withSession(schoolId, call, (_, now) => answer(loans.sessionLoans(this.sql, call.tokenHash, now)));
  }

  async returnLoan(schoolId: number, input: { bookId: number } & AsTeacher): Promise<ObjectOutcome<null>> {
    return this.withSession(schoolId, input, (_, now) => loans.returnLoan(this.sql, input.tokenHash, input.bookId, now));
  }

  async countOfflineReads(schoolId: number, input: loans.OfflineReads & AsTeacher): Promise<ObjectOutcome<number>> {
    return this.withSession(schoolId, input, (t, now) =>
      this.transaction(() => loans.countOfflineReads(this.sql, t.id, input, now, this.flushSoon)),
    );
  }

  /** The school's live loans (admins, coordinators), ending one ("Return now"), and ending loans whose licence no longer allows them. */
  async schoolLoans(schoolId: number, now = Date.now()): Promise<loans.SchoolLoan[]> {
    return this.withSchool(schoolId, [], () => loans.schoolLoans(this.sql, now));
  }

  async returnLoanById(schoolId: number, loanId: string, now = Date.now()): Promise<ObjectOutcome<loans.SchoolLoan>> {
    return this.withSchool(schoolId, refuse({ kind: "not-found", error: OFFLINE_LOAN_GONE }), () =>
      loans.returnLoanById(this.sql, loanId, now),
    );
  }

  async endLoans(schoolId: number, ids: string[], reason: LoanEndReason, now = Date.now()): Promise<number> {
    return this.withSchool(schoolId, 0, () => loans.endLoans(this.sql, ids, reason, now));
  }

  /** An admin took a book from the school: what Workers remember of the school's books is stale. Returns the new version. */
  async catalogueChanged(schoolId: number): Promise<number> {
    return this.withSchool(schoolId, 0, () => raiseCatalogueVersion(this.sql));
  }

  async annotations(schoolId: number, input: annotating.BookRead & At): Promise<ObjectOutcome<annotating.AnnotationList>> {
    return this.withSession(schoolId, input, (teacher, now) => annotating.listWithText(this.sql, teacher.id, input, now, this.flushSoon));
  }

  async annotate(schoolId: number, input: annotating.AddInput & At): Promise<ObjectOutcome<annotating.Added>> {
    return this.withSession(schoolId, input, (teacher, now) =>
      this.transaction(() => annotating.addOne(this.sql, teacher.id, input, now, this.flushSoon)),
    );
  }

  async editAnnotation(schoolId: number, input: annotating.EditInput & At): Promise<ObjectOutcome<annotating.Edited>> {
    return this.withSession(schoolId, input, (teacher, now) => annotating.editOne(this.sql, teacher.id, input, now));
  }

  async removeAnnotation(schoolId: number, input: annotating.RemoveInput & At): Promise<ObjectOutcome<annotating.Removed>> {
    return this.withSession(schoolId, input, (teacher, now) => annotating.removeOne(this.sql, teacher.id, input, now));
  }

  /** A page of the school's annotations for a data export (docs/decisions/0044); the caller is an admin, a coordinator or the teacher. */
  async annotationsForExport(schoolId: number, input: Parameters<typeof listForExport>[1]): Promise<ReturnType<typeof listForExport>> {
    return this.withSchool(schoolId, [], () => listForExport(this.sql, input));
  }

  /**
   * The page a teacher settled on in a book (saved, and pinged while they read): kept for the next flush, counted as
   * reading time. `editedAt`, a position saved offline and sent later: kept only if later than the one held, and not
   * reading time now (docs/decisions/0051). Whether it was kept.
   */
  async saveProgress(schoolId: number, input: usage.ProgressSave & At): Promise<boolean> {
    return this.withSchool(schoolId, false, () => {
      const now = input.now ?? Date.now();
      const at = Math.min(input.editedAt ?? now, now);
      const kept = usage.saveProgress(this.sql, input, at);
      if (now - at < usage.LIVE_SAVE_MS) this.countEvent({ teacherId: input.teacherId, bookId: input.bookId, pages: 0 }, now);
      return kept;
    });
  }

  async unflushedProgress(schoolId: number, teacherId: number): Promise<usage.UnflushedProgress[]> {
    return this.withSchool(schoolId, [], () => usage.unflushedProgress(this.sql, teacherId));
  }

  /** The dashboard's one call: the teacher's unflushed progress and the school's catalogue version (workers/reading/shelf-cache.ts). */
  async dashboardState(schoolId: number, teacherId: number): Promise<{ unflushed: usage.UnflushedProgress[]; catalogueVersion: number }> {
    // An object that holds no such school has no tables to read: nothing unflushed, no version.
    return this.withSchool(schoolId, { unflushed: [], catalogueVersion: 0 }, () => ({
      unflushed: usage.unflushedProgress(this.sql, teacherId),
      catalogueVersion: catalogueVersion(this.sql),
    }));
  }

  /** A book opened or a reader's ping (reading time, no page): counted for the next flush. */
  async record(schoolId: number, event: usage.ReadingEventInput): Promise<void> {
    return this.withSchool(schoolId, undefined, () => this.countEvent(event, event.now ?? Date.now()));
  }

  /** Sends the unflushed usage to D1 now (the reports and the tests); how many rows went. */
  async flush(schoolId: number): Promise<number> {
    return (await this.ready(schoolId)) ? this.flusher.flush(this.schoolId) : 0;
  }

  async alarm(): Promise<void> {
    await this.flusher.ring(this.schoolId);
  }

  /** The school was deleted: everything the object holds goes (usage of a deleted school has nowhere to go). */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.schoolId = null;
    this.flusher.set = false;
    // Nothing is left behind, and a later call (a stale cookie) writes nothing: D1 has no such school.
  }

  /** The object's whole storage at one moment, for the operator's backup (storage-dump.ts); empty if it never served the school. */
  async dumpStorage(schoolId: number): Promise<SchoolStorageDump> {
    if (this.schoolId !== null && this.schoolId !== schoolId)
      throw new Error(`School object ${this.schoolId} was asked for school ${schoolId}`);
    const alarm = await this.ctx.storage.getAlarm();
    if (this.schoolId === null) return { schoolId, tables: [], afterRows: [], sequences: [], alarm: null };
    return { schoolId, alarm, ...dumpStorage(this.sql) };
  }

  /** Replaces what the object holds with a backup's dump of it (the operator's restore); the rows written. */
  async restoreStorage(schoolId: number, dump: SchoolStorageDump): Promise<number> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const restored = await restoreStorage(this.ctx.storage, dump);
      this.schoolId = dump.tables.length ? schoolId : null;
      this.flusher.set = restored.alarmSet;
      return restored.rows;
    });
  }
}

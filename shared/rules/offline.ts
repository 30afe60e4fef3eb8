/**
 * Offline loans (issue 45, docs/decisions/0050-offline-loans.md): the terms' defaults and limits and
 * every sentence a teacher is told when a book cannot be kept for offline reading, shared by the
 * Worker, which refuses, and the browser, which shows. No zod and no Worker or browser modules here:
 * the reader's island imports it (the answer's schemas are in shared/rules/offline-loan-schema.ts).
 */

/** Days a book may be kept offline when the licence does not say otherwise. */
export const OFFLINE_DAYS_DEFAULT = 14;
export const OFFLINE_DAYS_MIN = 1;
export const OFFLINE_DAYS_MAX = 90;
/** Books a teacher may keep offline at once at a school, unless the school says otherwise; 0 = none. */
export const OFFLINE_BOOKS_PER_TEACHER_DEFAULT = 5;
export const OFFLINE_BOOKS_PER_TEACHER_MAX = 50;
/** At most this many pages read offline in one report (the client sends more in further reports). */
export const OFFLINE_READS_PER_REPORT = 500;
/** Bytes of a loan's AES-256-GCM key. */
export const OFFLINE_KEY_BYTES = 32;

/** The licence (per school and book) does not allow offline reading: 403. */
export const OFFLINE_NOT_ALLOWED = "Your school's licence for this book does not allow keeping it for offline reading.";
/** The school allows no offline books at all (its cap is 0): 409. */
export const OFFLINE_NONE_AT_SCHOOL = "Your school does not allow keeping books for offline reading.";

/** The teacher already keeps `cap` books offline at this school: 409. */
export function offlineCapMessage(cap: number): string {
  if (cap <= 0) return OFFLINE_NONE_AT_SCHOOL;
  return `You can keep at most ${cap} ${cap === 1 ? "book" : "books"} for offline reading at your school. Return one to keep another.`;
}

/** A page asked for with a loan that is not this session's, is not this book's, or has ended: 403. */
export const OFFLINE_LOAN_REFUSED = "This offline copy has ended or belongs to another device. Open the book online to keep it again.";
/** The teacher returns (or reports reads for) a book this session does not keep offline: 404. */
export const OFFLINE_LOAN_NOT_FOUND = "This book is not kept for offline reading on this device.";
/** An admin or coordinator returns a loan that has already ended (or is another school's): 404. */
export const OFFLINE_LOAN_GONE = "This book is no longer kept for offline reading.";

/** Why a loan ended, as the object records it (the list of ended loans and the audit say it). */
export const LOAN_END_REASONS = [
  "returned",
  "returned-by-staff",
  "expired",
  "licence-ended",
  "offline-not-allowed",
  "teacher-disabled",
  "signed-out",
] as const;
export type LoanEndReason = (typeof LOAN_END_REASONS)[number];

/** The one rule for a licence's offline days (the API, the console's forms, the browser's check). */
export const OFFLINE_DAYS_RULE = `Days a book may be kept offline is a whole number from ${OFFLINE_DAYS_MIN} to ${OFFLINE_DAYS_MAX}`;
export function isOfflineDays(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= OFFLINE_DAYS_MIN && value <= OFFLINE_DAYS_MAX;
}

/** The one rule for a school's offline books per teacher. */
export const OFFLINE_BOOKS_RULE = `Offline books per teacher is a whole number from 0 to ${OFFLINE_BOOKS_PER_TEACHER_MAX}`;
export function isOfflineBooksPerTeacher(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= OFFLINE_BOOKS_PER_TEACHER_MAX;
}

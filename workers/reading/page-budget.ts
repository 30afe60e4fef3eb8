/**
 * How many pages a teacher may take of one book: counted per teacher (not per session, so signing
 * in again resets nothing), per book, per hour and per day. Page images, page texts and searches
 * count one each, so reading a page costs two; the limits let a teacher read the whole book twice an hour
 * and six times a day, with a floor so short books can be leafed through freely.
 */
import { recordAmount } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export function pageBudget(pageCount: number) {
  return {
    hour: { limit: Math.max(2 * 2 * pageCount, 200), windowMs: HOUR },
    day: { limit: Math.max(6 * 2 * pageCount, 600), windowMs: DAY },
  };
}

/** Counts one page against the teacher's hourly and daily budgets; the milliseconds to wait when spent. */
export async function spendPage(db: Db, teacherId: number, bookId: number, pageCount: number, now = Date.now()): Promise<number | null> {
  const budget = pageBudget(pageCount);
  const [hour, day] = await Promise.all([
    recordAmount(db, `pages:h:${teacherId}:${bookId}`, 1, budget.hour, now),
    recordAmount(db, `pages:d:${teacherId}:${bookId}`, 1, budget.day, now),
  ]);
  if (hour.allowed && day.allowed) return null;
  return Math.max(hour.allowed ? 0 : hour.retryAfterMs, day.allowed ? 0 : day.retryAfterMs, 1000);
}

export function readingLimitMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const wait = minutes >= 90 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `You have reached the reading limit for this book. Please try again in ${wait}.`;
}

/**
 * How many pages a teacher may take of one book: counted per teacher (not per session, so signing
 * in again resets nothing), per book, per hour and per day. Page images, page texts and searches
 * count one each, so reading a page costs two; the limits let a teacher read the whole book twice an hour
 * and six times a day, with a floor so short books can be leafed through freely. The school's
 * object keeps the counts and spends them (workers/school-object/reading.ts).
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export function pageBudget(pageCount: number) {
  return {
    hour: { limit: Math.max(2 * 2 * pageCount, 200), windowMs: HOUR },
    day: { limit: Math.max(6 * 2 * pageCount, 600), windowMs: DAY },
  };
}

export function readingLimitMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const wait = minutes >= 90 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `You have reached the reading limit for this book. Please try again in ${wait}.`;
}

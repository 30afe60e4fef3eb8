/**
 * A teacher's page view without a D1 read (docs/decisions/0024): what the view needs of the
 * school's book (its page set, whether a PDF waits, the school's slug and name) kept in isolate
 * memory for BOOK_TTL_MS, with the school's catalogue version it was read under.
 *
 * - An admin removing the book from the school bumps that school's version in its object; the page
 *   view's object call checks the version before spending anything, and a stale entry is read again.
 * - A book's new PDF (a new page set) or its deletion affects every school that has it: those reach
 *   other isolates within BOOK_TTL_MS, and at once when the cached set's image is gone from R2 (the
 *   page route then reads the book again: `forgetPageViewBook`).
 * Assignments need nothing: a book not cached is read from D1, and only a ready book is cached.
 */
import { TtlCache } from "../db/ttl-cache.ts";
import type { findBookForPageView } from "./library.ts";

export const BOOK_TTL_MS = 60_000;

export type PageViewBook = NonNullable<Awaited<ReturnType<typeof findBookForPageView>>>;
type Entry = PageViewBook & { version: number };

// A few thousand (school, book) pairs: the books being read in the schools this isolate serves.
const entries = new TtlCache<string, Entry>(BOOK_TTL_MS, 5_000);
const key = (schoolId: number, bookId: number) => `${schoolId}:${bookId}`;

export function cachedPageViewBook(schoolId: number, bookId: number): Entry | undefined {
  return entries.get(key(schoolId, bookId));
}

/**
 * How long past BOOK_TTL_MS a remembered book may still be read when D1 is away or slow
 * (docs/decisions/0047): a school day. The object still checks its catalogue version on every view,
 * so a book taken away is refused at once; only a revoke whose call to the object failed too goes
 * unseen, for as long as D1 stays away.
 */
export const STALE_IF_ERROR_MS = 8 * 3600_000;

/** The book last read for a page view, expired or not (never one forgotten), while within STALE_IF_ERROR_MS. */
export function lastKnownPageViewBook(schoolId: number, bookId: number, now = Date.now()): Entry | undefined {
  const known = entries.lastKnown(key(schoolId, bookId));
  return known && known.until + STALE_IF_ERROR_MS > now ? known.value : undefined;
}

/** Keeps a ready book (one with a page set) read under the school's catalogue `version`. */
export function rememberPageViewBook(schoolId: number, row: PageViewBook, version: number): void {
  if (row.book.pageSetId) entries.set(key(schoolId, row.book.id), { ...row, version });
}

export function forgetPageViewBook(schoolId: number, bookId: number): void {
  entries.forget(key(schoolId, bookId));
}

/**
 * Opening a book for a page view (docs/decisions/0013, 0024): which book a reader may read as
 * pages, and the failures before a page is spent. No HTTP here: workers/api/book-pages.ts parses
 * the request and turns the `Outcome` into the answer (a failure's kind into its status, at the
 * edge); the views are page-image.ts (the stamped image) and book-text.ts (text, outline, search,
 * a teacher's book for annotations).
 *
 * Another school's book, a deleted one or a malformed id is `not-found` before anything else is
 * looked at; a book whose pages are not ready yet is a `conflict` with `status: "preparing"`. Every exported view
 * answers through `throughGate` (page-view-gate.ts): for a page viewer (a teacher cookie no one has
 * checked yet) no answer leaves before the session is checked, so a made-up cookie learns nothing
 * about a school's books, whichever refusal a view adds.
 */
import { dayOf, licenceEndedMessage, licenceState } from "#shared/rules/licence.ts";
import { findBook } from "../books/detail.ts";
import { type Db, getReplicaDb } from "../db/client.ts";
import { readOrLastKnown } from "../db/last-known.ts";
import type { Book, PageSet } from "../db/schema.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import { listPages, type PageList, readingState } from "../page-images/page-reading.ts";
import { cachedReadySet, type ReadySet } from "../page-images/page-set-cache.ts";
import { findBookForPageView } from "./library.ts";
import { cachedPageViewBook, forgetPageViewBook, lastKnownPageViewBook, type PageViewBook } from "./page-view-cache.ts";
import { type PageAsk, type PageReader, throughGate } from "./page-view-gate.ts";
import { recordAfterResponse } from "./usage-events.ts";

export type PageRow = NonNullable<ReturnType<ReadySet["pages"]["get"]>>;

/** What a page view needs of the book: which page set teachers read, whether a PDF is waiting for pages. */
type ReadableBook = Pick<Book, "id" | "pageSetId" | "pdfKey">;
export interface Opened {
  ask: PageAsk;
  db: Db;
  reader: PageReader;
  book: ReadableBook;
  schoolName: string | null;
  set: PageSet;
  pages: ReadySet["pages"];
  /** A teacher's book as read for this view, and the school's catalogue version it was remembered under (none: read from D1 now). */
  row?: PageViewBook;
  /** The school's licence's seat limit (null: none; admins: none). */
  seats: number | null;
  cachedVersion?: number;
  /** The book was the last known one, D1 being away or slow (decision 0047): once the object confirms its version, it is remembered afresh. */
  lastKnown?: boolean;
}

/** A page view's book as D1 or memory gives it (memory's carries the version it was read under). */
type PageViewRead = PageViewBook | (PageViewBook & { version: number }) | null;

/** The book remembered for a page view was stale (docs/decisions/0024): the view runs again, reading it from D1. */
export const STALE = Symbol("stale");

const BOOK_NOT_FOUND = failure("not-found", "Book not found");

/**
 * The reader, the book they may read and its readable page set; or why not. A teacher's page
 * view reads their school's book from this isolate's memory (checked by the object call, `spend`),
 * or one row from D1; `fresh` always reads D1 (opening a book, and the retry of a stale memory).
 */
export async function open(ask: PageAsk, reader: PageReader, fresh: boolean): Promise<Outcome<Opened>> {
  const { db, tenant, env } = ask.context;
  const { bookId } = ask;
  let book: ReadableBook | null = null;
  let schoolName: string | null = null;
  let seats: number | null = null;
  let teacherRow: PageViewBook | undefined;
  let cachedVersion: number | undefined;
  let usedLastKnown = false;
  if (bookId && reader.kind === "teacher") {
    // From this isolate's memory, checked against the school's catalogue version by the object call;
    // else one row, from a replica near the reader (an assignment removed reaches it in moments).
    const remembered = cachedPageViewBook(reader.schoolId, bookId);
    let cached = fresh ? undefined : remembered;
    // Past its minute, a page turn still reads the book from memory when D1 is away or slow (decision
    // 0047): the object checks it against the catalogue version as it does a remembered one.
    const lastKnown = fresh || cached ? undefined : lastKnownPageViewBook(reader.schoolId, bookId);
    const read = () => findBookForPageView(getReplicaDb(env.DB), reader.schoolId, bookId);
    const row = cached ?? (await readOrLastKnown<PageViewRead>(read, lastKnown));
    if (lastKnown !== undefined && row === lastKnown) [cached, usedLastKnown] = [lastKnown, true];
    // Opening the book (its page list) reads it afresh: a set replaced since is forgotten here at once.
    if (remembered && remembered.book.pageSetId !== row?.book.pageSetId) forgetPageViewBook(reader.schoolId, bookId);
    [teacherRow, cachedVersion] = [row ?? undefined, cached?.version];
    // The cookie's school is not the one the request names: like a school that does not exist.
    if (row && tenant.slug !== null && row.school.slug !== tenant.slug) return failure("not-found", "School not found");
    [book, schoolName] = row ? [row.book, row.school.name] : [null, null];
    if (row) {
      // The licence's days are looked at on every view (a remembered row may cross midnight).
      const state = licenceState(row.licence, dayOf(Date.now()));
      if (state === "scheduled") return BOOK_NOT_FOUND;
      if (state === "expired" && row.licence.endsOn)
        return failed({ kind: "refused", error: licenceEndedMessage(row.licence.endsOn), details: { status: "licence-ended" } });
      seats = row.licence.seats;
    }
  } else if (bookId) {
    book = await findBook(db, bookId);
  }
  if (!book) return BOOK_NOT_FOUND;
  const ready = await cachedReadySet(db, book);
  if (!ready) {
    const state = await readingState(db, book);
    return state === "preparing"
      ? failed({
          kind: "conflict",
          error: "This book is still being prepared. Please check back in a few minutes.",
          details: { status: "preparing" },
        })
      : failed({ kind: "not-found", error: "This book does not have a PDF file available", details: { status: "no-pdf" } });
  }
  const opened = { ask, db, reader, book, schoolName, set: ready.set, pages: ready.pages, row: teacherRow, cachedVersion, seats };
  return done(usedLastKnown ? { ...opened, lastKnown: true } : opened);
}

export const PAGE_PREPARING = "This page is still being prepared. It will appear in a moment.";

/** Page `n` of the set (null: the path's number was malformed), or why not (invalid when malformed, not-found out of range or failed). */
export function pageOf(opened: Opened, n: number | null): Outcome<PageRow> {
  const { set } = opened;
  if (n === null) return failure("invalid", "The page number must be a whole number from 1");
  const page = opened.pages.get(n);
  // A book read while it is prepared: a page to come is neither spent nor refused for good.
  if (!page && set.status === "preparing" && set.pageCount !== null && n >= 1 && n <= set.pageCount)
    return failed({ kind: "conflict", error: PAGE_PREPARING, retryAfterSeconds: 5, details: { status: "page-preparing" } });
  if (!page) return failure("not-found", `This book has ${set.pageCount} pages`);
  if (page.error !== null) return failed({ kind: "not-found", error: "This page could not be displayed.", details: { status: "failed" } });
  return done(page);
}

/**
 * Runs a view; when the book it remembered turned out stale (an admin's change: the object said so
 * before spending anything, or the remembered page set is gone from R2), once more with the book
 * read from D1.
 */
export async function withFreshRetry<R>(run: (fresh: boolean) => Promise<R | typeof STALE>): Promise<R> {
  const first = await run(false);
  if (first !== STALE) return first;
  const second = await run(true);
  if (second === STALE) throw new Error("A book read from D1 cannot be stale");
  return second;
}

/** A stored file of a remembered page set is gone: the set was replaced or the book deleted since. */
export function goneFromR2(opened: Opened): typeof STALE | null {
  if (opened.reader.kind !== "teacher" || opened.cachedVersion === undefined) return null;
  forgetPageViewBook(opened.reader.schoolId, opened.book.id);
  return STALE;
}

/** Opening a book: its page list, and the open counted for the usage reports (docs/decisions/0019). */
export function openBookPages(ask: PageAsk): Promise<Outcome<PageList>> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (!opened.ok) return opened;
    const { book, db, set } = opened.value;
    const { context } = ask;
    if (ask.reader.kind === "teacher") {
      const { school, teacher } = ask.reader.teacher;
      recordAfterResponse(context.ctx, context.env, school.id, { bookId: book.id, teacherId: teacher.id, pages: 0 });
    }
    return done(await listPages(db, set));
  });
}

/**
 * The reading hot path as a service (docs/decisions/0013, 0024): which book a reader may read as
 * pages, a page of the reading budget spent in the school's object, the page image stamped with the
 * teacher's watermark and hidden mark, and the page's text, outline and search read from R2 (each
 * checked by its zod schema on the way out of storage). No HTTP here: workers/api/book-pages.ts
 * parses the request and turns a `Refusal` or a result into the answer.
 *
 * Another school's book, a deleted one or a malformed id is 404 before anything else is looked
 * at; a book whose pages are not ready yet is 409 with `status: "preparing"`. Every exported view
 * answers through `throughGate` (page-view-gate.ts): for a page viewer (a teacher cookie no one has
 * checked yet) no answer leaves before the session is checked, so a made-up cookie learns nothing
 * about a school's books, whichever refusal a view adds.
 */
import { z } from "zod";
import { dayOf, licenceEndedMessage, licenceState, noSeatMessage } from "../../app/lib/rules/licence.ts";
import { PAGE_WIDTHS, PREVIEW_WIDTH, STORED_PAGE_EXTENSION } from "../../app/lib/rules/page-format.ts";
import { findBook } from "../books/detail.ts";
import { type Db, getReplicaDb } from "../db/client.ts";
import type { Book, PageSet } from "../db/schema.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reader } from "../http/guards.ts";
import { markDay, markSignsFor } from "../leaks/mark-key.ts";
import { type OutlineItem, OutlineSchema, type PageText, PageTextSchema } from "../page-images/page-content.ts";
import { outlineKey, pageImageKey, pageTextKey, searchTextKey } from "../page-images/page-keys.ts";
import { listPages, type PageList, readingState, storedWidthFor } from "../page-images/page-reading.ts";
import { type SearchResult, searchPages } from "../page-images/page-search.ts";
import { cachedReadySet, type ReadySet } from "../page-images/page-set-cache.ts";
import { stampPage } from "../page-images/stamp.ts";
import { watermarkLines } from "../page-images/watermark.ts";
import { schoolObject } from "../school/objects.ts";
import { findBookForPageView } from "./library.ts";
import { readingLimitMessage } from "./page-budget.ts";
import { cachedPageViewBook, forgetPageViewBook, type PageViewBook, rememberPageViewBook } from "./page-view-cache.ts";
import { type PageReader, Refusal, sessionChecked, signedOut, throughGate } from "./page-view-gate.ts";
import { recordAfterResponse } from "./usage-events.ts";

export { Refusal };

/** A page view's request, parsed by the route: null where the path held something malformed. */
export interface PageAsk {
  context: RequestContext;
  reader: Reader;
  bookId: number | null;
}

/** A page image to send: its bytes (a stream as stored for an admin) and type. */
export interface PageImage {
  body: ReadableStream | Uint8Array;
  contentType: string;
  length: number;
}

type PageRow = NonNullable<ReturnType<ReadySet["pages"]["get"]>>;

/** What a page view needs of the book: which page set teachers read, whether a PDF is waiting for pages. */
type ReadableBook = Pick<Book, "id" | "pageSetId" | "pdfKey">;
interface Opened {
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
}

/** The book remembered for a page view was stale (docs/decisions/0024): the view runs again, reading it from D1. */
const STALE = Symbol("stale");

/**
 * The reader, the book they may read and its readable page set; or the refusal. A teacher's page
 * view reads their school's book from this isolate's memory (checked by the object call, `spend`),
 * or one row from D1; `fresh` always reads D1 (opening a book, and the retry of a stale memory).
 */
async function open(ask: PageAsk, reader: PageReader, fresh: boolean): Promise<Opened | Refusal> {
  const { db, tenant, env } = ask.context;
  const { bookId } = ask;
  let book: ReadableBook | null = null;
  let schoolName: string | null = null;
  let seats: number | null = null;
  let teacherRow: PageViewBook | undefined;
  let cachedVersion: number | undefined;
  if (bookId && reader.kind === "teacher") {
    // From this isolate's memory, checked against the school's catalogue version by the object call;
    // else one row, from a replica near the reader (an assignment removed reaches it in moments).
    const remembered = cachedPageViewBook(reader.schoolId, bookId);
    const cached = fresh ? undefined : remembered;
    const row = cached ?? (await findBookForPageView(getReplicaDb(env.DB), reader.schoolId, bookId));
    // Opening the book (its page list) reads it afresh: a set replaced since is forgotten here at once.
    if (remembered && remembered.book.pageSetId !== row?.book.pageSetId) forgetPageViewBook(reader.schoolId, bookId);
    [teacherRow, cachedVersion] = [row ?? undefined, cached?.version];
    // The cookie's school is not the one the request names: like a school that does not exist.
    if (row && tenant.slug !== null && row.school.slug !== tenant.slug) return new Refusal(404, "School not found");
    [book, schoolName] = row ? [row.book, row.school.name] : [null, null];
    if (row) {
      // The licence's days are looked at on every view (a remembered row may cross midnight).
      const state = licenceState(row.licence, dayOf(Date.now()));
      if (state === "scheduled") return new Refusal(404, "Book not found");
      if (state === "expired" && row.licence.endsOn)
        return new Refusal(403, licenceEndedMessage(row.licence.endsOn), { status: "licence-ended" });
      seats = row.licence.seats;
    }
  } else if (bookId) {
    book = await findBook(db, bookId);
  }
  if (!book) return new Refusal(404, "Book not found");
  const ready = await cachedReadySet(db, book);
  if (!ready) {
    const state = await readingState(db, book);
    return state === "preparing"
      ? new Refusal(409, "This book is still being prepared. Please check back in a few minutes.", { status: "preparing" })
      : new Refusal(404, "This book does not have a PDF file available", { status: "no-pdf" });
  }
  return { ask, db, reader, book, schoolName, set: ready.set, pages: ready.pages, row: teacherRow, cachedVersion, seats };
}

/** Page `n` of the set (null: the path's number was malformed), or the refusal (400 malformed, 404 out of range or failed). */
function pageOf(opened: Opened, n: number | null): PageRow | Refusal {
  const { set } = opened;
  if (n === null) return new Refusal(400, "The page number must be a whole number from 1");
  const page = opened.pages.get(n);
  if (!page) return new Refusal(404, `This book has ${set.pageCount} pages`);
  if (page.error !== null) return new Refusal(404, "This page could not be displayed.", { status: "failed" });
  return page;
}

/**
 * For a teacher, whose page this is: the lines stamped on it and the UTC day of its hidden mark
 * (the stamp's date is that day). For an admin, nothing to stamp.
 */
type Spent = { watermark: null } | { watermark: string[]; teacherId: number; day: string };

/**
 * A teacher's page, in one call to the school's object: the session checked, a page of the
 * budget spent and, when `countsAsRead`, the page counted (docs/decisions/0024). The 401 when
 * the session is gone, the 429 when the budget is spent. Admins pay nothing.
 */
async function spend(opened: Opened, countsAsRead: boolean): Promise<Spent | Refusal | typeof STALE> {
  const { reader, book, set, ask } = opened;
  if (reader.kind !== "teacher") return { watermark: null };
  const result = await schoolObject(ask.context.env, reader.schoolId).readPage(reader.schoolId, {
    tokenHash: reader.tokenHash,
    bookId: book.id,
    pageCount: set.pageCount ?? 1,
    countsAsRead,
    catalogueVersion: opened.cachedVersion,
    seats: opened.seats,
  });
  // The object checks the session before anything else: whatever it answered, the gate need not ask again.
  sessionChecked(reader);
  if (result.status === "none" || result.status === "disabled") return signedOut(result.status);
  if (result.status === "stale") {
    forgetPageViewBook(reader.schoolId, book.id);
    return STALE;
  }
  if (result.status === "no-seat") return new Refusal(409, noSeatMessage(result.seats), { status: "no-seat" }, { "Retry-After": "60" });
  if (result.status === "limit") {
    const { waitMs } = result;
    return new Refusal(429, readingLimitMessage(waitMs), {}, { "Retry-After": String(Math.ceil(waitMs / 1000)) });
  }
  if (opened.row && opened.cachedVersion === undefined) rememberPageViewBook(reader.schoolId, opened.row, result.catalogueVersion);
  const { teacher } = result;
  const day = markDay();
  return { watermark: watermarkLines(teacher.name, teacher.email, opened.schoolName ?? "", day), teacherId: teacher.id, day };
}

/**
 * Runs a view; when the book it remembered turned out stale (an admin's change: the object said so
 * before spending anything, or the remembered page set is gone from R2), once more with the book
 * read from D1.
 */
async function withFreshRetry<R>(run: (fresh: boolean) => Promise<R | typeof STALE>): Promise<R> {
  const first = await run(false);
  if (first !== STALE) return first;
  const second = await run(true);
  if (second === STALE) throw new Error("A book read from D1 cannot be stale");
  return second;
}

/** A stored file of a remembered page set is gone: the set was replaced or the book deleted since. */
function goneFromR2(opened: Opened): typeof STALE | null {
  if (opened.reader.kind !== "teacher" || opened.cachedVersion === undefined) return null;
  forgetPageViewBook(opened.reader.schoolId, opened.book.id);
  return STALE;
}

/** A JSON file the renderer stored, checked by its schema (what R2 holds was checked on arrival; this keeps the types honest). */
async function readStored<Schema extends z.ZodType>(bucket: R2Bucket, key: string, schema: Schema): Promise<z.output<Schema> | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const parsed = schema.safeParse(await object.json());
  if (!parsed.success) throw new Error(`Stored ${key} does not match its schema`);
  return parsed.data;
}

/** A teacher's book as their annotations need it (docs/decisions/0032): which book, its pages, and a page's stored text. */
export interface TeacherBook {
  bookId: number;
  pageCount: number;
  schoolId: number;
  tokenHash: string;
  /** The licence's seat limit (null: none): a call that answers the book's words takes or needs a seat as a page does. */
  seats: number | null;
  /** Page n's runs as stored (null: the page failed or its text is gone). */
  readText(n: number): Promise<PageText | null>;
}

/** The book as a teacher may read it now (their school's, licensed, its pages ready), or the reader's refusal for it. */
export function openForTeacher(ask: PageAsk): Promise<TeacherBook | Refusal> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (opened instanceof Refusal) return opened;
    const { set, book, pages } = opened;
    if (reader.kind !== "teacher") return new Refusal(404, "Book not found");
    return {
      bookId: book.id,
      pageCount: set.pageCount ?? pages.size,
      schoolId: reader.schoolId,
      tokenHash: reader.tokenHash,
      seats: opened.seats,
      async readText(n) {
        const page = pages.get(n);
        if (!page || page.error !== null) return null;
        return readStored(ask.context.env.BOOKS, pageTextKey(book.id, set.id, n), PageTextSchema);
      },
    };
  });
}

/** Opening a book: its page list, and the open counted for the usage reports (docs/decisions/0019). */
export function openBookPages(ask: PageAsk): Promise<PageList | Refusal> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (opened instanceof Refusal) return opened;
    const { context } = ask;
    if (reader.kind === "teacher" && ask.reader.kind === "teacher") {
      const bookId = opened.book.id;
      recordAfterResponse(context.ctx, context.env, reader.schoolId, { bookId, teacherId: ask.reader.teacher.teacher.id, pages: 0 });
    }
    return listPages(opened.db, opened.set);
  });
}

/** The book's contents, from the PDF's outline (empty when it has none). */
export function bookOutline(ask: PageAsk): Promise<OutlineItem[] | Refusal> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (opened instanceof Refusal) return opened;
    if (!opened.set.hasOutline) return [];
    return (await readStored(ask.context.env.BOOKS, outlineKey(opened.book.id, opened.set.id), OutlineSchema)) ?? [];
  });
}

/**
 * Page `n` as an image: stamped for a teacher (below the smallest stored width asked: a preview,
 * which costs budget but is not counted as read; the sharp image that follows is), as stored for an
 * admin. `width` is the `w` asked (undefined: 1024; null: malformed or above the largest).
 */
export function pageImage(ask: PageAsk, n: number | null, width: number | null | undefined): Promise<PageImage | Refusal> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh) => {
      const opened = await open(ask, reader, fresh);
      if (opened instanceof Refusal) return opened;
      if (width === null) return new Refusal(400, `The width must be a whole number from 1 to ${MAX_PAGE_WIDTH}`);
      const page = pageOf(opened, n);
      if (page instanceof Refusal) return page;
      const requested = width ?? 1024;
      const preview = opened.reader.kind === "teacher" && requested < Math.min(...PAGE_WIDTHS);
      const spent = await spend(opened, !preview);
      if (spent === STALE || spent instanceof Refusal) return spent;
      const key = pageImageKey(opened.book.id, opened.set.id, page.n, storedWidthFor(requested), STORED_PAGE_EXTENSION);
      const object = await ask.context.env.BOOKS.get(key);
      if (!object) return goneFromR2(opened) ?? new Refusal(404, "This page could not be displayed.");
      if (!spent.watermark) {
        return { body: object.body, contentType: object.httpMetadata?.contentType ?? "application/octet-stream", length: object.size };
      }
      const mark = await markSignsFor(ask.context.env, spent.teacherId, spent.day);
      const stamped = await stampPage(
        new Uint8Array(await object.arrayBuffer()),
        spent.watermark,
        preview ? PREVIEW_WIDTH : undefined,
        mark,
      );
      return { body: stamped.bytes, contentType: stamped.contentType, length: stamped.bytes.byteLength };
    }),
  );
}

/** Page `n`'s text runs with their positions (the text layer); a page of the budget. */
export function pageText(ask: PageAsk, n: number | null): Promise<({ n: number } & PageText) | Refusal> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh) => {
      const opened = await open(ask, reader, fresh);
      if (opened instanceof Refusal) return opened;
      const page = pageOf(opened, n);
      if (page instanceof Refusal) return page;
      const spent = await spend(opened, false);
      if (spent === STALE || spent instanceof Refusal) return spent;
      const text = await readStored(ask.context.env.BOOKS, pageTextKey(opened.book.id, opened.set.id, page.n), PageTextSchema);
      if (!text) return goneFromR2(opened) ?? new Refusal(404, "This page has no text.");
      return { n: page.n, ...text };
    }),
  );
}

export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(100, "Search for at most 100 characters"),
});

const SearchTextSchema = z.array(z.string());

/**
 * The pages that hold a word, with snippets. Snippets are text of the book too: a search costs a
 * page of the budget, so queries cannot scrape it. `query` is parsed by the route (SearchQuerySchema);
 * a refusal of it (`invalid`) comes after the book's own, as every malformed part of a page view does.
 */
export function searchBook(
  ask: PageAsk,
  query: { ok: true; q: string } | { ok: false; error: string },
): Promise<{ query: string; results: SearchResult[]; total: number } | Refusal> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh) => {
      const opened = await open(ask, reader, fresh);
      if (opened instanceof Refusal) return opened;
      if (!query.ok) return new Refusal(400, query.error);
      const spent = await spend(opened, false);
      if (spent === STALE || spent instanceof Refusal) return spent;
      const texts = (await readStored(ask.context.env.BOOKS, searchTextKey(opened.book.id, opened.set.id), SearchTextSchema)) ?? [];
      const { results, total } = searchPages(texts, query.q);
      return { query: query.q, results, total };
    }),
  );
}

/** The widest page image a reader may ask for (`?w=`). */
export const MAX_PAGE_WIDTH = 4096;

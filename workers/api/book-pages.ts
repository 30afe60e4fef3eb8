import { parseInput } from "../http/validate.ts";
/**
 * Reading a book as pages (docs/decisions/0013), for a teacher of a school that has the book or
 * an admin:
 *   GET /api/books/:id/pages            the page list: sizes, widths, which pages failed
 *   GET /api/books/:id/pages/:n?w=      page n as an image; teachers get it watermarked (below 1024: a 640 px preview)
 *   GET /api/books/:id/pages/:n/text    page n's text runs with positions (the text layer)
 *   GET /api/books/:id/outline          the contents, from the PDF's outline
 *   GET /api/books/:id/search?q=        the pages that hold a word, with snippets
 * Another school's book, a deleted one or a malformed id is 404 before anything else is looked
 * at; a book whose pages are not ready yet is 409 with `status: "preparing"`. Every answer is
 * `private, no-store`. Teachers' images and texts count against their reading budget.
 */

import { type Context, Hono } from "hono";
import { z } from "zod";
import { PAGE_WIDTHS, PREVIEW_WIDTH, STORED_PAGE_EXTENSION } from "../../app/lib/pages/page-format.ts";
import { findBook } from "../books/detail.ts";
import { type Db, getReplicaDb } from "../db/client.ts";
import type { Book, PageSet } from "../db/schema.ts";
import { type Reader, type ReaderApiEnv, requireRole } from "../http/guards.ts";
import { markSignsFor } from "../leaks/mark-key.ts";
import type { OutlineItem, PageText } from "../page-images/page-content.ts";
import { outlineKey, pageImageKey, pageTextKey, searchTextKey } from "../page-images/page-keys.ts";
import { listPages, readingState, storedWidthFor } from "../page-images/page-reading.ts";
import { searchPages } from "../page-images/page-search.ts";
import { cachedReadySet, type ReadySet } from "../page-images/page-set-cache.ts";
import { stampPage } from "../page-images/stamp.ts";
import { findBookForPageView } from "../reading/library.ts";
import { readingLimitMessage } from "../reading/page-budget.ts";
import { cachedPageViewBook, forgetPageViewBook, type PageViewBook, rememberPageViewBook } from "../reading/page-view-cache.ts";
import { recordAfterResponse } from "../reading/usage-events.ts";
import { schoolObject } from "../school/objects.ts";
import { ACCOUNT_DISABLED } from "../teachers/accounts.ts";
import { parseId } from "../validation/schemas.ts";

type Env = ReaderApiEnv;

const NO_STORE = { "Cache-Control": "private, no-store" } as const;
const PAGE_NUMBER = /^[1-9]\d{0,5}$/;
const WIDTH = /^[1-9]\d{0,4}$/;
const MAX_WIDTH = 4096;
const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(100, "Search for at most 100 characters"),
});

function jsonError(
  c: Context<Env>,
  status: 400 | 401 | 404 | 409 | 429,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return c.json({ error, ...extra }, status, { ...NO_STORE, ...headers });
}

/** An answer refusing the request: its status and `{ error }`, typed for the client. */
type Refusal = ReturnType<typeof jsonError>;

/** The date stamped on a teacher's pages, e.g. "Nov 22, 2026". */
function stampDate(now = Date.now()): string {
  return new Date(now).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

type PageRow = NonNullable<ReturnType<ReadySet["pages"]["get"]>>;

/**
 * Who reads: an admin, or a teacher of a school. A teacher's session is checked by the school's
 * object in the same call that spends the page (`spend`); on a page view (`verified` false) nothing
 * has checked it before, so every refusal checks it first (`refuse`): a made-up cookie learns
 * nothing about a school's books.
 */
type PageReader = { kind: "admin" } | { kind: "teacher"; schoolId: number; tokenHash: string; verified: boolean };

function pageReader(reader: Reader): PageReader {
  if (reader.kind === "admin") return { kind: "admin" };
  if (reader.kind === "teacher")
    return { kind: "teacher", schoolId: reader.teacher.school.id, tokenHash: reader.teacher.tokenHash, verified: true };
  return { kind: "teacher", ...reader.viewer, verified: false };
}

/** What a page view needs of the book: which page set teachers read, whether a PDF is waiting for pages. */
type ReadableBook = Pick<Book, "id" | "pageSetId" | "pdfKey">;
type Found = {
  db: Db;
  reader: PageReader;
  book: ReadableBook;
  schoolName: string | null;
  set: PageSet;
  page: PageRow | null;
  /** A teacher's book as read for this view, and the school's catalogue version it was remembered under (none: read from D1 now). */
  row?: PageViewBook;
  cachedVersion?: number;
};

/** The book remembered for a page view was stale (docs/decisions/0024): the route runs again, reading it from D1. */
const STALE = Symbol("stale");

/** The `:n` of the URL when it is a well-formed page number, else null. */
function requestedPage(c: Context<Env>): number | null {
  const raw = c.req.param("n") ?? "";
  return PAGE_NUMBER.test(raw) ? Number(raw) : null;
}

/** The answer for a teacher whose session the school's object does not hold: 401, saying why. */
function signedOut(c: Context<Env>, status: "none" | "disabled") {
  return status === "disabled" ? jsonError(c, 401, ACCOUNT_DISABLED, { disabled: true }) : jsonError(c, 401, "Not signed in");
}

/** A refusal; for a page viewer whose session no one has checked yet, only once it is checked. */
async function refuse(c: Context<Env>, reader: PageReader, refusal: () => Refusal): Promise<Refusal> {
  if (reader.kind === "admin" || reader.verified) return refusal();
  const check = await schoolObject(c.env, reader.schoolId).checkSession(reader.schoolId, reader.tokenHash);
  return check.status === "ok" ? refusal() : signedOut(c, check.status);
}

/**
 * The reader, the book they may read and its readable page set (with page `n`'s row, from the
 * set kept in memory: docs/decisions/0024); or the answer refusing them. A teacher's page view
 * reads their school's book from this isolate's memory (checked by the object call, `spend`), or
 * one row from D1; `fresh` always reads D1 (opening a book, and the retry of a stale memory).
 */
async function readableBook(c: Context<Env>, n: number | null, fresh: boolean): Promise<Found | Refusal> {
  const { db, tenant } = c.var.context;
  const reader = pageReader(c.var.reader);
  const bookId = parseId(c.req.param("id"));
  let book: ReadableBook | null = null;
  let schoolName: string | null = null;
  let teacherRow: PageViewBook | undefined;
  let cachedVersion: number | undefined;
  if (bookId && reader.kind === "teacher") {
    // From this isolate's memory, checked against the school's catalogue version by the object call;
    // else one row, from a replica near the reader (an assignment removed reaches it in moments).
    const remembered = cachedPageViewBook(reader.schoolId, bookId);
    const cached = fresh ? undefined : remembered;
    const row = cached ?? (await findBookForPageView(getReplicaDb(c.env.DB), reader.schoolId, bookId));
    // Opening the book (its page list) reads it afresh: a set replaced since is forgotten here at once.
    if (remembered && remembered.book.pageSetId !== row?.book.pageSetId) forgetPageViewBook(reader.schoolId, bookId);
    [teacherRow, cachedVersion] = [row ?? undefined, cached?.version];
    // The cookie's school is not the one the request names: like a school that does not exist.
    if (row && tenant.slug !== null && row.school.slug !== tenant.slug)
      return refuse(c, reader, () => jsonError(c, 404, "School not found"));
    [book, schoolName] = row ? [row.book, row.school.name] : [null, null];
  } else if (bookId) {
    book = await findBook(db, bookId);
  }
  if (!book) return refuse(c, reader, () => jsonError(c, 404, "Book not found"));
  const ready = await cachedReadySet(db, book);
  if (!ready) {
    const state = await readingState(db, book);
    return refuse(c, reader, () =>
      state === "preparing"
        ? jsonError(c, 409, "This book is still being prepared. Please check back in a few minutes.", { status: "preparing" })
        : jsonError(c, 404, "This book does not have a PDF file available", { status: "no-pdf" }),
    );
  }
  const page = n === null ? null : (ready.pages.get(n) ?? null);
  return { db, reader, book, schoolName, set: ready.set, page, row: teacherRow, cachedVersion };
}

/** Page `:n` of the set, or the answer refusing it (400 malformed, 404 out of range). */
async function pageOf(c: Context<Env>, found: Found): Promise<PageRow | Refusal> {
  const { page, reader } = found;
  if (requestedPage(c) === null) return refuse(c, reader, () => jsonError(c, 400, "The page number must be a whole number from 1"));
  if (!page) return refuse(c, reader, () => jsonError(c, 404, `This book has ${found.set.pageCount} pages`));
  if (page.error !== null) return refuse(c, reader, () => jsonError(c, 404, "This page could not be displayed.", { status: "failed" }));
  return page;
}

/** A book opened (its page list), for the usage reports (docs/decisions/0019). */
function recordOpen(c: Context<Env>, { reader, book }: Found) {
  if (reader.kind !== "teacher" || c.var.reader.kind !== "teacher") return;
  const { teacher } = c.var.reader.teacher;
  recordAfterResponse(c.var.context.ctx, c.env, reader.schoolId, { bookId: book.id, teacherId: teacher.id, pages: 0 });
}

/** The teacher whose page this is, with the lines stamped on it; for an admin, nothing to stamp. */
type Spent = { watermark: string[] | null; teacherId?: number };

/**
 * A teacher's page, in one call to the school's object: the session checked, a page of the
 * budget spent and, when `countsAsRead`, the page counted (docs/decisions/0024). The 401 when
 * the session is gone, the 429 when the budget is spent. Admins pay nothing.
 */
async function spend(c: Context<Env>, found: Found, countsAsRead: boolean): Promise<Spent | Refusal | typeof STALE> {
  const { reader, book, set } = found;
  if (reader.kind !== "teacher") return { watermark: null };
  const result = await schoolObject(c.env, reader.schoolId).readPage(reader.schoolId, {
    tokenHash: reader.tokenHash,
    bookId: book.id,
    pageCount: set.pageCount ?? 1,
    countsAsRead,
    catalogueVersion: found.cachedVersion,
  });
  if (result.status === "none" || result.status === "disabled") return signedOut(c, result.status);
  if (result.status === "stale") {
    forgetPageViewBook(reader.schoolId, book.id);
    return STALE;
  }
  if (result.status === "limit") {
    const { waitMs } = result;
    return jsonError(c, 429, readingLimitMessage(waitMs), {}, { "Retry-After": String(Math.ceil(waitMs / 1000)) });
  }
  if (found.row && found.cachedVersion === undefined) rememberPageViewBook(reader.schoolId, found.row, result.catalogueVersion);
  const { teacher } = result;
  return { watermark: [teacher.name, teacher.email, found.schoolName ?? "", stampDate()], teacherId: teacher.id };
}

/**
 * Runs a page route; when the book it remembered turned out stale (an admin's change: the object
 * said so before spending anything, or the remembered page set is gone from R2), once more with
 * the book read from D1.
 */
async function withFreshRetry<R>(run: (fresh: boolean) => Promise<R | typeof STALE>): Promise<R> {
  const first = await run(false);
  if (first !== STALE) return first;
  const second = await run(true);
  if (second === STALE) throw new Error("A book read from D1 cannot be stale");
  return second;
}

/** A stored file of a remembered page set is gone: the set was replaced or the book deleted since. */
function goneFromR2(found: Found): typeof STALE | null {
  if (found.reader.kind !== "teacher" || found.cachedVersion === undefined) return null;
  forgetPageViewBook(found.reader.schoolId, found.book.id);
  return STALE;
}

async function readJson(bucket: R2Bucket, key: string): Promise<unknown | null> {
  const object = await bucket.get(key);
  return object ? object.json() : null;
}

/** A page as an image: stamped for a teacher (below 1024 px asked: a 640 px preview), as stored for an admin. */
async function pageImage(c: Context<Env>, fresh: boolean) {
  const found = await readableBook(c, requestedPage(c), fresh);
  if (found instanceof Response) return found;
  const rawWidth = c.req.query("w");
  if (rawWidth !== undefined && (!WIDTH.test(rawWidth) || Number(rawWidth) > MAX_WIDTH)) {
    return refuse(c, found.reader, () => jsonError(c, 400, `The width must be a whole number from 1 to ${MAX_WIDTH}`));
  }
  const page = await pageOf(c, found);
  if (page instanceof Response) return page;
  const requested = rawWidth === undefined ? 1024 : Number(rawWidth);
  // A preview is followed by the same page's sharp image: it costs budget, but that one is the read.
  const preview = found.reader.kind === "teacher" && requested < Math.min(...PAGE_WIDTHS);
  const spent = await spend(c, found, !preview);
  if (spent === STALE || spent instanceof Response) return spent;
  const width = storedWidthFor(requested);
  const object = await c.env.BOOKS.get(pageImageKey(found.book.id, found.set.id, page.n, width, STORED_PAGE_EXTENSION));
  if (!object) return goneFromR2(found) ?? jsonError(c, 404, "This page could not be displayed.");
  const headers = {
    ...NO_STORE,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (!spent.watermark) {
    return new Response(object.body, {
      headers: {
        ...headers,
        "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
        "Content-Length": String(object.size),
      },
    });
  }
  const mark = spent.teacherId === undefined ? undefined : await markSignsFor(c.env, spent.teacherId);
  const stamped = await stampPage(new Uint8Array(await object.arrayBuffer()), spent.watermark, preview ? PREVIEW_WIDTH : undefined, mark);
  return new Response(stamped.bytes as Uint8Array<ArrayBuffer>, {
    headers: { ...headers, "Content-Type": stamped.contentType, "Content-Length": String(stamped.bytes.byteLength) },
  });
}

/** A page's text runs with their positions (the text layer). */
async function pageText(c: Context<Env>, fresh: boolean) {
  const found = await readableBook(c, requestedPage(c), fresh);
  if (found instanceof Response) return found;
  const page = await pageOf(c, found);
  if (page instanceof Response) return page;
  const spent = await spend(c, found, false);
  if (spent === STALE || spent instanceof Response) return spent;
  const text = (await readJson(c.env.BOOKS, pageTextKey(found.book.id, found.set.id, page.n))) as PageText | null;
  if (!text) return goneFromR2(found) ?? jsonError(c, 404, "This page has no text.");
  return c.json({ n: page.n, ...text }, 200, NO_STORE);
}

export const bookPagesApi = new Hono<Env>()
  .get("/:id/pages", requireRole("reader"), async (c) => {
    const found = await readableBook(c, null, true);
    if (found instanceof Response) return found;
    recordOpen(c, found);
    return c.json(await listPages(found.db, found.set), 200, NO_STORE);
  })
  .get("/:id/pages/:n", requireRole("reader"), (c) => withFreshRetry((fresh) => pageImage(c, fresh)))
  .get("/:id/pages/:n/text", requireRole("reader"), (c) => withFreshRetry((fresh) => pageText(c, fresh)))
  .get("/:id/outline", requireRole("reader"), async (c) => {
    const found = await readableBook(c, null, true);
    if (found instanceof Response) return found;
    const outline = found.set.hasOutline
      ? ((await readJson(c.env.BOOKS, outlineKey(found.book.id, found.set.id))) as OutlineItem[] | null)
      : null;
    return c.json({ outline: outline ?? [] }, 200, NO_STORE);
  })
  .get("/:id/search", requireRole("reader"), (c) => withFreshRetry((fresh) => bookSearch(c, fresh)));

/** The pages that hold a word, with snippets. */
async function bookSearch(c: Context<Env>, fresh: boolean) {
  const found = await readableBook(c, null, fresh);
  if (found instanceof Response) return found;
  const parsed = parseInput(SearchQuerySchema, { q: c.req.query("q") ?? "" });
  if (!parsed.ok) return jsonError(c, 400, parsed.error);
  // Snippets are text of the book too: a search costs a page of the budget, so queries cannot scrape it.
  const spent = await spend(c, found, false);
  if (spent === STALE || spent instanceof Response) return spent;
  const texts = ((await readJson(c.env.BOOKS, searchTextKey(found.book.id, found.set.id))) as string[] | null) ?? [];
  const { results, total } = searchPages(texts, parsed.data.q);
  return c.json({ query: parsed.data.q, results, total }, 200, NO_STORE);
}

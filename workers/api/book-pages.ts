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
import type { Db } from "../db/client.ts";
import type { Book, PageSet } from "../db/schema.ts";
import { type Reader, type ReaderApiEnv, requireReader } from "../http/guards.ts";
import type { OutlineItem, PageText } from "../page-images/page-content.ts";
import { outlineKey, pageImageKey, pageTextKey, searchTextKey } from "../page-images/page-keys.ts";
import { findPage, listPages, readingState, readySet, storedWidthFor } from "../page-images/page-reading.ts";
import { searchPages } from "../page-images/page-search.ts";
import { stampPage } from "../page-images/stamp.ts";
import { findSchoolBook } from "../reading/library.ts";
import { readingLimitMessage, spendPage } from "../reading/page-budget.ts";
import { recordAfterResponse } from "../reading/usage-events.ts";
import { parseId } from "../validation/schemas.ts";

type Env = ReaderApiEnv;

type PageReader = { kind: "admin" } | { kind: "teacher"; teacherId: number; schoolId: number; watermark: string[] };

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

function pageReader(reader: Reader): PageReader {
  if (reader.kind === "admin") return { kind: "admin" };
  const { teacher, school } = reader.teacher;
  return {
    kind: "teacher",
    teacherId: teacher.id,
    schoolId: school.id,
    watermark: [teacher.name, teacher.email, school.name, stampDate()],
  };
}

type PageRow = Awaited<ReturnType<typeof findPage>>;
type Found = { db: Db; reader: PageReader; book: Book; set: PageSet; page: PageRow };

/** The `:n` of the URL when it is a well-formed page number, else null. */
function requestedPage(c: Context<Env>): number | null {
  const raw = c.req.param("n") ?? "";
  return PAGE_NUMBER.test(raw) ? Number(raw) : null;
}

/**
 * The reader, the book they may read and its readable page set (with page `n`'s row, read in the
 * same round trip as the set: the book names the set); or the answer refusing them.
 */
async function readableBook(c: Context<Env>, n: number | null = null): Promise<Found | Refusal> {
  const { db } = c.var.context;
  const reader = pageReader(c.var.reader);
  const bookId = parseId(c.req.param("id"));
  const book = !bookId ? null : reader.kind === "teacher" ? await findSchoolBook(db, reader.schoolId, bookId) : await findBook(db, bookId);
  if (!book) return jsonError(c, 404, "Book not found");
  const [set, page] = await Promise.all([readySet(db, book), n !== null && book.pageSetId ? findPage(db, book.pageSetId, n) : null]);
  if (!set) {
    const state = await readingState(db, book);
    return state === "preparing"
      ? jsonError(c, 409, "This book is still being prepared. Please check back in a few minutes.", { status: "preparing" })
      : jsonError(c, 404, "This book does not have a PDF file available", { status: "no-pdf" });
  }
  return { db, reader, book, set, page };
}

/** Page `:n` of the set, or the answer refusing it (400 malformed, 404 out of range). */
function pageOf(c: Context<Env>, found: Found) {
  if (requestedPage(c) === null) return jsonError(c, 400, "The page number must be a whole number from 1");
  const { page } = found;
  if (!page) return jsonError(c, 404, `This book has ${found.set.pageCount} pages`);
  if (page.error !== null) return jsonError(c, 404, "This page could not be displayed.", { status: "failed" });
  return page;
}

/** A usage event for a teacher (docs/decisions/0019): a page served, or the book opened. */
function recordRead(c: Context<Env>, { reader, db, book }: Found, pages: 0 | 1) {
  if (reader.kind !== "teacher") return;
  const event = { schoolId: reader.schoolId, bookId: book.id, teacherId: reader.teacherId, pages };
  recordAfterResponse(c.var.context.ctx, db, event);
}

/** Teachers pay one page of their budget; the 429 when it is spent. */
async function spend(c: Context<Env>, found: Found, countsAsRead: boolean): Promise<Refusal | null> {
  const { reader, db, book, set } = found;
  if (reader.kind !== "teacher") return null;
  const waitMs = await spendPage(db, reader.teacherId, book.id, set.pageCount ?? 1);
  if (waitMs !== null) {
    return jsonError(c, 429, readingLimitMessage(waitMs), {}, { "Retry-After": String(Math.ceil(waitMs / 1000)) });
  }
  if (countsAsRead) recordRead(c, found, 1);
  return null;
}

async function readJson(bucket: R2Bucket, key: string): Promise<unknown | null> {
  const object = await bucket.get(key);
  return object ? object.json() : null;
}

export const bookPagesApi = new Hono<Env>()
  .get("/:id/pages", requireReader, async (c) => {
    const found = await readableBook(c);
    if (found instanceof Response) return found;
    recordRead(c, found, 0);
    return c.json(await listPages(found.db, found.set), 200, NO_STORE);
  })
  .get("/:id/pages/:n", requireReader, async (c) => {
    const found = await readableBook(c, requestedPage(c));
    if (found instanceof Response) return found;
    const rawWidth = c.req.query("w");
    if (rawWidth !== undefined && (!WIDTH.test(rawWidth) || Number(rawWidth) > MAX_WIDTH)) {
      return jsonError(c, 400, `The width must be a whole number from 1 to ${MAX_WIDTH}`);
    }
    const page = pageOf(c, found);
    if (page instanceof Response) return page;
    const requested = rawWidth === undefined ? 1024 : Number(rawWidth);
    // A preview is followed by the same page's sharp image: it costs budget, but that one is the read.
    const preview = found.reader.kind === "teacher" && requested < Math.min(...PAGE_WIDTHS);
    const refused = await spend(c, found, !preview);
    if (refused) return refused;
    const width = storedWidthFor(requested);
    const object = await c.env.BOOKS.get(pageImageKey(found.book.id, found.set.id, page.n, width, STORED_PAGE_EXTENSION));
    if (!object) return jsonError(c, 404, "This page could not be displayed.");
    const headers = {
      ...NO_STORE,
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "same-origin",
    };
    if (found.reader.kind === "admin") {
      return new Response(object.body, {
        headers: {
          ...headers,
          "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
          "Content-Length": String(object.size),
        },
      });
    }
    const stamped = await stampPage(
      new Uint8Array(await object.arrayBuffer()),
      found.reader.watermark,
      preview ? PREVIEW_WIDTH : undefined,
    );
    return new Response(stamped.bytes as Uint8Array<ArrayBuffer>, {
      headers: { ...headers, "Content-Type": stamped.contentType, "Content-Length": String(stamped.bytes.byteLength) },
    });
  })
  .get("/:id/pages/:n/text", requireReader, async (c) => {
    const found = await readableBook(c, requestedPage(c));
    if (found instanceof Response) return found;
    const page = pageOf(c, found);
    if (page instanceof Response) return page;
    const refused = await spend(c, found, false);
    if (refused) return refused;
    const text = (await readJson(c.env.BOOKS, pageTextKey(found.book.id, found.set.id, page.n))) as PageText | null;
    if (!text) return jsonError(c, 404, "This page has no text.");
    return c.json({ n: page.n, ...text }, 200, NO_STORE);
  })
  .get("/:id/outline", requireReader, async (c) => {
    const found = await readableBook(c);
    if (found instanceof Response) return found;
    const outline = found.set.hasOutline
      ? ((await readJson(c.env.BOOKS, outlineKey(found.book.id, found.set.id))) as OutlineItem[] | null)
      : null;
    return c.json({ outline: outline ?? [] }, 200, NO_STORE);
  })
  .get("/:id/search", requireReader, async (c) => {
    const found = await readableBook(c);
    if (found instanceof Response) return found;
    const parsed = SearchQuerySchema.safeParse({ q: c.req.query("q") ?? "" });
    if (!parsed.success) return jsonError(c, 400, parsed.error.issues[0]?.message ?? "Invalid search");
    // Snippets are text of the book too: a search costs a page of the budget, so queries cannot scrape it.
    const refused = await spend(c, found, false);
    if (refused) return refused;
    const texts = ((await readJson(c.env.BOOKS, searchTextKey(found.book.id, found.set.id))) as string[] | null) ?? [];
    const { results, total } = searchPages(texts, parsed.data.q);
    return c.json({ query: parsed.data.q, results, total }, 200, NO_STORE);
  });

/**
 * Preparing a book's pages, for admins (the browser renderer in the book page drives these):
 *   GET    /api/books/:id/page-sets                       what is ready and what is being prepared
 *   POST   /api/books/:id/page-sets { pageCount }          open (or resume) the set to render
 *   GET    /api/books/:id/page-sets/:setId/pdf             the set's PDF, whole, to render from
 *   PUT    /api/books/:id/page-sets/:setId/pages/:n        multipart: `w1024`, `w2048` images, `text` JSON
 *   PUT    /api/books/:id/page-sets/:setId/pages/:n/failure { width, height, error }
 *   POST   /api/books/:id/page-sets/:setId/complete        { outline, text[] }: the book reads this set;
 *          422 when every page failed, with `bookRemoved: true` when that deleted a book added with this PDF
 *   DELETE /api/books/:id/page-sets/:setId                 abandon a set still preparing
 * A set of another book answers 404 like one that does not exist.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { cleanExtractedStrings } from "../../app/lib/rules/extracted-text.ts";
import { PAGE_WIDTHS } from "../../app/lib/rules/page-format.ts";
import { findBook } from "../books/detail.ts";
import { bookPagesStatus } from "../books/pages-status.ts";
import { pdfResponse } from "../books/pdf-stream.ts";
import { type AdminApiEnv, actorOf, requireRole } from "../http/guards.ts";
import { parseInput, validate } from "../http/validate.ts";
import { completePageSet } from "../page-images/complete-set.ts";
import { CompletePageSetSchema, PageFailureSchema, PageTextSchema } from "../page-images/page-content.ts";
import {
  abandonSet,
  findPageSet,
  MAX_PAGE_IMAGE_BYTES,
  MAX_PAGES,
  openPageSet,
  pageSetProgress,
  storePage,
  storePageFailure,
} from "../page-images/page-sets.ts";
import { PageNumberTextSchema, PageSetIdSchema, paramOrNull, parseId } from "../validation/schemas.ts";

const OpenSchema = z.object({ pageCount: z.number().int().min(1, "The page count must be at least 1").max(MAX_PAGES) });
const MAX_PAGE_BODY = 2 * MAX_PAGE_IMAGE_BYTES + 8 * 1024 * 1024;

const BOOK_NOT_FOUND = { error: "Book not found" } as const;
const SET_NOT_FOUND = { error: "These pages were replaced by a newer upload" } as const;

async function bookAndSet(c: Context<AdminApiEnv>) {
  const db = c.var.context.db;
  const bookId = parseId(c.req.param("id"));
  const book = bookId ? await findBook(db, bookId) : null;
  if (!book) return null;
  const setId = paramOrNull(PageSetIdSchema, c.req.param("setId"));
  const set = setId ? await findPageSet(db, book.id, setId) : null;
  return { db, book, set };
}

function pageNumber(c: Context<AdminApiEnv>): number | null {
  return paramOrNull(PageNumberTextSchema, c.req.param("n"));
}

export const adminPageSetsApi = new Hono<AdminApiEnv>()
  .use("/:id/page-sets/*", requireRole("admin"))
  .use("/:id/page-sets", requireRole("admin"))
  .get("/:id/page-sets", async (c) => {
    const found = await bookAndSet(c);
    if (!found) return c.json(BOOK_NOT_FOUND, 404);
    return c.json(await bookPagesStatus(found.db, found.book));
  })
  .post("/:id/page-sets", validate("json", OpenSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found) return c.json(BOOK_NOT_FOUND, 404);
    const opened = await openPageSet(found.db, found.book, c.req.valid("json").pageCount);
    if (!opened.ok) return c.json({ error: opened.error }, opened.status);
    const progress = await pageSetProgress(found.db, opened.set);
    return c.json({ ...progress, widths: [...PAGE_WIDTHS], pdfUrl: `/api/books/${found.book.id}/page-sets/${opened.set.id}/pdf` });
  })
  .get("/:id/page-sets/:setId/pdf", async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const object = await c.env.BOOKS.get(found.set.pdfKey);
    if (!object) return c.json({ error: "The PDF of these pages is gone; upload it again" }, 404);
    return pdfResponse(object, object.body, null, null);
  })
  .put("/:id/page-sets/:setId/pages/:n", async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const n = pageNumber(c);
    if (n === null) return c.json({ error: "The page number must be a whole number from 1" }, 400);
    const length = Number(c.req.header("Content-Length") ?? Number.NaN);
    if (!(length <= MAX_PAGE_BODY)) return c.json({ error: "A page's upload must state its length and be at most 24 MB" }, 413);
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      return c.json({ error: "Send the page as multipart/form-data" }, 400);
    }
    const images = new Map<number, Uint8Array>();
    for (const width of PAGE_WIDTHS) {
      const file = form.get(`w${width}`);
      if (file instanceof File) images.set(width, new Uint8Array(await file.arrayBuffer()));
    }
    let text: unknown;
    try {
      text = JSON.parse(String(form.get("text") ?? ""));
    } catch {
      return c.json({ error: "Send the page's text as JSON" }, 400);
    }
    // Text out of a PDF is cleaned, not refused (docs/decisions/0036): before parseInput's generic control-character check.
    const parsedText = parseInput(PageTextSchema, cleanExtractedStrings(text));
    if (!parsedText.ok) return c.json({ error: parsedText.error, field: parsedText.field ? `text.${parsedText.field}` : "text" }, 400);
    const stored = await storePage(found.db, c.env.BOOKS, found.set, n, { images, text: parsedText.data });
    if (!stored.ok) return c.json({ error: stored.error }, stored.status);
    return c.json({ n });
  })
  .put("/:id/page-sets/:setId/pages/:n/failure", validate("json", PageFailureSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const n = pageNumber(c);
    if (n === null) return c.json({ error: "The page number must be a whole number from 1" }, 400);
    const stored = await storePageFailure(found.db, found.set, n, c.req.valid("json"));
    if (!stored.ok) return c.json({ error: stored.error }, stored.status);
    return c.json({ n });
  })
  .post("/:id/page-sets/:setId/complete", validate("json", CompletePageSetSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const result = await completePageSet(found.db, c.env.BOOKS, actorOf(c), found.book, found.set, c.req.valid("json"));
    if (!result.ok) {
      const { error, missing, bookRemoved } = result;
      return c.json({ error, ...(missing ? { missing } : {}), ...(bookRemoved ? { bookRemoved } : {}) }, result.status);
    }
    return c.json(result.book);
  })
  .delete("/:id/page-sets/:setId", async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    if (found.set.status !== "preparing") return c.json({ error: "These pages are the book's; replace the PDF instead" }, 409);
    await abandonSet(found.db, c.env.BOOKS, found.set, found.book.pdfKey);
    return c.body(null, 204);
  });

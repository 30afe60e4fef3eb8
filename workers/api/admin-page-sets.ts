/**
 * Preparing a book's pages, for admins: the console's view and steering of the platform's work
 * (docs/decisions/0038, 0039), and the routes an external renderer (`npm run pages --url`) drives.
 *   GET    /api/books/preparation/status                   every book being prepared, and the outcomes of the last 30 days
 *   GET    /api/books/preparation/notices?after=<id>       the current admin's own outcomes since the one dismissed last
 *   GET    /api/books/:id/page-sets                        what is ready, what is being prepared, the latest outcome
 *   POST   /api/books/:id/page-sets                        {} (or no body): prepare the book again from its own PDF (202);
 *                                                          { pageCount }: an external renderer opens (or resumes) the set to render
 *   POST   /api/books/:id/page-sets/:setId/pages/:n/retry  "Try again" for a page that failed while the set is prepared
 *   DELETE /api/books/:id/page-sets/:setId                 cancel a set still preparing
 * The external renderer's own routes (npm run pages, scripts/lib/page-stores.ts):
 *   GET    /api/books/:id/page-sets/:setId/pdf             the set's PDF, whole, to render from
 *   PUT    /api/books/:id/page-sets/:setId/pages/:n        multipart: `w1024`, `w2048` images, `text` JSON
 *   PUT    /api/books/:id/page-sets/:setId/pages/:n/failure { width, height, error }
 *   POST   /api/books/:id/page-sets/:setId/complete        { outline, text[] }: the book reads this set;
 *          422 when every page failed, with `bookRemoved: true` when that deleted a book added with this PDF
 * A set of another book answers 404 like one that does not exist.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { cleanExtractedStrings } from "#shared/rules/extracted-text.ts";
import { PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import { findBook } from "../books/detail.ts";
import { pdfResponse } from "../books/pdf-stream.ts";
import { type AdminApiEnv, actorOf, requireRole } from "../http/guards.ts";
import { failureResponse } from "../http/run-command.ts";
import { parseInput, validate } from "../kernel/validate.ts";
import { completePageSet } from "../page-images/complete-set.ts";
import { CompletePageSetSchema, PageFailureSchema, PageTextSchema } from "../page-images/page-content.ts";
import {
  abandonSet,
  findPageSet,
  MAX_PAGE_IMAGE_BYTES,
  MAX_PAGES,
  openPageSet,
  type PageSetProgress,
  pageSetProgress,
  storePage,
  storePageFailure,
} from "../page-images/page-sets.ts";
import { prepareAgain, retryFailedPage } from "../page-images/preparation.ts";
import { bookPreparation, newNoticesFor, preparationBoard, refusalOfRemovedBook } from "../page-images/preparation-status.ts";
import { PageNumberTextSchema, PageSetIdSchema, paramOrNull, parseId } from "../validation/schemas.ts";

// Without a page count the platform prepares the book (prepareAgain); with one, an external renderer that counted the pages opens the set.
const PrepareSchema = z.object({ pageCount: z.number().int().min(1, "The page count must be at least 1").max(MAX_PAGES).optional() });
const NoticesQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, "after must be a notice id")
    .transform(Number)
    .optional(),
});
const MAX_PAGE_BODY = 2 * MAX_PAGE_IMAGE_BYTES + 8 * 1024 * 1024;

const BOOK_NOT_FOUND = { error: "Book not found" } as const;
const SET_NOT_FOUND = { error: "These pages were replaced by a newer upload" } as const;
const BAD_PAGE = { error: "The page number must be a whole number from 1" } as const;

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

/** A book that is gone because its PDF was refused says so (the Add Books flow's page polls it); else "Book not found". */
async function bookGone(c: Context<AdminApiEnv>) {
  const bookId = parseId(c.req.param("id"));
  const refusal = bookId ? await refusalOfRemovedBook(c.var.context.db, bookId) : null;
  return refusal ? { error: `This book was not added: ${refusal}`, bookRemoved: true as const } : BOOK_NOT_FOUND;
}

export const adminPageSetsApi = new Hono<AdminApiEnv>()
  .get("/preparation/status", requireRole("admin"), async (c) => {
    return c.json(await preparationBoard(c.var.context.db, c.var.admin.admin.id));
  })
  .get("/preparation/notices", requireRole("admin"), validate("query", NoticesQuerySchema), async (c) => {
    const notices = await newNoticesFor(c.var.context.db, c.var.admin.admin.id, c.req.valid("query").after ?? null);
    return c.json({ notices });
  })
  .use("/:id/page-sets/*", requireRole("admin"))
  .use("/:id/page-sets", requireRole("admin"))
  .get("/:id/page-sets", async (c) => {
    const found = await bookAndSet(c);
    if (!found) return c.json(await bookGone(c), 404);
    return c.json(await bookPreparation(found.db, found.book));
  })
  .post("/:id/page-sets", validate("json", PrepareSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found) return c.json(BOOK_NOT_FOUND, 404);
    const { pageCount } = c.req.valid("json");
    if (pageCount === undefined) {
      const started = await prepareAgain(found.db, c.env.PAGE_JOBS, found.book, actorOf(c).id);
      if (!started.ok) return failureResponse(c, started.failure);
      // A new set has no pages yet: the same answer as an opened set's progress, without what a renderer needs.
      const progress: PageSetProgress = { id: started.value.id, status: started.value.status, pageCount: null, done: [], failed: [] };
      return c.json(progress, 202);
    }
    const opened = await openPageSet(found.db, found.book, pageCount);
    if (!opened.ok) return failureResponse(c, opened.failure);
    const progress = await pageSetProgress(found.db, opened.value);
    return c.json({ ...progress, widths: [...PAGE_WIDTHS], pdfUrl: `/api/books/${found.book.id}/page-sets/${opened.value.id}/pdf` });
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
    if (n === null) return c.json(BAD_PAGE, 400);
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
    if (!stored.ok) return failureResponse(c, stored.failure);
    return c.json({ n });
  })
  .put("/:id/page-sets/:setId/pages/:n/failure", validate("json", PageFailureSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const n = pageNumber(c);
    if (n === null) return c.json(BAD_PAGE, 400);
    const stored = await storePageFailure(found.db, found.set, n, c.req.valid("json"));
    if (!stored.ok) return failureResponse(c, stored.failure);
    return c.json({ n });
  })
  .post("/:id/page-sets/:setId/complete", validate("json", CompletePageSetSchema), async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const result = await completePageSet(found.db, c.env.BOOKS, actorOf(c), found.book, found.set, c.req.valid("json"));
    // `missing` and `bookRemoved` travel in the failure's details.
    if (!result.ok) return failureResponse(c, result.failure);
    return c.json(result.value);
  })
  .post("/:id/page-sets/:setId/pages/:n/retry", async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    const n = pageNumber(c);
    if (n === null) return c.json(BAD_PAGE, 400);
    const { set } = found;
    if (set.pageCount !== null && n > set.pageCount) return c.json({ error: `Pages are numbered 1 to ${set.pageCount}` }, 400);
    const retried = await retryFailedPage(found.db, c.env.PAGE_JOBS, set, n);
    if (!retried.ok) return failureResponse(c, retried.failure);
    return c.json({ n }, 202);
  })
  .delete("/:id/page-sets/:setId", async (c) => {
    const found = await bookAndSet(c);
    if (!found?.set) return c.json(found ? SET_NOT_FOUND : BOOK_NOT_FOUND, 404);
    if (found.set.status !== "preparing") return c.json({ error: "These pages are the book's; replace the PDF instead" }, 409);
    await abandonSet(found.db, c.env.BOOKS, found.set, found.book.pdfKey);
    return c.body(null, 204);
  });

import { type Context, Hono } from "hono";
import { z } from "zod";
import { assignToAllSchools, grantAccess, listAccess, revokeAccess } from "../books/access.ts";
import { coverType, MAX_COVER_BYTES, replaceCover } from "../books/cover-upload.ts";
import { findBook, getAdminBook, getAdminBookDetail } from "../books/detail.ts";
import { createBook, deleteBook, updateBook } from "../books/editing.ts";
import { AccessParamSchema, BookCreateSchema, BookListQuerySchema, BookUpdateSchema, GrantAccessSchema } from "../books/input.ts";
import { listAdminBooks, searchAdminBooks } from "../books/list.ts";
import { booksNeedingPages } from "../books/pages-status.ts";
import {
  cancelPdfUpload,
  completePdfUpload,
  findPdfUpload,
  MAX_PDF_BYTES,
  PART_SIZE,
  readLimited,
  STALE_UPLOAD_MS,
  startPdfUpload,
  sweepStaleUploads,
  uploadPdfPart,
} from "../books/uploads.ts";
import { type AdminApiEnv, actorOf, requireAdmin } from "../http/guards.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import { blankToUndefined, IdTextSchema, parseId } from "../validation/schemas.ts";

const PageCountSchema = z
  .number()
  .int()
  .min(1, "The page count must be a whole number from 1 to 100000")
  .max(100_000, "The page count must be a whole number from 1 to 100000");

const SearchQuerySchema = z.object({ query: z.string().max(200).default("") });
const AwaitingPagesQuerySchema = z.object({ bookId: z.preprocess(blankToUndefined, IdTextSchema().optional()) });
const AccessQuerySchema = z
  .object({
    schoolId: z.preprocess(blankToUndefined, IdTextSchema().optional()),
    bookId: z.preprocess(blankToUndefined, IdTextSchema().optional()),
  })
  .refine((filter) => filter.schoolId !== undefined || filter.bookId !== undefined, "Give a schoolId, a bookId or both");
const StartPdfSchema = z.object({
  size: z.number().int().min(1, "The file is empty").max(MAX_PDF_BYTES, "The PDF must be at most 1 GB"),
  pageCount: PageCountSchema.nullish(),
});
const CompletePdfSchema = z.object({
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) }))
    .min(1)
    .max(10_000),
  pageCount: PageCountSchema.nullish(),
});

const NOT_FOUND = { error: "Book not found" } as const;
const UPLOAD_NOT_FOUND = { error: "Upload not found" } as const;

/** The book named by `:id`, or null (a malformed id is a book that does not exist). */
async function bookOf(c: Context<AdminApiEnv>) {
  const id = parseId(c.req.param("id"));
  return id ? findBook(c.var.context.db, id) : null;
}

/**
 * Admin catalogue endpoints under /api/books, mounted before the file endpoints (/:id/thumbnail,
 * /:id/pdf), which is why the guards sit on each route rather than on the whole app.
 * Literal paths come before /:id.
 */
export const adminBooksApi = new Hono<AdminApiEnv>()
  .get("/", requireAdmin, validate("query", BookListQuerySchema), async (c) => {
    return c.json(await listAdminBooks(c.var.context.db, c.req.valid("query")));
  })
  .get("/search", requireAdmin, validate("query", SearchQuerySchema), async (c) => {
    return c.json({ books: await searchAdminBooks(c.var.context.db, c.req.valid("query").query) });
  })
  // What `npm run pages` prepares when it goes through the running app (scripts/lib/page-stores.ts).
  .get("/awaiting-pages", requireAdmin, validate("query", AwaitingPagesQuerySchema), async (c) => {
    return c.json({ books: await booksNeedingPages(c.var.context.db, c.req.valid("query").bookId) });
  })
  .get("/access", requireAdmin, validate("query", AccessQuerySchema), async (c) => {
    return c.json({ access: await listAccess(c.var.context.db, c.req.valid("query")) });
  })
  .post("/access", requireAdmin, requireSameOrigin, validate("json", GrantAccessSchema), async (c) => {
    const result = await grantAccess(c.var.context.db, actorOf(c), c.req.valid("json"));
    if (!result.ok) return c.json({ error: result.error }, 400);
    return c.json({ created: result.created });
  })
  .delete("/access/:schoolId/:bookId", requireAdmin, requireSameOrigin, validate("param", AccessParamSchema), async (c) => {
    const { schoolId, bookId } = c.req.valid("param");
    const removed = await revokeAccess(c.var.context.db, c.env, actorOf(c), schoolId, bookId);
    if (!removed) return c.json({ error: "That school does not have that book" }, 404);
    return c.json({ ok: true });
  })
  .post("/", requireAdmin, requireSameOrigin, validate("json", BookCreateSchema), async (c) => {
    return c.json({ book: await createBook(c.var.context.db, actorOf(c), c.req.valid("json")) }, 201);
  })
  .get("/:id", requireAdmin, async (c) => {
    const id = parseId(c.req.param("id"));
    const book = id ? await getAdminBookDetail(c.var.context.db, id) : null;
    if (!book) return c.json(NOT_FOUND, 404);
    return c.json({ book });
  })
  .put("/:id", requireAdmin, requireSameOrigin, validate("json", BookUpdateSchema), async (c) => {
    const id = parseId(c.req.param("id"));
    const book = id ? await updateBook(c.var.context.db, actorOf(c), id, c.req.valid("json")) : null;
    if (!book) return c.json(NOT_FOUND, 404);
    return c.json({ book });
  })
  .delete("/:id", requireAdmin, requireSameOrigin, async (c) => {
    const id = parseId(c.req.param("id"));
    const deleted = id ? await deleteBook(c.var.context.db, c.env.BOOKS, actorOf(c), id) : false;
    if (!deleted) return c.json(NOT_FOUND, 404);
    return c.json({ ok: true });
  })
  .post("/:id/assign-all-schools", requireAdmin, requireSameOrigin, async (c) => {
    const book = await bookOf(c);
    if (!book) return c.json(NOT_FOUND, 404);
    return c.json({ assigned: await assignToAllSchools(c.var.context.db, actorOf(c), book.id) });
  })
  .put("/:id/upload/thumbnail", requireAdmin, requireSameOrigin, async (c) => {
    const book = await bookOf(c);
    if (!book) return c.json(NOT_FOUND, 404);
    const type = coverType(c.req.header("Content-Type"));
    if (!type) return c.json({ error: "Send a JPEG, PNG or WebP image" }, 415);
    const tooBig = { error: "The cover must be at most 2 MB" };
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_COVER_BYTES) return c.json(tooBig, 413);
    const bytes = await readLimited(c.req.raw.body, MAX_COVER_BYTES);
    if (!bytes) return c.json(tooBig, 413);
    const db = c.var.context.db;
    const result = await replaceCover(db, c.env.BOOKS, actorOf(c), book, { type, bytes });
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ book: await getAdminBook(db, book.id), notice: result.notice });
  })
  .post("/:id/upload/pdf", requireAdmin, requireSameOrigin, validate("json", StartPdfSchema), async (c) => {
    const book = await bookOf(c);
    if (!book) return c.json(NOT_FOUND, 404);
    const db = c.var.context.db;
    c.executionCtx.waitUntil(
      sweepStaleUploads(db, c.env.BOOKS, STALE_UPLOAD_MS).catch((error) => console.warn("Upload sweep failed", error)),
    );
    return c.json(await startPdfUpload(db, c.env.BOOKS, book.id, c.req.valid("json")));
  })
  .put("/:id/upload/pdf/:uploadId/:partNumber", requireAdmin, requireSameOrigin, async (c) => {
    const bookId = parseId(c.req.param("id"));
    const upload = bookId ? await findPdfUpload(c.var.context.db, bookId, c.req.param("uploadId")) : null;
    if (!upload) return c.json(UPLOAD_NOT_FOUND, 404);
    const partNumber = /^\d{1,5}$/.test(c.req.param("partNumber")) ? Number(c.req.param("partNumber")) : 0;
    const declared = Number(c.req.header("Content-Length") ?? 0);
    const bytes = declared > PART_SIZE ? null : await readLimited(c.req.raw.body, PART_SIZE);
    const result = await uploadPdfPart(c.env.BOOKS, upload, partNumber, bytes);
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ partNumber: result.partNumber, etag: result.etag });
  })
  .post("/:id/upload/pdf/:uploadId/complete", requireAdmin, requireSameOrigin, validate("json", CompletePdfSchema), async (c) => {
    const db = c.var.context.db;
    const book = await bookOf(c);
    const upload = book ? await findPdfUpload(db, book.id, c.req.param("uploadId")) : null;
    if (!book || !upload) return c.json(UPLOAD_NOT_FOUND, 404);
    const result = await completePdfUpload(db, c.env.BOOKS, actorOf(c), book, upload, c.req.valid("json"));
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ book: await getAdminBook(db, book.id), pageSet: result.pageSet });
  })
  .delete("/:id/upload/pdf/:uploadId", requireAdmin, requireSameOrigin, async (c) => {
    const db = c.var.context.db;
    const bookId = parseId(c.req.param("id"));
    const upload = bookId ? await findPdfUpload(db, bookId, c.req.param("uploadId")) : null;
    if (!upload) return c.json(UPLOAD_NOT_FOUND, 404);
    await cancelPdfUpload(db, c.env.BOOKS, upload);
    return c.json({ ok: true });
  });

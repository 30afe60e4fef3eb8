import { type Context, Hono } from "hono";
import { z } from "zod";
import { listAccess } from "../books/access.ts";
import {
  assignToAllSchoolsCommand,
  createBookCommand,
  deleteBookCommand,
  grantAccessCommand,
  revokeAccessCommand,
  updateBookCommand,
} from "../books/commands.ts";
import { coverType, MAX_COVER_BYTES, replaceCover } from "../books/cover-upload.ts";
import { findBook, getAdminBook, getAdminBookDetail } from "../books/detail.ts";
import { BookListQuerySchema } from "../books/input.ts";
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
import { type AdminApiEnv, actorOf, requireRole } from "../http/guards.ts";
import { failureResponse, runJson } from "../http/run-command.ts";
import { log } from "../kernel/log.ts";
import { validate } from "../kernel/validate.ts";
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
  .get("/", requireRole("admin"), validate("query", BookListQuerySchema), async (c) => {
    return c.json(await listAdminBooks(c.var.context.db, c.req.valid("query")));
  })
  .get("/search", requireRole("admin"), validate("query", SearchQuerySchema), async (c) => {
    return c.json({ books: await searchAdminBooks(c.var.context.db, c.req.valid("query").query) });
  })
  // What `npm run pages` prepares when it goes through the running app (scripts/lib/page-stores.ts).
  .get("/awaiting-pages", requireRole("admin"), validate("query", AwaitingPagesQuerySchema), async (c) => {
    return c.json({ books: await booksNeedingPages(c.var.context.db, c.req.valid("query").bookId) });
  })
  .get("/access", requireRole("admin"), validate("query", AccessQuerySchema), async (c) => {
    return c.json({ access: await listAccess(c.var.context.db, c.req.valid("query")) });
  })
  .post(
    "/access",
    requireRole("admin"),
    runJson(grantAccessCommand, (c, { created }) => c.json({ created })),
  )
  .delete(
    "/access/:schoolId/:bookId",
    requireRole("admin"),
    runJson(revokeAccessCommand, (c) => c.json({ ok: true }), { params: ["schoolId", "bookId"], body: false }),
  )
  .post(
    "/",
    requireRole("admin"),
    runJson(createBookCommand, (c, { book }) => c.json({ book }, 201)),
  )
  .get("/:id", requireRole("admin"), async (c) => {
    const id = parseId(c.req.param("id"));
    const book = id ? await getAdminBookDetail(c.var.context.db, id) : null;
    if (!book) return c.json(NOT_FOUND, 404);
    return c.json({ book });
  })
  .put(
    "/:id",
    requireRole("admin"),
    runJson(updateBookCommand, (c, { book }) => c.json({ book }), { params: ["id"] }),
  )
  .delete(
    "/:id",
    requireRole("admin"),
    runJson(deleteBookCommand, (c) => c.json({ ok: true }), { params: ["id"], body: false }),
  )
  .post(
    "/:id/assign-all-schools",
    requireRole("admin"),
    runJson(assignToAllSchoolsCommand, (c, { assigned }) => c.json({ assigned }), { params: ["id"], body: false }),
  )
  .put("/:id/upload/thumbnail", requireRole("admin"), async (c) => {
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
    if (!result.ok) return failureResponse(c, result.failure);
    return c.json({ book: await getAdminBook(db, book.id), notice: result.value.notice });
  })
  .post("/:id/upload/pdf", requireRole("admin"), validate("json", StartPdfSchema), async (c) => {
    const book = await bookOf(c);
    if (!book) return c.json(NOT_FOUND, 404);
    const db = c.var.context.db;
    c.executionCtx.waitUntil(
      sweepStaleUploads(db, c.env.BOOKS, STALE_UPLOAD_MS).catch((error) => log.warn("Upload sweep failed", { error })),
    );
    return c.json(await startPdfUpload(db, c.env.BOOKS, book.id, c.req.valid("json")));
  })
  .put("/:id/upload/pdf/:uploadId/:partNumber", requireRole("admin"), async (c) => {
    const bookId = parseId(c.req.param("id"));
    const upload = bookId ? await findPdfUpload(c.var.context.db, bookId, c.req.param("uploadId")) : null;
    if (!upload) return c.json(UPLOAD_NOT_FOUND, 404);
    const partNumber = /^\d{1,5}$/.test(c.req.param("partNumber")) ? Number(c.req.param("partNumber")) : 0;
    const declared = Number(c.req.header("Content-Length") ?? 0);
    const bytes = declared > PART_SIZE ? null : await readLimited(c.req.raw.body, PART_SIZE);
    const result = await uploadPdfPart(c.env.BOOKS, upload, partNumber, bytes);
    if (!result.ok) return failureResponse(c, result.failure);
    return c.json({ partNumber: result.value.partNumber, etag: result.value.etag });
  })
  .post("/:id/upload/pdf/:uploadId/complete", requireRole("admin"), validate("json", CompletePdfSchema), async (c) => {
    const db = c.var.context.db;
    const book = await bookOf(c);
    const upload = book ? await findPdfUpload(db, book.id, c.req.param("uploadId")) : null;
    if (!book || !upload) return c.json(UPLOAD_NOT_FOUND, 404);
    const result = await completePdfUpload(db, c.env.BOOKS, c.env.PAGE_JOBS, actorOf(c), book, upload, c.req.valid("json"));
    if (!result.ok) return failureResponse(c, result.failure);
    return c.json({ book: await getAdminBook(db, book.id), pageSet: result.value.pageSet });
  })
  .delete("/:id/upload/pdf/:uploadId", requireRole("admin"), async (c) => {
    const db = c.var.context.db;
    const bookId = parseId(c.req.param("id"));
    const upload = bookId ? await findPdfUpload(db, bookId, c.req.param("uploadId")) : null;
    if (!upload) return c.json(UPLOAD_NOT_FOUND, 404);
    await cancelPdfUpload(db, c.env.BOOKS, upload);
    return c.json({ ok: true });
  });

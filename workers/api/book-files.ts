import { Hono } from "hono";
import { z } from "zod";
import { COVER_WIDTHS } from "#shared/rules/book-category.ts";
import { openCover } from "../books/cover-renditions.ts";
import { findBook } from "../books/detail.ts";
import { pdfError, streamPdf } from "../books/pdf-stream.ts";
import type { Db } from "../db/client.ts";
import type { Book } from "../db/schema.ts";
import { type Reader, type ReaderApiEnv, requireRole } from "../http/guards.ts";
import { validate } from "../kernel/validate.ts";
import { findSchoolBook } from "../reading/library.ts";
import { parseId } from "../validation/schemas.ts";

/** The book, if this reader may see it: admins see every book, teachers their school's. */
export async function bookForReader(db: Db, reader: Reader, bookId: number): Promise<Book | null> {
  if (reader.kind === "admin") return findBook(db, bookId);
  if (reader.kind === "teacher") return findSchoolBook(db, reader.teacher.school.id, bookId);
  return null;
}

/** `?w=`: one of the cover's rendition widths; without it, the cover as uploaded. (`?v=` only versions the URL.) */
const CoverQuerySchema = z.object({
  w: z
    .string()
    .transform((text, ctx) => {
      const width = COVER_WIDTHS.find((w) => String(w) === text);
      if (width) return width;
      ctx.addIssue({ code: "custom", message: `The cover's width is one of ${COVER_WIDTHS.join(", ")}` });
      return z.NEVER;
    })
    .optional(),
});

export const bookFilesApi = new Hono<ReaderApiEnv>()
  .get("/:id/thumbnail", requireRole("reader"), validate("query", CoverQuerySchema), async (c) => {
    const { db } = c.var.context;
    const { reader } = c.var;
    const bookId = parseId(c.req.param("id"));
    const book = bookId ? await bookForReader(db, reader, bookId) : null;
    if (!book?.coverKey) return c.json({ error: "Book not found" }, 404);

    const object = await openCover(c.env.BOOKS, book.coverKey, c.req.valid("query").w ?? null, c.req.raw.headers);
    if (!object) return c.json({ error: "Book not found" }, 404);
    const headers = new Headers({
      ETag: object.httpEtag,
      // The URL carries the book's version, so a replaced cover gets a new URL.
      "Cache-Control": "private, max-age=86400",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
    });
    if (!("body" in object)) return new Response(null, { status: 304, headers });
    headers.set("Content-Length", String(object.size));
    return new Response(object.body, { headers });
  })
  // Hono answers HEAD with this GET route (and drops the body); streamPdf tells them apart.
  .get("/:id/pdf", async (c) => {
    const { db, admin, teacher } = c.var.context;
    if (!admin && !teacher) return pdfError(401, "Not signed in");
    // Teachers read page images (api/book-pages.ts); the file itself never goes to them, whatever they send.
    if (!admin) return pdfError(403, "Books are read in the Lectern reader; the PDF file is not available to teachers.");
    const bookId = parseId(c.req.param("id"));
    const book = bookId ? await bookForReader(db, { kind: "admin", admin }, bookId) : null;
    if (!book?.pdfKey) return pdfError(404, "Book not found");
    return streamPdf({ bucket: c.env.BOOKS, book: { id: book.id, title: book.title, pdfKey: book.pdfKey }, request: c.req.raw });
  });

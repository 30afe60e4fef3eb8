import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { getAdminSession, getTeacherSession } from "../auth/sessions.ts";
import { pdfError, streamPdf } from "../books/pdf-stream.ts";
import { type Db, getDb } from "../db/client.ts";
import { type Book, books } from "../db/schema.ts";
import { findSchoolBook, parseBookId } from "../reading/library.ts";

type Env = { Bindings: Cloudflare.Env };

type Reader = { kind: "admin" } | { kind: "teacher"; schoolId: number; teacherId: number };

/** Who is asking, if anyone: an admin, or a teacher (whose school decides which books exist). */
export async function identifyReader(db: Db, request: Request): Promise<Reader | null> {
  const admin = await getAdminSession(db, request);
  if (admin) return { kind: "admin" };
  const teacher = await getTeacherSession(db, request);
  if (!teacher) return null;
  return { kind: "teacher", schoolId: teacher.school.id, teacherId: teacher.teacher.id };
}

/** The book, if this reader may see it: admins see every book, teachers their school's. */
export async function bookForReader(db: Db, reader: Reader, bookId: number): Promise<Book | null> {
  if (reader.kind === "teacher") return findSchoolBook(db, reader.schoolId, bookId);
  const [book] = await db.select().from(books).where(eq(books.id, bookId)).limit(1);
  return book ?? null;
}

export const bookFilesApi = new Hono<Env>()
  .get("/:id/thumbnail", async (c) => {
    const db = getDb(c.env.DB);
    const reader = await identifyReader(db, c.req.raw);
    if (!reader) return c.json({ error: "Not signed in" }, 401);
    const bookId = parseBookId(c.req.param("id"));
    const book = bookId ? await bookForReader(db, reader, bookId) : null;
    if (!book?.coverKey) return c.json({ error: "Book not found" }, 404);

    const object = await c.env.BOOKS.get(book.coverKey, { onlyIf: c.req.raw.headers });
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
    const db = getDb(c.env.DB);
    const reader = await identifyReader(db, c.req.raw);
    if (!reader) return pdfError(401, "Not signed in");
    // Teachers read page images (api/book-pages.ts); the file itself never goes to them, whatever they send.
    if (reader.kind === "teacher") return pdfError(403, "Books are read in the Lectern reader; the PDF file is not available to teachers.");
    const bookId = parseBookId(c.req.param("id"));
    const book = bookId ? await bookForReader(db, reader, bookId) : null;
    if (!book?.pdfKey) return pdfError(404, "Book not found");
    return streamPdf({ bucket: c.env.BOOKS, book: { id: book.id, title: book.title, pdfKey: book.pdfKey }, request: c.req.raw });
  });

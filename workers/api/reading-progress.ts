import { Hono } from "hono";
import { z } from "zod";
import { getTeacherSession } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { findSchoolBook, parseBookId } from "../library.ts";
import { findProgress, saveProgress } from "../reading-progress.ts";
import { requireSameOrigin } from "./request-guards.ts";
import { validate } from "./validation.ts";

const ProgressSchema = z.object({ page: z.number().int().min(1).max(100_000) });

/** Where each teacher is in each book: PUT by the reader (debounced), GET to resume. */
export const readingProgressApi = new Hono<{ Bindings: Cloudflare.Env }>()
  .use(requireSameOrigin)
  .get("/:bookId", async (c) => {
    const db = getDb(c.env.DB);
    const session = await getTeacherSession(db, c.req.raw);
    if (!session) return c.json({ error: "Not signed in" }, 401);
    const bookId = parseBookId(c.req.param("bookId"));
    const book = bookId ? await findSchoolBook(db, session.school.id, bookId) : null;
    if (!book) return c.json({ error: "Book not found" }, 404);
    c.header("Cache-Control", "private, no-store");
    return c.json({ page: (await findProgress(db, session.teacher.id, book.id)) ?? 1 });
  })
  .put("/:bookId", validate("json", ProgressSchema), async (c) => {
    const db = getDb(c.env.DB);
    const session = await getTeacherSession(db, c.req.raw);
    if (!session) return c.json({ error: "Not signed in" }, 401);
    const bookId = parseBookId(c.req.param("bookId"));
    const book = bookId ? await findSchoolBook(db, session.school.id, bookId) : null;
    if (!book) return c.json({ error: "Book not found" }, 404);
    const { page } = c.req.valid("json");
    if (book.pageCount && page > book.pageCount) return c.json({ error: `page: this book has ${book.pageCount} pages` }, 400);
    await saveProgress(db, session.teacher.id, book.id, page);
    return c.body(null, 204);
  });

import { Hono } from "hono";
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { validate } from "../http/validate.ts";
import { findSchoolBook, listSchoolBooks, parseBookId, searchSchoolBooks, toTeacherBook } from "../reading/library.ts";
import { requireTeacherOfSlug, type TeacherEnv } from "./teacher-session.ts";

const SearchSchema = z.object({ search: z.string().trim().max(200, "at most 200 characters").optional() });
const QuerySchema = z.object({ query: z.string().trim().max(200, "at most 200 characters").default("") });

/**
 * A teacher's own school's shelf, mounted at /api/schools/slug/{slug}. The guard sits on each
 * route: a sub-app `use()` would also catch the public /api/schools/slug/{slug} itself.
 */
export const libraryApi = new Hono<TeacherEnv>()
  .get("/books", requireTeacherOfSlug, validate("query", SearchSchema), async (c) => {
    const { search } = c.req.valid("query");
    const books = await listSchoolBooks(getDb(c.env.DB), c.get("teacherSession").school.id, search || undefined);
    return c.json({ books: books.map(toTeacherBook) });
  })
  .get("/books/:bookId", requireTeacherOfSlug, async (c) => {
    const bookId = parseBookId(c.req.param("bookId"));
    if (!bookId) return c.json({ error: "Book not found" }, 404);
    const book = await findSchoolBook(getDb(c.env.DB), c.get("teacherSession").school.id, bookId);
    if (!book) return c.json({ error: "This book is not available for your school" }, 404);
    return c.json({ book: toTeacherBook(book) });
  })
  .get("/search-books", requireTeacherOfSlug, validate("query", QuerySchema), async (c) => {
    const { query } = c.req.valid("query");
    if (query.length < 3) return c.json({ books: [] });
    const books = await searchSchoolBooks(getDb(c.env.DB), c.get("teacherSession").school.id, query);
    return c.json({ books });
  });

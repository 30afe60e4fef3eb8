import { Hono } from "hono";
import { z } from "zod";
import { licenceEndedMessage } from "#shared/rules/licence.ts";
import { readShelfQuery, SEARCH_MIN_CHARS } from "#shared/rules/shelf-query.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { validate } from "../kernel/validate.ts";
import { listSchoolBooks, searchSchoolBooks, toLibraryBook, toTeacherBook } from "../reading/library.ts";
import { lookUpSchoolBook, SCHOOL_BOOK_MISSING } from "../reading/school-book.ts";
import { listShelfPage } from "../reading/shelf.ts";
import { parseId } from "../validation/schemas.ts";

const SearchSchema = z.object({ search: z.string().trim().max(200, "The search text can have at most 200 characters").optional() });
// The list's own parameters are read leniently (readShelfQuery), as the page's loader reads its URL.
const ShelfPageSchema = z.object({
  subject: z.string().optional(),
  grade: z.string().optional(),
  sort: z.string().optional(),
  q: z.string().optional(),
  mine: z.string().optional(),
  from: z.coerce
    .number("The list position must be a whole number of 0 or more")
    .int("The list position must be a whole number of 0 or more")
    .min(0, "The list position must be a whole number of 0 or more")
    .max(100_000, "The list position is too large")
    .default(0),
});
/** Books per page of the dashboard's list: the page's loader paints the first one. */
export const SHELF_PAGE = 48;

const QuerySchema = z.object({ query: z.string().trim().max(200, "The search text can have at most 200 characters").default("") });

/**
 * A teacher's own school's shelf, mounted at /api/schools/slug/{slug}: the request context reads
 * the school from that path and the guard admits only its teachers. The guard sits on each route:
 * a sub-app `use()` would also catch the public /api/schools/slug/{slug} itself.
 */
export const libraryApi = new Hono<TeacherApiEnv>()
  .get("/books", requireRole("teacher"), validate("query", SearchSchema), async (c) => {
    const { search } = c.req.valid("query");
    const books = await listSchoolBooks(c.var.context.db, c.var.teacher.school.id, search || undefined);
    return c.json({ books: books.map(toTeacherBook) });
  })
  // The dashboard's list past its first page, for the same query as its URL (?subject=&grade=&sort=&q=&mine=1).
  .get("/shelf", requireRole("teacher"), validate("query", ShelfPageSchema), async (c) => {
    const { from } = c.req.valid("query");
    const query = readShelfQuery(new URL(c.req.url).searchParams);
    const { teacher, school } = c.var.teacher;
    const books = await listShelfPage(c.var.context.db, school.id, teacher.id, query, from, SHELF_PAGE);
    return c.json({ books: books.map(toLibraryBook) });
  })
  .get("/books/:bookId", requireRole("teacher"), async (c) => {
    const bookId = parseId(c.req.param("bookId"));
    if (!bookId) return c.json({ error: SCHOOL_BOOK_MISSING["not-found"] }, 404);
    // No book at all, or a book of the catalogue that this school was not given: the spec's two texts.
    const found = await lookUpSchoolBook(c.var.context.db, c.var.teacher.school.id, bookId);
    if (found.reason === "licence-ended")
      return c.json({ error: licenceEndedMessage(found.endsOn), status: "licence-ended" as const }, 403);
    if (!found.book) return c.json({ error: SCHOOL_BOOK_MISSING[found.reason] }, 404);
    return c.json({ book: toTeacherBook({ ...found.book, licenceEndsOn: found.endsOn }) });
  })
  .get("/search-books", requireRole("teacher"), validate("query", QuerySchema), async (c) => {
    const { query } = c.req.valid("query");
    if (query.length < SEARCH_MIN_CHARS) return c.json({ books: [] });
    const books = await searchSchoolBooks(c.var.context.db, c.var.teacher.school.id, query);
    return c.json({ books });
  });

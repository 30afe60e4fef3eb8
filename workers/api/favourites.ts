import { type Context, Hono } from "hono";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { starBook, unstarBook } from "../reading/favourites.ts";
import { parseId } from "../validation/schemas.ts";

type Change = typeof starBook;

/** Stars or unstars the book the URL names for the signed-in teacher; 404 for any book their school lacks. */
async function change(c: Context<TeacherApiEnv>, apply: Change, starred: boolean) {
  const bookId = parseId(c.req.param("id"));
  const { teacher, school } = c.var.teacher;
  if (!bookId || !(await apply(c.var.context.db, teacher.id, school.id, bookId))) return c.json({ error: "Book not found" }, 404);
  return c.json({ bookId, starred });
}

/**
 * A teacher's 'My books', mounted at /api/books: PUT stars a book of their school, DELETE unstars
 * it. Both are idempotent (a repeated call answers the same), both answer 404 for a book of another
 * school exactly as for a book that does not exist.
 */
export const favouritesApi = new Hono<TeacherApiEnv>()
  .use("/:id/favourite", requireRole("teacher"))
  .put("/:id/favourite", (c) => change(c, starBook, true))
  .delete("/:id/favourite", (c) => change(c, unstarBook, false));

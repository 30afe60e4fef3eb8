import { asc, count, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { bookAccess, books } from "../db/schema.ts";
import { IdListSchema } from "../validation/schemas.ts";

// The messages of POST /api/books/access (workers/api/admin-books.ts), for one school's page.
export const AssignBooksSchema = z.object({ bookIds: IdListSchema("book") });

/** How many of a school's books its Assign Books page lists. */
export const SCHOOL_BOOKS_LISTED = 500;

/**
 * The books a school has, by title (the first SCHOOL_BOOKS_LISTED), and how many it has in all:
 * one round trip, both on book_access's primary key (school_id, book_id).
 */
export async function schoolBooks(db: Db, schoolId: number) {
  const [rows, [total]] = await db.batch([
    db
      .select({ id: books.id, title: books.title, author1: books.author1, gradeLevel: books.gradeLevel, subject: books.subject })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .orderBy(asc(books.title), asc(books.id))
      .limit(SCHOOL_BOOKS_LISTED),
    db.select({ n: count() }).from(bookAccess).where(eq(bookAccess.schoolId, schoolId)),
  ]);
  return { books: rows, total: total?.n ?? 0 };
}

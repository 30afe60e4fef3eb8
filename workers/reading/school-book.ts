import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books } from "../db/schema.ts";

/** The spec's two texts for a book a teacher cannot open (section 8). */
export const SCHOOL_BOOK_MISSING = {
  "not-found": "Book not found",
  "not-available": "This book is not available for your school",
} as const;

export type SchoolBookLookup = { book: Book; reason?: never } | { book: null; reason: keyof typeof SCHOOL_BOOK_MISSING };

/**
 * A school's book, or why there is none: no book has this id ("not-found"), or the catalogue has
 * it but the school was not given it ("not-available"). One query: the book, with the school's
 * access to it joined.
 */
export async function lookUpSchoolBook(db: Db, schoolId: number, bookId: number): Promise<SchoolBookLookup> {
  const [row] = await db
    .select({ book: books, assigned: bookAccess.bookId })
    .from(books)
    .leftJoin(bookAccess, and(eq(bookAccess.bookId, books.id), eq(bookAccess.schoolId, schoolId)))
    .where(eq(books.id, bookId))
    .limit(1);
  if (!row) return { book: null, reason: "not-found" };
  if (row.assigned === null) return { book: null, reason: "not-available" };
  return { book: row.book };
}

import { and, eq } from "drizzle-orm";
import { type BookRow, preparingPdfSize } from "../books/pdf-state.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books } from "../db/schema.ts";

/** The spec's two texts for a book a teacher cannot open (section 8). */
export const SCHOOL_BOOK_MISSING = {
  "not-found": "Book not found",
  "not-available": "This book is not available for your school",
} as const;

export type SchoolBookLookup = { book: BookRow; reason?: never } | { book: null; reason: keyof typeof SCHOOL_BOOK_MISSING };

/**
 * A school's book, or why there is none: no book has this id ("not-found"), or the catalogue has
 * it but the school was not given it ("not-available"). One query: the book, with the school's
 * access to it joined and the PDF whose pages are being prepared, if any.
 */
export async function lookUpSchoolBook(db: Db, schoolId: number, bookId: number): Promise<SchoolBookLookup> {
  const [row] = await db
    .select({ book: books, preparingPdfSize, assigned: bookAccess.bookId })
    .from(books)
    .leftJoin(bookAccess, and(eq(bookAccess.bookId, books.id), eq(bookAccess.schoolId, schoolId)))
    .where(eq(books.id, bookId))
    .limit(1);
  if (!row) return { book: null, reason: "not-found" };
  if (row.assigned === null) return { book: null, reason: "not-available" };
  return { book: { ...row.book, preparingPdfSize: row.preparingPdfSize } };
}

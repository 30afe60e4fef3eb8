import { and, eq } from "drizzle-orm";
import { dayOf, licenceState } from "#shared/rules/licence.ts";
import { type BookRow, preparingPdfSize } from "../books/pdf-state.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books } from "../db/schema.ts";

/** The spec's two texts for a book a teacher cannot open (section 8). */
export const SCHOOL_BOOK_MISSING = {
  "not-found": "Book not found",
  "not-available": "This book is not available for your school",
} as const;

export type SchoolBookLookup =
  | { book: BookRow; reason?: never; endsOn: string | null }
  | { book: null; reason: keyof typeof SCHOOL_BOOK_MISSING }
  | { book: null; reason: "licence-ended"; endsOn: string };

/**
 * A school's book, or why there is none: no book has this id ("not-found"), the catalogue has it
 * but the school has no licence for it, or one that has not begun ("not-available"), or the
 * school's licence ended ("licence-ended", with its last day). One query: the book, with the
 * school's licence joined and the PDF whose pages are being prepared, if any.
 */
export async function lookUpSchoolBook(db: Db, schoolId: number, bookId: number): Promise<SchoolBookLookup> {
  const [row] = await db
    .select({ book: books, preparingPdfSize, startsOn: bookAccess.startsOn, endsOn: bookAccess.endsOn })
    .from(books)
    .leftJoin(bookAccess, and(eq(bookAccess.bookId, books.id), eq(bookAccess.schoolId, schoolId)))
    .where(eq(books.id, bookId))
    .limit(1);
  if (!row) return { book: null, reason: "not-found" };
  if (row.startsOn === null) return { book: null, reason: "not-available" };
  const state = licenceState({ startsOn: row.startsOn, endsOn: row.endsOn }, dayOf(Date.now()));
  if (state === "scheduled") return { book: null, reason: "not-available" };
  if (state === "expired" && row.endsOn) return { book: null, reason: "licence-ended", endsOn: row.endsOn };
  return { book: { ...row.book, preparingPdfSize: row.preparingPdfSize }, endsOn: row.endsOn };
}

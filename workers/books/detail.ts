import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books, schools } from "../db/schema.ts";
import { bookPreparation } from "../page-images/preparation-status.ts";
import { toTeacherBook } from "../reading/library.ts";
import { type BookRow, pdfStateOf, preparingPdfSize } from "./pdf-state.ts";

export function toAdminBook(book: BookRow, schoolCount: number) {
  const { id, title, author1, author2, description, isbn, gradeLevel, subject, thumbnailPath, pageCount, createdAt, readable } =
    toTeacherBook(book);
  return {
    id,
    title,
    author1,
    author2,
    description,
    isbn,
    gradeLevel,
    subject,
    thumbnailPath,
    // Admins may download the whole file (the spec's admin PDF view).
    pdfPath: book.pdfKey ? `/api/books/${book.id}/pdf` : null,
    pdfState: pdfStateOf(book),
    pagesReady: readable,
    // The book's own PDF, else the one whose pages are being prepared.
    pdfSize: book.pdfSize ?? book.preparingPdfSize,
    pageCount,
    createdAt,
    updatedAt: book.updatedAt,
    schoolCount,
  };
}

export type AdminBook = ReturnType<typeof toAdminBook>;

export async function findBook(db: Db, bookId: number): Promise<Book | null> {
  const [book] = await db.select().from(books).where(eq(books.id, bookId)).limit(1);
  return book ?? null;
}

/**
 * How many schools have a licence for the book of the row. Spelled out: in a one-table select
 * drizzle writes `${books.id}` as a bare "id", which inside this subquery is book_access's own id.
 */
export const SCHOOL_COUNT = sql<number>`(SELECT count(*) FROM book_access AS licence WHERE licence.book_id = "books"."id")`;

/** A book with its school count, as lists show it; null when there is no such book. */
export async function getAdminBook(db: Db, bookId: number): Promise<AdminBook | null> {
  const [row] = await db
    .select({
      book: books,
      preparingPdfSize,
      schoolCount: SCHOOL_COUNT,
    })
    .from(books)
    .where(eq(books.id, bookId))
    .limit(1);
  return row ? toAdminBook({ ...row.book, preparingPdfSize: row.preparingPdfSize }, row.schoolCount) : null;
}

/** A book's row and every school that has it, in one round trip. */
async function readBookAndSchools(db: Db, bookId: number) {
  const [found, assigned] = await db.batch([
    db.select({ book: books, preparingPdfSize }).from(books).where(eq(books.id, bookId)).limit(1),
    db
      .select({ id: schools.id, schoolName: schools.name, slug: schools.slug })
      .from(bookAccess)
      .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
      .where(eq(bookAccess.bookId, bookId))
      .orderBy(asc(schools.name), asc(schools.id)),
  ]);
  const [row] = found;
  return row ? { book: { ...row.book, preparingPdfSize: row.preparingPdfSize }, assigned } : null;
}

/** A book and every school that has it. */
export async function getAdminBookDetail(db: Db, bookId: number) {
  const found = await readBookAndSchools(db, bookId);
  return found ? { ...toAdminBook(found.book, found.assigned.length), schools: found.assigned } : null;
}

/** The admin's book page: the book, every school that has it, and the state of its pages. */
export async function getAdminBookPage(db: Db, bookId: number) {
  const found = await readBookAndSchools(db, bookId);
  if (!found) return null;
  const { book, assigned } = found;
  // The pages panel's first answer, as its API polls it (GET /api/books/:id/page-sets).
  return { book: { ...toAdminBook(book, assigned.length), schools: assigned }, pages: await bookPreparation(db, book) };
}

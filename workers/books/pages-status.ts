import { and, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, books, pageSets } from "../db/schema.ts";
import { readySet } from "../page-images/page-reading.ts";
import { findPreparingSet, pageSetProgress } from "../page-images/page-sets.ts";

/** What of a book's pages teachers read now, what is being prepared, and whether it has a PDF to prepare them from. */
export async function bookPagesStatus(db: Db, book: Pick<Book, "id" | "pageSetId" | "pdfKey">) {
  const [named, preparing] = await Promise.all([readySet(db, book), findPreparingSet(db, book.id)]);
  // A first PDF is read while it is prepared: the set the book names is then the one being prepared.
  const ready = named?.status === "ready" ? named : null;
  return {
    ready: ready ? await pageSetProgress(db, ready) : null,
    preparing: preparing ? await pageSetProgress(db, preparing) : null,
    hasPdf: Boolean(book.pdfKey),
  };
}

/**
 * Books whose pages are missing: a PDF but no ready set, or a set still being prepared (the one
 * given, if any, whatever its state). What `npm run pages` prepares, locally or through the app.
 */
export async function booksNeedingPages(db: Db, bookId?: number): Promise<Pick<Book, "id" | "title">[]> {
  const columns = { id: books.id, title: books.title };
  if (bookId) return db.select(columns).from(books).where(eq(books.id, bookId));
  const preparing = db.select({ id: pageSets.bookId }).from(pageSets).where(eq(pageSets.status, "preparing"));
  return db
    .select(columns)
    .from(books)
    .where(or(and(isNotNull(books.pdfKey), isNull(books.pageSetId)), inArray(books.id, preparing)))
    .orderBy(books.id);
}

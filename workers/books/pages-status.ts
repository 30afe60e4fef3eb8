import { and, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, books, pageSets } from "../db/schema.ts";

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

import type { Db } from "../db/client.ts";
import type { Book } from "../db/schema.ts";
import { readySet } from "../page-images/page-reading.ts";
import { findPreparingSet, pageSetProgress } from "../page-images/page-sets.ts";

/** What of a book's pages teachers read now, what is being prepared, and whether it has a PDF to prepare them from. */
export async function bookPagesStatus(db: Db, book: Pick<Book, "id" | "pageSetId" | "pdfKey">) {
  const [ready, preparing] = await Promise.all([readySet(db, book), findPreparingSet(db, book.id)]);
  return {
    ready: ready ? await pageSetProgress(db, ready) : null,
    preparing: preparing ? await pageSetProgress(db, preparing) : null,
    hasPdf: Boolean(book.pdfKey),
  };
}

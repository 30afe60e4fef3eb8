import { sql } from "drizzle-orm";
import type { Book } from "../db/schema.ts";

/**
 * An uploaded PDF is a page set until its pages are ready; only then does the book row name it
 * (docs/decisions/0013). This column, the size of the PDF whose pages are being prepared (null
 * when none is), is read with the book wherever its state is shown, so a book whose first PDF is
 * still being prepared does not look as if it had none. One index lookup per book
 * (page_sets_book_idx). Written out in full: drizzle leaves column names unqualified in a
 * one-table select, where `id` would be the page set's. Named, so batches (rows keyed by column
 * name) keep it apart from the book's own `pdf_size`; raw queries select `preparingPdfSize.sql`.
 */
export const preparingPdfSize = sql<number | null>`(SELECT page_sets.pdf_size FROM page_sets
  WHERE page_sets.book_id = books.id AND page_sets.status = 'preparing' LIMIT 1)`.as("preparingPdfSize");

/** A book row with its `preparingPdfSize`. */
export type BookRow = Book & { preparingPdfSize: number | null };

/** A book's PDF as readers meet it: pages to read, a PDF whose pages are being prepared, or no PDF. */
export type PdfState = "ready" | "preparing" | "none";

export function pdfStateOf(book: Pick<BookRow, "pageSetId" | "pdfKey" | "preparingPdfSize">): PdfState {
  if (book.pageSetId) return "ready";
  // A PDF of its own without pages is a book from before page images: its pages are prepared from it.
  return book.pdfKey || book.preparingPdfSize !== null ? "preparing" : "none";
}

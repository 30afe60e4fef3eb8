import { openLocalState } from "../../scripts/lib/local-state.ts";

export const RANGE_BOOK = { key: "bench/range-target.pdf", sizeBytes: 64 * 1024 * 1024, slug: "lincoln-high" } as const;

/**
 * Stores a 64 MiB file (a PDF header and zeros: the range endpoint never parses it) as a book of
 * lincoln-high, and returns its id. Only admins get its ranges (teachers read page images).
 */
export async function addRangeBook(persistTo: string): Promise<number> {
  const proxy = await openLocalState(persistTo);
  try {
    const { DB, BOOKS } = proxy.env;
    const bytes = new Uint8Array(RANGE_BOOK.sizeBytes);
    bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
    await BOOKS.put(RANGE_BOOK.key, bytes, { httpMetadata: { contentType: "application/pdf" } });
    const row = await DB.prepare(
      "INSERT INTO books (title, author1, pdf_key, pdf_size, page_count) VALUES ('Range bench book', 'Lectern bench', ?, ?, 1) RETURNING id",
    )
      .bind(RANGE_BOOK.key, bytes.byteLength)
      .first<{ id: number }>();
    await DB.prepare("INSERT INTO book_access (school_id, book_id) SELECT id, ? FROM schools WHERE slug = ?")
      .bind(row!.id, RANGE_BOOK.slug)
      .run();
    return row!.id;
  } finally {
    await proxy.dispose();
  }
}

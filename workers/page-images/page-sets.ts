/**
 * Page sets: a book's PDF turned into page images and text, once, when it arrives
 * (docs/decisions/0013). A renderer (the admin's browser, or `npm run pages`) opens a set, stores
 * each page (or reports that it cannot be rendered), and completes the set; completing points the
 * book at the set, and at the set's PDF, in one batch. Until then teachers read the previous set,
 * and a set whose every page failed is refused with its PDF, leaving the book as it was.
 */
import { and, eq, sql } from "drizzle-orm";
import { PAGE_WIDTHS, STORED_PAGE_EXTENSION, STORED_PAGE_TYPE } from "#shared/rules/page-format.ts";
import type { Db } from "../db/client.ts";
import { type Book, books, type PageSet, pageSetPages, pageSets } from "../db/schema.ts";
import { done, type Failed, failure, type Outcome } from "../kernel/failure.ts";
import type { PageText } from "./page-content.ts";
import { inspectPageImage } from "./page-image.ts";
import { deletePrefix, pageImageKey, pageSetPrefix, pageTextKey } from "./page-keys.ts";

export const MAX_PAGE_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_PAGES = 100_000;

export function newSetId(): string {
  return [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function findPageSet(db: Db, bookId: number, setId: string): Promise<PageSet | null> {
  const [set] = await db
    .select()
    .from(pageSets)
    .where(and(eq(pageSets.id, setId), eq(pageSets.bookId, bookId)))
    .limit(1);
  return set ?? null;
}

export async function findPreparingSet(db: Db, bookId: number): Promise<PageSet | null> {
  const [set] = await db
    .select()
    .from(pageSets)
    .where(and(eq(pageSets.bookId, bookId), eq(pageSets.status, "preparing")))
    .limit(1);
  return set ?? null;
}

/**
 * Drops a preparing set: its rows, its objects, and its PDF unless the book reads that PDF. A first
 * PDF read while it was prepared is no longer the book's (readySet in page-reading.ts).
 */
export async function abandonSet(db: Db, bucket: R2Bucket, set: PageSet, bookPdfKey: string | null): Promise<void> {
  await db.batch([
    db
      .update(books)
      .set({ pageSetId: null, pageCount: null })
      .where(and(eq(books.id, set.bookId), eq(books.pageSetId, set.id))),
    db.delete(pageSets).where(eq(pageSets.id, set.id)),
  ]);
  await deletePrefix(bucket, pageSetPrefix(set.bookId, set.id));
  if (set.pdfKey !== bookPdfKey) await bucket.delete(set.pdfKey);
}

/**
 * A new preparing set for a PDF that has just been uploaded (not yet the book's). A set that was
 * still preparing for an earlier upload is abandoned: only the newest upload can become the book's.
 */
export async function createUploadedPageSet(
  db: Db,
  bucket: R2Bucket,
  book: Book,
  pdf: { key: string; size: number; pageCount: number | null },
  startedBy: number | null = null,
): Promise<PageSet> {
  const previous = await findPreparingSet(db, book.id);
  if (previous) await abandonSet(db, bucket, previous, book.pdfKey);
  const [set] = await db
    .insert(pageSets)
    .values({ id: newSetId(), bookId: book.id, pdfKey: pdf.key, pdfSize: pdf.size, pageCount: pdf.pageCount, startedBy })
    .returning();
  return set!;
}

/**
 * The set a renderer should work on: the preparing one (resumed), else a new one for the book's
 * own PDF (a book from before page images, or pages to render again). The renderer has counted
 * the pages with pdf.js; a count that disagrees with the one recorded is a different file.
 */
export async function openPageSet(db: Db, book: Book, pageCount: number): Promise<Outcome<PageSet>> {
  const preparing = await findPreparingSet(db, book.id);
  if (preparing) {
    if (preparing.pageCount === null) {
      await db.update(pageSets).set({ pageCount }).where(eq(pageSets.id, preparing.id));
      return done({ ...preparing, pageCount });
    }
    if (preparing.pageCount !== pageCount) {
      return failure("conflict", `This PDF has ${preparing.pageCount} pages, not ${pageCount}: reload the page and try again`);
    }
    return done(preparing);
  }
  if (!book.pdfKey || !book.pdfSize) return failure("not-found", "This book has no PDF to prepare");
  const [set] = await db
    .insert(pageSets)
    .values({ id: newSetId(), bookId: book.id, pdfKey: book.pdfKey, pdfSize: book.pdfSize, pageCount })
    .returning();
  return done(set!);
}

export interface PageSetProgress {
  id: string;
  status: PageSet["status"];
  pageCount: number | null;
  done: number[];
  failed: { n: number; error: string }[];
}

/** Which pages of a set exist: rendered (`done`) or reported as impossible (`failed`). */
export async function pageSetProgress(db: Db, set: PageSet): Promise<PageSetProgress> {
  const rows = await db
    .select({ n: pageSetPages.n, error: pageSetPages.error })
    .from(pageSetPages)
    .where(eq(pageSetPages.setId, set.id))
    .orderBy(pageSetPages.n);
  return {
    id: set.id,
    status: set.status,
    pageCount: set.pageCount,
    done: rows.filter((row) => row.error === null).map((row) => row.n),
    failed: rows.filter((row) => row.error !== null).map((row) => ({ n: row.n, error: row.error! })),
  };
}

function checkPageNumber(set: PageSet, n: number): Failed | null {
  if (set.status !== "preparing") return failure("conflict", "These pages are already complete");
  if (set.pageCount === null) return failure("conflict", "Open the page set with its page count first");
  if (!Number.isSafeInteger(n) || n < 1 || n > set.pageCount) return failure("invalid", `Pages are numbered 1 to ${set.pageCount}`);
  return null;
}

/**
 * Stores page `n`: one image per width in PAGE_WIDTHS, each checked by content (type, width at
 * most the slot's, a sane height), and its text. The row goes in last, so a page that exists in
 * the table has all its objects; storing a page again replaces it.
 */
export async function storePage(
  db: Db,
  bucket: R2Bucket,
  set: PageSet,
  n: number,
  input: { images: Map<number, Uint8Array>; text: PageText },
): Promise<Outcome<null>> {
  const refused = checkPageNumber(set, n);
  if (refused) return refused;
  for (const width of PAGE_WIDTHS) {
    const bytes = input.images.get(width);
    if (!bytes) return failure("invalid", `The image at ${width} px is missing`);
    if (bytes.byteLength > MAX_PAGE_IMAGE_BYTES) return failure("too-large", `The image at ${width} px is over 8 MB`);
    const image = inspectPageImage(bytes);
    if (!image || image.type !== STORED_PAGE_TYPE) {
      return failure("unsupported", `The image at ${width} px is not a ${STORED_PAGE_EXTENSION.toUpperCase()} image`);
    }
    if (image.width > width || image.width < width / 8) {
      return failure("invalid", `The image at ${width} px is ${image.width} px wide`);
    }
  }
  if (input.images.size !== PAGE_WIDTHS.length) return failure("invalid", `Send exactly the widths ${PAGE_WIDTHS.join(" and ")}`);
  await Promise.all([
    ...PAGE_WIDTHS.map((width) =>
      bucket.put(pageImageKey(set.bookId, set.id, n, width, STORED_PAGE_EXTENSION), input.images.get(width)!, {
        httpMetadata: { contentType: STORED_PAGE_TYPE },
      }),
    ),
    bucket.put(pageTextKey(set.bookId, set.id, n), JSON.stringify(input.text), { httpMetadata: { contentType: "application/json" } }),
  ]);
  return recordPage(db, set, { n, width: input.text.width, height: input.text.height, error: null });
}

/** Records that page `n` cannot be rendered, and why: the admin sees it, teachers see a notice. */
export async function storePageFailure(
  db: Db,
  set: PageSet,
  n: number,
  failedPage: { width: number; height: number; error: string },
): Promise<Outcome<null>> {
  const refused = checkPageNumber(set, n);
  if (refused) return refused;
  return recordPage(db, set, { n, ...failedPage });
}

async function recordPage(
  db: Db,
  set: PageSet,
  page: { n: number; width: number; height: number; error: string | null },
): Promise<Outcome<null>> {
  // Only while the set is still preparing and still exists: a late page of an abandoned set is refused.
  const rows = await db.run(sql`
    INSERT INTO page_set_pages (set_id, n, width, height, error)
      SELECT ${set.id}, ${page.n}, ${page.width}, ${page.height}, ${page.error}
      WHERE EXISTS (SELECT 1 FROM page_sets WHERE id = ${set.id} AND status = 'preparing')
    ON CONFLICT (set_id, n) DO UPDATE SET width = excluded.width, height = excluded.height, error = excluded.error`);
  if (!rows.meta.changes) return failure("not-found", "These pages were replaced by a newer upload");
  return done(null);
}

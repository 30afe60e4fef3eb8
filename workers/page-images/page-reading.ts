import { eq } from "drizzle-orm";
import { PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import type { Db } from "../db/client.ts";
import { type Book, type PageSet, pageSetPages } from "../db/schema.ts";
import { findPageSet, findPreparingSet } from "./page-sets.ts";

/**
 * The book's readable set, if it has one: the pages teachers see. A book's first PDF is readable
 * while it is prepared (docs/decisions/0038): the renderer names the set on the book once its first
 * page is stored, and the set is `preparing` until its last page is; a replaced PDF's new set is
 * named only when complete.
 */
export async function readySet(db: Db, book: Pick<Book, "id" | "pageSetId">): Promise<PageSet | null> {
  if (!book.pageSetId) return null;
  return findPageSet(db, book.id, book.pageSetId);
}

export interface PageList {
  pageCount: number;
  widths: number[];
  /** `preparing`: not rendered yet (its size is a guess: the first page's); the reader waits for it. */
  pages: { n: number; width: number; height: number; failed?: true; preparing?: true }[];
  hasOutline: boolean;
}

export async function listPages(db: Db, set: PageSet): Promise<PageList> {
  const rows = await db
    .select({ n: pageSetPages.n, width: pageSetPages.width, height: pageSetPages.height, error: pageSetPages.error })
    .from(pageSetPages)
    .where(eq(pageSetPages.setId, set.id))
    .orderBy(pageSetPages.n);
  const pages: PageList["pages"] = rows.map((row) => ({
    n: row.n,
    width: row.width,
    height: row.height,
    ...(row.error !== null ? { failed: true as const } : {}),
  }));
  const pageCount = set.pageCount ?? rows.length;
  if (set.status === "preparing" && pages.length < pageCount) {
    const guess = pages[0] ?? { width: 612, height: 792 };
    const stored = new Map(pages.map((page) => [page.n, page]));
    return {
      pageCount,
      widths: [...PAGE_WIDTHS],
      pages: Array.from(
        { length: pageCount },
        (_, i) => stored.get(i + 1) ?? { n: i + 1, width: guess.width, height: guess.height, preparing: true as const },
      ),
      hasOutline: false,
    };
  }
  return { pageCount, widths: [...PAGE_WIDTHS], pages, hasOutline: set.hasOutline };
}

/** The stored width to serve for a requested one: the smallest that is at least as wide, else the largest. */
export function storedWidthFor(requested: number): number {
  return PAGE_WIDTHS.find((width) => width >= requested) ?? PAGE_WIDTHS[PAGE_WIDTHS.length - 1]!;
}

/** Whether a book has pages to read, is waiting for them, or has no PDF at all. */
export async function readingState(db: Db, book: Pick<Book, "id" | "pageSetId" | "pdfKey">): Promise<"ready" | "preparing" | "no-pdf"> {
  if (book.pageSetId) return "ready";
  if (book.pdfKey) return "preparing";
  return (await findPreparingSet(db, book.id)) ? "preparing" : "no-pdf";
}

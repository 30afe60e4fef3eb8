import { eq } from "drizzle-orm";
import { PAGE_WIDTHS } from "../../app/lib/rules/page-format.ts";
import type { Db } from "../db/client.ts";
import { type Book, type PageSet, pageSetPages } from "../db/schema.ts";
import { findPageSet, findPreparingSet } from "./page-sets.ts";

/** The book's readable set, if it has one: the pages teachers see. */
export async function readySet(db: Db, book: Pick<Book, "id" | "pageSetId">): Promise<PageSet | null> {
  if (!book.pageSetId) return null;
  return findPageSet(db, book.id, book.pageSetId);
}

export interface PageList {
  pageCount: number;
  widths: number[];
  pages: { n: number; width: number; height: number; failed?: true }[];
  hasOutline: boolean;
}

export async function listPages(db: Db, set: PageSet): Promise<PageList> {
  const rows = await db
    .select({ n: pageSetPages.n, width: pageSetPages.width, height: pageSetPages.height, error: pageSetPages.error })
    .from(pageSetPages)
    .where(eq(pageSetPages.setId, set.id))
    .orderBy(pageSetPages.n);
  return {
    pageCount: set.pageCount ?? rows.length,
    widths: [...PAGE_WIDTHS],
    pages: rows.map((row) => ({
      n: row.n,
      width: row.width,
      height: row.height,
      ...(row.error !== null ? { failed: true as const } : {}),
    })),
    hasOutline: set.hasOutline,
  };
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

/**
 * A ready page set and its pages, kept in isolate memory by the set's id (docs/decisions/0024). A
 * set never changes once ready: a new PDF makes a new set, which the book then names, and a page
 * view reaches a set only through its book's current `page_set_id` (read from D1 on each view).
 * So a cached set needs no invalidation, only a bound on memory: a page view reads no page rows.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { readOrLastKnown } from "../db/last-known.ts";
import { type Book, type PageSet, pageSetPages } from "../db/schema.ts";
import { TtlCache } from "../db/ttl-cache.ts";
import { readySet } from "./page-reading.ts";

export type PageRow = typeof pageSetPages.$inferSelect;
export interface ReadySet {
  set: PageSet;
  pages: Map<number, PageRow>;
}

// A few hundred sets of a few hundred pages: well under a megabyte. An hour, so a swept set's memory goes too.
const sets = new TtlCache<string, ReadySet>(3600_000, 500);

/**
 * The book's readable set with its pages, from memory when this isolate has read it before. A set
 * still being prepared (a book's first PDF, readable from its first page: docs/decisions/0038) is
 * read afresh each time, as its pages arrive; it is kept once ready.
 */
export async function cachedReadySet(db: Db, book: Pick<Book, "id" | "pageSetId">): Promise<ReadySet | null> {
  if (!book.pageSetId) return null;
  const key = `${book.id}:${book.pageSetId}`;
  const kept = sets.get(key);
  if (kept) return kept;
  // A ready set never changes: past its hour it is still right, so D1 away or slow (decision 0047) reads it from memory.
  const read = await readOrLastKnown(async (): Promise<ReadySet | null> => {
    const [set, rows] = await Promise.all([
      readySet(db, book),
      db.select().from(pageSetPages).where(eq(pageSetPages.setId, book.pageSetId!)),
    ]);
    return set ? { set, pages: new Map(rows.map((row) => [row.n, row])) } : null;
  }, sets.lastKnown(key)?.value);
  if (read?.set.status === "ready") sets.set(key, read);
  return read;
}

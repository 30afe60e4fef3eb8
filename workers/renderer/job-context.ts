/**
 * What the renderer's jobs share (./jobs.ts runs the plan and the ranges, ./finish.ts the finish):
 * their bindings, and the page set with its book as a job reads them.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, books, type PageSet, pageSets } from "../db/schema.ts";
import type { PageJobQueue } from "../page-images/preparation.ts";

export interface RendererEnv {
  db: Db;
  bucket: R2Bucket;
  queue: PageJobQueue;
}

export interface Found {
  set: PageSet;
  book: Book;
}

export async function setAndBook(db: Db, setId: string): Promise<Found | null> {
  const [row] = await db
    .select({ set: pageSets, book: books })
    .from(pageSets)
    .innerJoin(books, eq(books.id, pageSets.bookId))
    .where(eq(pageSets.id, setId))
    .limit(1);
  return row ?? null;
}

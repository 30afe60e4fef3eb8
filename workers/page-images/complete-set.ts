import { and, eq, inArray, ne } from "drizzle-orm";
import { type Actor, auditEntry } from "../admins/audit.ts";
import { discardProvisionalBook } from "../books/editing.ts";
import type { Db } from "../db/client.ts";
import { type Book, books, type PageSet, pageSets } from "../db/schema.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import type { CompletePageSet } from "./page-content.ts";
import { deletePrefix, outlineKey, pageSetPrefix, searchTextKey } from "./page-keys.ts";
import { abandonSet, pageSetProgress } from "./page-sets.ts";

/** The book's pages once the set is its: how many, and those teachers are told could not be displayed. */
export type CompletedPages = { pageCount: number; failed: number[] };

/**
 * Makes a complete set the book's: every page must exist. In one batch the book points at the
 * set and its PDF and the previous set's rows go; the previous objects are deleted afterwards (a
 * failure there leaves orphans, never a book without pages). A set whose every page failed is
 * refused and dropped, with its PDF unless the book already reads that PDF; a book added with
 * this PDF (`provisional`) is deleted with it (audited as a deletion, with the reason), so a
 * refused add leaves no empty book. A book that existed before keeps what it had. A refusal's
 * details say which pages are `missing` (the first 50) or that the book was removed (`bookRemoved`).
 */
export async function completePageSet(
  db: Db,
  bucket: R2Bucket,
  actor: Actor | null,
  book: Book,
  set: PageSet,
  input: CompletePageSet,
  now = Date.now(),
): Promise<Outcome<CompletedPages>> {
  if (set.status === "ready") return done({ pageCount: set.pageCount ?? 0, failed: [] });
  const progress = await pageSetProgress(db, set);
  const pageCount = set.pageCount ?? 0;
  const present = new Set([...progress.done, ...progress.failed.map((f) => f.n)]);
  const missing = Array.from({ length: pageCount }, (_, i) => i + 1).filter((n) => !present.has(n));
  if (!pageCount || missing.length) {
    return failed({ kind: "conflict", error: `${missing.length} pages are not prepared yet`, details: { missing: missing.slice(0, 50) } });
  }
  if (!progress.done.length) {
    const error =
      `None of the ${pageCount} pages of this PDF could be rendered, so it was not added. ${progress.failed[0]?.error ?? ""}`.trim();
    // A first PDF read while it was prepared (its pages all blank in the end) is no longer the book's.
    if (book.pageSetId === set.id) {
      await db
        .update(books)
        .set({ pageSetId: null, pageCount: null })
        .where(and(eq(books.id, book.id), eq(books.pageSetId, set.id)));
    }
    if (book.provisional && (await discardProvisionalBook(db, bucket, actor, book.id, error, now))) {
      return failed({ kind: "unprocessable", error: `${error} The book was not added either.`, details: { bookRemoved: true } });
    }
    await abandonSet(db, bucket, set, book.pdfKey);
    return failure("unprocessable", error);
  }
  if (input.text.length !== pageCount) return failure("conflict", `Send the text of all ${pageCount} pages`);
  await Promise.all([
    bucket.put(searchTextKey(book.id, set.id), JSON.stringify(input.text), { httpMetadata: { contentType: "application/json" } }),
    input.outline.length
      ? bucket.put(outlineKey(book.id, set.id), JSON.stringify(input.outline), { httpMetadata: { contentType: "application/json" } })
      : null,
  ]);

  const previous = await db
    .select()
    .from(pageSets)
    .where(and(eq(pageSets.bookId, book.id), ne(pageSets.id, set.id), eq(pageSets.status, "ready")));
  const changes = {
    pdfKey: set.pdfKey,
    pdfSize: set.pdfSize,
    pageCount,
    pageSetId: set.id,
    provisional: false,
    updatedAt: Math.max(now, (book.updatedAt ?? 0) + 1),
  };
  const before = { pdfKey: book.pdfKey, pdfSize: book.pdfSize, pageCount: book.pageCount, pageSetId: book.pageSetId };
  const [updated] = await db.batch([
    db
      .update(pageSets)
      .set({ status: "ready", completedAt: now, hasOutline: input.outline.length > 0 })
      .where(and(eq(pageSets.id, set.id), eq(pageSets.status, "preparing")))
      .returning({ id: pageSets.id }),
    db.update(books).set(changes).where(eq(books.id, book.id)),
    ...(previous.length
      ? [
          db.delete(pageSets).where(
            inArray(
              pageSets.id,
              previous.map((p) => p.id),
            ),
          ),
        ]
      : []),
    ...(actor
      ? [
          auditEntry(
            db,
            actor,
            { action: "book.pages", entityType: "book", entityId: book.id, before, after: { ...changes, failed: progress.failed } },
            now,
          ),
        ]
      : []),
  ]);
  if (!updated.length) return failure("conflict", "These pages were replaced by a newer upload");
  for (const old of previous) await deletePrefix(bucket, pageSetPrefix(book.id, old.id));
  const oldPdfs = new Set([book.pdfKey, ...previous.map((p) => p.pdfKey)]);
  oldPdfs.delete(set.pdfKey);
  const stale = [...oldPdfs].filter((key): key is string => !!key);
  if (stale.length) await bucket.delete(stale);
  return done({ pageCount, failed: progress.failed.map((f) => f.n) });
}

import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { type Actor, auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { auditLog, books, pageSets, uploads } from "../db/schema.ts";
import { bookPagesPrefix, deletePrefix } from "../page-images/page-keys.ts";
import { auditWhenChanged } from "../schools/audit.ts";
import { coverObjectKeys } from "./cover-store.ts";
import { type AdminBook, findBook, getAdminBook, toAdminBook } from "./detail.ts";
import type { BookCreate, BookUpdate } from "./input.ts";
import { abortUploads } from "./uploads.ts";

/** Blank optional text becomes NULL, a missing description the empty string the column wants. */
function bookValues(input: BookUpdate) {
  const { description, ...rest } = input;
  return { ...rest, ...(description === undefined ? {} : { description: description ?? "" }) };
}

export async function createBook(db: Db, actor: Actor, input: BookCreate, now = Date.now()): Promise<AdminBook> {
  const values = bookValues(input) as typeof books.$inferInsert;
  // The new id only exists inside the batch: last_insert_rowid() is the book's (the FTS trigger's
  // own insert does not leak out of the trigger), so the audit row names it without a second trip.
  const [[book]] = await db.batch([
    db.insert(books).values(values).returning(),
    db.insert(auditLog).values({
      adminId: actor.id,
      adminEmail: actor.email,
      action: "book.create",
      entityType: "book",
      entityId: sql`cast(last_insert_rowid() AS text)`,
      after: sql`json_patch(${JSON.stringify(values)}, json_object('id', last_insert_rowid()))`,
      at: now,
    }),
  ]);
  return toAdminBook({ ...book!, preparingPdfSize: null }, 0);
}

export async function updateBook(db: Db, actor: Actor, bookId: number, input: BookUpdate, now = Date.now()) {
  const before = await findBook(db, bookId);
  if (!before) return null;
  const changes = { ...bookValues(input), updatedAt: Math.max(now, (before.updatedAt ?? 0) + 1) };
  const [[after]] = await db.batch([
    db.update(books).set(changes).where(eq(books.id, bookId)).returning(),
    auditEntry(db, actor, { action: "book.update", entityType: "book", entityId: bookId, before, after: changes }, now),
  ]);
  return after ? getAdminBook(db, bookId) : null;
}

/**
 * Deletes the row (assignments, progress, upload and page-set rows go with it by cascade), then
 * what it pointed at in R2: in-flight multipart uploads, the cover, the PDFs and every page. Storage is cleaned
 * after the commit, so a failure there leaves an orphan object, never a book without its file.
 */
export async function deleteBook(db: Db, bucket: R2Bucket, actor: Actor, bookId: number, now = Date.now()): Promise<boolean> {
  return removeBook(db, bucket, actor, bookId, { only: eq(books.id, bookId) }, now);
}

/**
 * Deletes a book added with its PDF (`provisional`) whose pages were refused, as deleteBook does,
 * with the reason in the audit entry: a refused add leaves no empty book. Only while it is still
 * provisional and reads no pages, checked in the delete itself; false when it no longer is.
 * `actor` is null for `npm run pages`, which writes no audit entries.
 */
export async function discardProvisionalBook(
  db: Db,
  bucket: R2Bucket,
  actor: Actor | null,
  bookId: number,
  reason: string,
  now = Date.now(),
): Promise<boolean> {
  const only = and(eq(books.id, bookId), eq(books.provisional, true), isNull(books.pageSetId))!;
  return removeBook(db, bucket, actor, bookId, { only, reason }, now);
}

async function removeBook(
  db: Db,
  bucket: R2Bucket,
  actor: Actor | null,
  bookId: number,
  guard: { only: SQL; reason?: string },
  now: number,
): Promise<boolean> {
  const [found, pending, sets] = await db.batch([
    db.select().from(books).where(eq(books.id, bookId)).limit(1),
    db.select().from(uploads).where(eq(uploads.bookId, bookId)),
    db.select({ pdfKey: pageSets.pdfKey }).from(pageSets).where(eq(pageSets.bookId, bookId)),
  ]);
  const [before] = found;
  if (!before) return false;
  const after = guard.reason ? { reason: guard.reason } : undefined;
  // Racing deletes: only the one that removes the row writes the audit entry and cleans up.
  const [deleted] = await db.batch([
    db.delete(books).where(guard.only).returning({ id: books.id }),
    ...(actor ? [auditWhenChanged(db, actor, { action: "book.delete", entityType: "book", entityId: bookId, before, after }, now)] : []),
  ]);
  if (!deleted.length) return false;
  await abortUploads(bucket, pending);
  const covers = before.coverKey ? coverObjectKeys(before.coverKey) : [];
  const keys = [...covers, before.pdfKey, ...sets.map((set) => set.pdfKey)].filter((key): key is string => !!key);
  if (keys.length) await bucket.delete([...new Set(keys)]);
  await deletePrefix(bucket, bookPagesPrefix(bookId));
  return true;
}

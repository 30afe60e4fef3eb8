/**
 * A book's cover: `PUT /api/books/:id/upload/thumbnail`, the raw image as the body, Content-Type
 * image/jpeg, image/png or image/webp, at most 2 MiB (413). The bytes must start like that type
 * and decode (415), since the cover is stored with its display-sized WebP renditions
 * (cover-renditions.ts, decision 0023). A cover the Worker does not shrink but browsers show (a
 * CMYK JPEG, as printers send; more pixels than the Worker decodes) is kept without them: teachers
 * get the original, and the answer's `notice` says why. Each cover gets a
 * new key `covers/{bookId}/{random}` and the book a new updatedAt, so the versioned thumbnail URL
 * changes; the old cover and its renditions are deleted once the row points elsewhere. The row
 * moves only from the cover this upload replaces (compare-and-set): of two uploads racing, the one
 * that finds the row changed deletes what it stored and answers 409, so neither leaves objects no
 * row names (issue 41, docs/decisions/0036); nor does one whose write to D1 fails.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { type Book, books } from "../db/schema.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import { auditWhenChanged } from "../schools/audit.ts";
import { makeCoverRenditions } from "./cover-renditions.ts";
import { deleteCover, markCoverRenditionsUnavailable, putCoverRenditions } from "./cover-store.ts";
import { randomId } from "./uploads.ts";

export const MAX_COVER_BYTES = 2 * 1024 * 1024;

const COVER_SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/png": (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  "image/webp": (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
};

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** The cover types we take, from a Content-Type header; null for anything else. */
export function coverType(contentType: string | undefined): string | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type in COVER_SIGNATURES ? type : null;
}

/** A stored cover: `notice` says why it has no renditions (teachers get the file itself), or null. */
export type CoverStored = { notice: string | null };

export const COVER_CHANGED = "The cover was replaced by another upload a moment ago. Upload yours again to use it.";

export async function replaceCover(
  db: Db,
  bucket: R2Bucket,
  actor: Actor,
  book: Book,
  input: { type: string; bytes: Uint8Array },
  now = Date.now(),
): Promise<Outcome<CoverStored>> {
  if (!COVER_SIGNATURES[input.type]?.(input.bytes))
    return failure("unsupported", `The file is not a ${input.type.slice(6).toUpperCase()} image`);
  const made = await makeCoverRenditions(input.bytes, input.type);
  if (!made.ok && made.unreadable) return failed(made.failure);
  const key = `covers/${book.id}/${randomId()}`;
  await Promise.all([
    bucket.put(key, input.bytes, { httpMetadata: { contentType: input.type } }),
    made.ok ? putCoverRenditions(bucket, key, made.value) : markCoverRenditionsUnavailable(bucket, key, made.failure.error),
  ]);
  const changes = { coverKey: key, updatedAt: Math.max(now, (book.updatedAt ?? 0) + 1) };
  const replaced = book.coverKey === null ? isNull(books.coverKey) : eq(books.coverKey, book.coverKey);
  let updated: { id: number }[];
  try {
    [updated] = await db.batch([
      db
        .update(books)
        .set(changes)
        .where(and(eq(books.id, book.id), replaced))
        .returning({ id: books.id }),
      auditWhenChanged(
        db,
        actor,
        { action: "book.cover", entityType: "book", entityId: book.id, before: { coverKey: book.coverKey }, after: changes },
        now,
      ),
    ]);
  } catch (error) {
    // Unless the row names it after all (a write whose answer was lost); when that cannot be read either, the sweep has it.
    const named = await db
      .select({ coverKey: books.coverKey })
      .from(books)
      .where(eq(books.id, book.id))
      .then(([row]) => row?.coverKey === key)
      .catch(() => true);
    if (!named) await deleteCover(bucket, key);
    throw error;
  }
  if (!updated.length) {
    await deleteCover(bucket, key);
    const [still] = await db.select({ id: books.id }).from(books).where(eq(books.id, book.id));
    return still ? failure("conflict", COVER_CHANGED) : failure("not-found", "Book not found");
  }
  if (book.coverKey && book.coverKey !== key) await deleteCover(bucket, book.coverKey);
  return done({ notice: made.ok ? null : `${made.failure.error}. The cover is kept as it is; teachers get the file itself.` });
}

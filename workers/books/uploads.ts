/**
 * Book files: covers in one request (cover-upload.ts), PDFs in parts.
 *
 * PDF: a Worker takes at most 100 MB per request, books go to 1 GB, so the browser sends parts
 * straight into an R2 multipart upload:
 *   1. `POST /api/books/:id/upload/pdf` `{ size, pageCount? }` -> `{ uploadId, partSize, partCount }`.
 *      Starts an R2 multipart upload at a fresh key `books/{bookId}/{random}.pdf` and records it in
 *      `uploads`. The upload id is `{random}-{size}`: the declared size travels in the id (the
 *      table has no size column), and the id is only ever looked up whole, so an edited one is
 *      simply unknown. Starting an upload also sweeps uploads abandoned for more than 24 hours.
 *   2. `PUT /api/books/:id/upload/pdf/:uploadId/:partNumber`, raw bytes, parts 1..partCount,
 *      each exactly `partSize` (10 MiB) except the last, which is the rest (else 400)
 *      -> `{ partNumber, etag }`. Parts may be sent in any order, retried and sent in parallel.
 *   3. `POST /api/books/:id/upload/pdf/:uploadId/complete` `{ parts: [{ partNumber, etag }],
 *      pageCount? }` -> `{ book }`. R2 joins the parts; the object must then be `size` bytes,
 *      start with `%PDF-` and have `%%EOF` in its last 1,024 bytes, else it is deleted and the
 *      answer is 415. Then it becomes a page set that is being prepared (`{ book, pageSet }`):
 *      the book reads it, and the previous PDF and pages go, once its pages are all prepared
 *      (workers/pages/page-sets.ts, docs/decisions/0013).
 *   `DELETE /api/books/:id/upload/pdf/:uploadId` aborts the upload and drops its row.
 * An upload id that belongs to another book answers 404 like one that does not exist.
 */
import { and, eq, inArray, lt } from "drizzle-orm";
import { type Actor, auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { type Book, uploads } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { createUploadedPageSet } from "../page-images/page-sets.ts";
import { type PageJobQueue, startPreparation } from "../page-images/preparation.ts";

const MiB = 1024 * 1024;
export const MAX_PDF_BYTES = 1024 * MiB;
export const PART_SIZE = 10 * MiB;
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

export function randomId(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The whole body if it is at most `max` bytes; null as soon as it is longer. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

type Upload = typeof uploads.$inferSelect;

function declaredSize(upload: Upload): number {
  return Number(upload.id.split("-")[1]);
}

export function partCountFor(size: number): number {
  return Math.ceil(size / PART_SIZE);
}

/** How long part `partNumber` of an upload must be; null when there is no such part. */
export function expectedPartLength(size: number, partNumber: number): number | null {
  const count = partCountFor(size);
  if (partNumber < 1 || partNumber > count) return null;
  return partNumber < count ? PART_SIZE : size - PART_SIZE * (count - 1);
}

export async function startPdfUpload(db: Db, bucket: R2Bucket, bookId: number, input: { size: number; pageCount?: number | null }) {
  const objectKey = `books/${bookId}/${randomId()}.pdf`;
  const multipart = await bucket.createMultipartUpload(objectKey, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: input.pageCount ? { pageCount: String(input.pageCount) } : undefined,
  });
  const id = `${randomId()}-${input.size}`;
  try {
    await db.insert(uploads).values({ id, bookId, kind: "pdf", objectKey, r2UploadId: multipart.uploadId });
  } catch (error) {
    await multipart.abort();
    throw error;
  }
  return { uploadId: id, partSize: PART_SIZE, partCount: partCountFor(input.size) };
}

/** The book's PDF upload with this id; null for an unknown id or another book's. */
export async function findPdfUpload(db: Db, bookId: number, uploadId: string): Promise<Upload | null> {
  const [upload] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.bookId, bookId), eq(uploads.kind, "pdf")))
    .limit(1);
  return upload ?? null;
}

export async function uploadPdfPart(
  bucket: R2Bucket,
  upload: Upload,
  partNumber: number,
  bytes: Uint8Array | null,
): Promise<Outcome<R2UploadedPart>> {
  const size = declaredSize(upload);
  const expected = expectedPartLength(size, partNumber);
  if (expected === null) return failure("invalid", `This upload has parts 1 to ${partCountFor(size)}`);
  if (bytes?.byteLength !== expected) return failure("invalid", `Part ${partNumber} must be exactly ${expected} bytes`);
  const part = await bucket.resumeMultipartUpload(upload.objectKey, upload.r2UploadId).uploadPart(partNumber, bytes);
  return done({ partNumber: part.partNumber, etag: part.etag });
}

/** The page set a completed upload started: the book takes the PDF once its pages are prepared. */
export type UploadedPdf = { pageSet: { id: string; pageCount: number | null } };

/** Whether the stored object looks like a whole PDF: the header, and the end-of-file marker near its end. */
async function looksLikePdf(bucket: R2Bucket, key: string): Promise<boolean> {
  const latin1 = async (object: R2ObjectBody | null) => (object ? new TextDecoder("latin1").decode(await object.arrayBuffer()) : "");
  if ((await latin1(await bucket.get(key, { range: { offset: 0, length: 5 } }))) !== "%PDF-") return false;
  return (await latin1(await bucket.get(key, { range: { suffix: 1024 } }))).includes("%%EOF");
}

export async function completePdfUpload(
  db: Db,
  bucket: R2Bucket,
  queue: PageJobQueue,
  actor: Actor,
  book: Book,
  upload: Upload,
  input: { parts: R2UploadedPart[]; pageCount?: number | null },
  now = Date.now(),
): Promise<Outcome<UploadedPdf>> {
  const size = declaredSize(upload);
  const parts = [...input.parts].sort((a, b) => a.partNumber - b.partNumber);
  const count = partCountFor(size);
  if (parts.length !== count || parts.some((part, i) => part.partNumber !== i + 1)) {
    return failure("invalid", `Send all ${count} parts, numbered 1 to ${count}`);
  }
  let object: R2Object;
  try {
    object = await bucket.resumeMultipartUpload(upload.objectKey, upload.r2UploadId).complete(parts);
  } catch (error) {
    return failure("invalid", `The upload could not be completed (${error instanceof Error ? error.message : "unknown error"})`);
  }
  if (object.size !== size || !(await looksLikePdf(bucket, upload.objectKey))) {
    await bucket.delete(upload.objectKey);
    await db.delete(uploads).where(eq(uploads.id, upload.id));
    return object.size !== size
      ? failure("invalid", `The file is ${object.size} bytes, not the ${size} announced`)
      : failure("unsupported", "The file is not a PDF");
  }
  const started = Number(object.customMetadata?.pageCount);
  const pageCount = input.pageCount ?? (Number.isSafeInteger(started) && started > 0 ? started : null);
  // The PDF becomes the book's only once its pages are prepared (workers/page-images/page-sets.ts):
  // until then teachers read the previous pages, and a PDF none of whose pages render is refused.
  const set = await createUploadedPageSet(db, bucket, book, { key: upload.objectKey, size: object.size, pageCount }, actor.id);
  await db.batch([
    db.delete(uploads).where(eq(uploads.id, upload.id)),
    auditEntry(
      db,
      actor,
      {
        action: "book.pdf",
        entityType: "book",
        entityId: book.id,
        before: { pdfKey: book.pdfKey },
        after: { pageSetId: set.id, pdfSize: object.size, pageCount },
      },
      now,
    ),
  ]);
  // The platform prepares the pages (docs/decisions/0038): no browser needs to stay open.
  await startPreparation(db, queue, set, now);
  return done({ pageSet: { id: set.id, pageCount } });
}

/** Aborts R2 multipart uploads; one already gone (completed, aborted, expired) is not an error. */
export async function abortUploads(bucket: R2Bucket, rows: Pick<Upload, "objectKey" | "r2UploadId">[]): Promise<void> {
  await Promise.all(
    rows.map(async (row) => {
      try {
        await bucket.resumeMultipartUpload(row.objectKey, row.r2UploadId).abort();
      } catch (error) {
        log.warn("Could not abort upload", { objectKey: row.objectKey, error: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
}

export async function cancelPdfUpload(db: Db, bucket: R2Bucket, upload: Upload): Promise<void> {
  await abortUploads(bucket, [upload]);
  await db.delete(uploads).where(eq(uploads.id, upload.id));
}

/** Aborts and forgets uploads started more than `olderThanMs` ago; returns how many. */
export async function sweepStaleUploads(db: Db, bucket: R2Bucket, olderThanMs: number, now = Date.now()): Promise<number> {
  const stale = await db
    .select()
    .from(uploads)
    .where(lt(uploads.createdAt, now - olderThanMs))
    .limit(50);
  if (!stale.length) return 0;
  await abortUploads(bucket, stale);
  await db.delete(uploads).where(
    inArray(
      uploads.id,
      stale.map((row) => row.id),
    ),
  );
  return stale.length;
}

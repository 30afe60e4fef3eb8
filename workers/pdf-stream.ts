/**
 * The protected PDF stream (GET|HEAD /api/books/{id}/pdf): range parsing, who may fetch what,
 * the reading budget, and the responses. Teachers get the book only in pieces of at most 1 MiB,
 * only through our reader's fetch(), and only about three times its size per hour; admins may
 * download the whole file.
 */

import { recordAmount } from "./auth/throttle.ts";
import type { Db } from "./db/client.ts";

export const MAX_TEACHER_RANGE = 1024 * 1024;
/** So that tiny files still open however pdf.js splits its requests. */
export const MIN_READING_BUDGET = 4 * 1024 * 1024;
export const READING_BUDGET_WINDOW_MS = 3600_000;

export type ByteRange = { offset: number; length: number };
export type RangeRequest = { kind: "none" } | { kind: "range"; range: ByteRange } | { kind: "invalid"; message: string };
export type PdfReader = { kind: "admin" } | { kind: "teacher"; tokenHash: string };
export type PdfDecision = { kind: "whole" } | { kind: "range"; range: ByteRange } | { kind: "refuse"; message: string };

const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/i;

/**
 * Reads one byte range (`a-b`, `a-`, `-n`) against a file of `size` bytes; the end is clamped to
 * the file. Several ranges, anything malformed, and ranges outside the file are all `invalid`.
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (header === null) return { kind: "none" };
  const value = header.trim();
  if (value.includes(",")) return { kind: "invalid", message: "Only one byte range per request is supported." };
  const match = SINGLE_RANGE.exec(value);
  const [first, last] = [match?.[1] ?? "", match?.[2] ?? ""];
  if (!match || (first === "" && last === "")) return { kind: "invalid", message: "The Range header is not a valid byte range." };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "invalid", message: "The requested range is outside the file." };
    const length = Math.min(suffix, size);
    return { kind: "range", range: { offset: size - length, length } };
  }
  const offset = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < offset) return { kind: "invalid", message: "The Range header is not a valid byte range." };
  if (offset >= size) return { kind: "invalid", message: "The requested range is outside the file." };
  return { kind: "range", range: { offset, length: end - offset + 1 } };
}

/**
 * Teachers may fetch the file only with fetch() from our reader: Sec-Fetch-Dest is `empty` for
 * fetch() alone (typing the URL, an iframe, <embed>/<object> or the browser's PDF viewer send
 * something else) and browsers always send it, so a missing one is refused too. The reader
 * header cannot be added by a link or a form, only by script: from another origin that needs a
 * CORS preflight we never grant.
 */
export function refuseTeacherFetch(headers: Headers): string | null {
  if (headers.get("Sec-Fetch-Dest")?.trim().toLowerCase() !== "empty") return "This book can only be opened in the Lectern reader.";
  if (headers.get("X-Lectern-Reader") !== "1") return "This book can only be read through the Lectern reader.";
  return null;
}

/** What a GET may have, given the reader and the file's size (HEAD ignores Range, as RFC 9110 says). */
export function decidePdfGet(reader: PdfReader, rangeHeader: string | null, size: number): PdfDecision {
  const request = parseRange(rangeHeader, size);
  if (request.kind === "invalid") return { kind: "refuse", message: request.message };
  if (reader.kind === "admin") return request.kind === "none" ? { kind: "whole" } : request;
  // 416 rather than 403: like an oversized range, this asks the client to retry with a proper
  // range, and its Content-Range tells it the size; 403 stays for "this kind of request never works".
  if (request.kind === "none") return { kind: "refuse", message: "A byte range is required: the reader fetches the book in pieces." };
  if (request.range.length > MAX_TEACHER_RANGE) return { kind: "refuse", message: "A range may be at most 1 MiB." };
  return request;
}

/** Bytes a teacher session may fetch of one book per hour. */
export function readingBudget(size: number): number {
  return Math.max(3 * size, MIN_READING_BUDGET);
}

export function readingBudgetKey(tokenHash: string, bookId: number): string {
  return `pdf:${tokenHash}:${bookId}`;
}

/** Counts the range against the budget if it fits; the seconds to wait if it does not. */
export async function spendReadingBudget(db: Db, key: string, length: number, size: number, now = Date.now()): Promise<number | null> {
  const result = await recordAmount(db, key, length, { limit: readingBudget(size), windowMs: READING_BUDGET_WINDOW_MS }, now);
  return result.allowed ? null : Math.max(1, Math.ceil(result.retryAfterMs / 1000));
}

/** A JSON error that no cache keeps. Messages are fixed strings: never the book's title. */
export function pdfError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": "private, no-store", ...headers } });
}

export function unsatisfiable(message: string, size: number): Response {
  return pdfError(416, message, { "Content-Range": `bytes */${size}` });
}

/** The title as a plain ASCII file name: accents folded, quotes, slashes and control characters gone. */
export function asciiFilename(title: string): string {
  const folded = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[/\\]/g, "-")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7e]|["%]/g, "")
    .trim()
    .slice(0, 150)
    .trim();
  return folded || "book";
}

/** `attachment` with an ASCII name for old clients and the exact title (RFC 5987) for the rest. */
export function attachmentDisposition(title: string): string {
  const unicode =
    title
      .normalize("NFC")
      .replace(/[/\\]/g, "-")
      .replace(/\p{Cc}/gu, "")
      .trim()
      .slice(0, 150) || "book";
  const encoded = encodeURIComponent(`${unicode}.pdf`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiFilename(title)}.pdf"; filename*=UTF-8''${encoded}`;
}

export interface PdfFile {
  size: number;
  httpEtag: string;
}

/**
 * The answer for the file or one range of it: `body` is R2's stream, never buffered. Nothing may
 * cache or re-encode it (identity: Content-Length and the offsets are those of the stored file).
 */
export function pdfResponse(file: PdfFile, body: ReadableStream | null, range: ByteRange | null, downloadTitle: string | null): Response {
  const headers = new Headers({
    "Content-Type": "application/pdf",
    "Content-Encoding": "identity",
    "Content-Length": String(range ? range.length : file.size),
    "Accept-Ranges": "bytes",
    ETag: file.httpEtag,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  if (range) headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${file.size}`);
  if (downloadTitle !== null) headers.set("Content-Disposition", attachmentDisposition(downloadTitle));
  return new Response(body, { status: range ? 206 : 200, headers });
}

export interface PdfStreamInput {
  db: Db;
  bucket: R2Bucket;
  reader: PdfReader;
  book: { id: number; title: string; pdfKey: string };
  request: Request;
}

/** The whole answer to GET or HEAD, once the caller has established the reader may see the book. */
export async function streamPdf({ db, bucket, reader, book, request }: PdfStreamInput): Promise<Response> {
  if (reader.kind === "teacher") {
    const refusal = refuseTeacherFetch(request.headers);
    if (refusal) return pdfError(403, refusal);
  }
  const downloadTitle = reader.kind === "admin" ? book.title : null;
  const head = await bucket.head(book.pdfKey);
  if (!head) return pdfError(404, "Book not found");
  if (request.method === "HEAD") return pdfResponse(head, null, null, downloadTitle);

  const decision = decidePdfGet(reader, request.headers.get("Range"), head.size);
  if (decision.kind === "refuse") return unsatisfiable(decision.message, head.size);
  const range = decision.kind === "range" ? decision.range : null;
  if (reader.kind === "teacher" && range) {
    const retryAfter = await spendReadingBudget(db, readingBudgetKey(reader.tokenHash, book.id), range.length, head.size);
    if (retryAfter !== null) {
      return pdfError(429, "Reading limit reached for this book. Please try again later.", { "Retry-After": String(retryAfter) });
    }
  }
  // The same version as the head above, so the range matches the size we announce.
  const object = await bucket.get(book.pdfKey, { range: range ?? undefined, onlyIf: { etagMatches: head.etag } });
  if (!object) return pdfError(404, "Book not found");
  if (!("body" in object)) return pdfError(409, "The book's file has just been replaced. Please reopen it.");
  return pdfResponse(head, object.body, range, downloadTitle);
}

/**
 * The PDF stream (GET|HEAD /api/books/{id}/pdf), for admins only: the whole file as a download,
 * or single ranges for the admin's pdf.js reader. Teachers never get the file: they read page
 * images (docs/decisions/0013).
 */

export type ByteRange = { offset: number; length: number };
export type RangeRequest = { kind: "none" } | { kind: "range"; range: ByteRange } | { kind: "invalid"; message: string };
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

/** What an admin's GET may have (HEAD ignores Range, as RFC 9110 says). */
export function decidePdfGet(rangeHeader: string | null, size: number): PdfDecision {
  const request = parseRange(rangeHeader, size);
  if (request.kind === "invalid") return { kind: "refuse", message: request.message };
  return request.kind === "none" ? { kind: "whole" } : request;
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
  bucket: R2Bucket;
  book: { id: number; title: string; pdfKey: string };
  request: Request;
}

/** The whole answer to an admin's GET or HEAD: the file as a download, or one range of it for the admin reader. */
export async function streamPdf({ bucket, book, request }: PdfStreamInput): Promise<Response> {
  const head = await bucket.head(book.pdfKey);
  if (!head) return pdfError(404, "Book not found");
  if (request.method === "HEAD") return pdfResponse(head, null, null, book.title);
  const decision = decidePdfGet(request.headers.get("Range"), head.size);
  if (decision.kind === "refuse") return unsatisfiable(decision.message, head.size);
  const range = decision.kind === "range" ? decision.range : null;
  // The same version as the head above, so the range matches the size we announce.
  const object = await bucket.get(book.pdfKey, { range: range ?? undefined, onlyIf: { etagMatches: head.etag } });
  if (!object) return pdfError(404, "Book not found");
  if (!("body" in object)) return pdfError(409, "The book's file has just been replaced. Please reopen it.");
  return pdfResponse(head, object.body, range, book.title);
}

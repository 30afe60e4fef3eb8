// How the admin's pdf.js reader gets a PDF's bytes: HEAD for the size, then ranges on demand. Kept
// apart from pdf.client.ts (which loads pdf.js itself) so the node tests can drive it with pdf.js's
// Node build.
import { concatBytes } from "#shared/concat-bytes.ts";

/** The most one request asks for: pdf.js's larger requests (a big image) are fetched in parts. */
export const MAX_RANGE = 1024 * 1024;

export class PdfAccessError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The HEAD check before display: the file's size, or a PdfAccessError. */
export async function probePdf(url: string): Promise<number> {
  const response = await fetch(url, { method: "HEAD", credentials: "same-origin", cache: "no-store" });
  const length = Number(response.headers.get("Content-Length"));
  if (!response.ok || !Number.isFinite(length) || length <= 0) {
    throw new PdfAccessError("Failed to access PDF. The file might not exist or is not accessible.", response.status);
  }
  return length;
}

async function fetchRange(url: string, begin: number, end: number, signal: AbortSignal): Promise<Uint8Array> {
  const response = await fetch(url, {
    headers: { Range: `bytes=${begin}-${end - 1}` },
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (response.status !== 206 && response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new PdfAccessError(body?.error ?? `Failed to load the book (${response.status})`, response.status);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** The part of pdf.js's PDFDataRangeTransport that asks for bytes and takes them. */
export interface RangeTransport {
  requestDataRange(begin: number, end: number): void;
  onDataRange(begin: number, chunk: Uint8Array): void;
}

/** Bytes `begin` to `end` (exclusive) of `url`, fetched in parts of at most MAX_RANGE, in one piece. */
async function fetchRangeInParts(url: string, begin: number, end: number, signal: AbortSignal): Promise<Uint8Array> {
  const starts: number[] = [];
  for (let start = begin; start < end; start += MAX_RANGE) starts.push(start);
  const parts = await Promise.all(starts.map((start) => fetchRange(url, start, Math.min(end, start + MAX_RANGE), signal)));
  return concatBytes(parts);
}

/**
 * Answers pdf.js's range requests from `url`. pdf.js 6 opens one reader per request, finds it by
 * the request's begin and closes it on the first answer, so each request gets exactly one answer,
 * whole, however many parts it was fetched in. (Answering part by part left the first part's reader
 * with a short range and the others with no reader at all: "#onReceiveData - no
 * `PDFDataTransportStreamRangeReader` instance found", and a page with a large image that never painted.)
 */
export function serveRanges(transport: RangeTransport, url: string, signal: AbortSignal, onError: (error: Error) => void): void {
  transport.requestDataRange = (begin: number, end: number) => {
    fetchRangeInParts(url, begin, end, signal).then(
      (bytes) => {
        if (!signal.aborted) transport.onDataRange(begin, bytes);
      },
      (error: Error) => {
        if (!signal.aborted) onError(error);
      },
    );
  };
}

// Page preparation in the admin's browser: pdf.js renders each page on a canvas and the results go
// to the admin page-set API (workers/api/admin-page-sets.ts). Resumable: the server says which
// pages exist, and only the rest are rendered. Client-only, like pdf.js itself.
import { getDocument } from "pdfjs-dist";
import { ApiError, api, call, type Ok } from "../api-client.ts";
import { PDFJS_ASSETS } from "../pdf.client.ts"; // also sets pdf.js's worker
import { isPasswordRequest, openDocument } from "./open-document.ts";
import { type PageSink, type PrepareProgress, preparePages, type RenderKit, SinkError } from "./prepare-pages.ts";

const pageSets = api.api.books[":id"]["page-sets"];
const pageSet = pageSets[":setId"];

const readStatus = (bookId: number) => pageSets.$get({ param: { id: String(bookId) } });

/** What of a book's pages is ready and what is being prepared, as the page-set API answers it. */
export type PagesStatus = Ok<Awaited<ReturnType<typeof readStatus>>>;

export const pagesStatus = (bookId: number) => call(() => readStatus(bookId), "Failed to read the state of the pages");

const kit: RenderKit<HTMLCanvasElement> = {
  createCanvas(width, height) {
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    return canvas;
  },
  context: (canvas) => canvas.getContext("2d")!,
  encode: (canvas, type, quality) =>
    new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The browser could not encode the page image"))), type, quality);
    }),
};

type Answer = { ok: boolean; status: number; json(): Promise<unknown> };

/**
 * Every page was refused and the book went with them: it was added with this PDF
 * (workers/page-images/complete-set.ts). Its page is gone; reloading it would say "Book not found".
 */
export class BookRemovedError extends SinkError {
  override name = "BookRemovedError";
}

async function send(request: () => Promise<Answer>, signal?: AbortSignal): Promise<unknown> {
  let response: Answer;
  try {
    response = await request();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SinkError("Network error: check your connection; the pages prepared so far are kept.");
  }
  const body = (await response.json().catch(() => null)) as { error?: string; bookRemoved?: boolean } | null;
  if (!response.ok) {
    const message = body?.error ?? `The server refused the page (${response.status})`;
    throw body?.bookRemoved ? new BookRemovedError(message, response.status) : new SinkError(message, response.status);
  }
  return body;
}

function sinkFor(bookId: number, setId: string, signal?: AbortSignal): PageSink {
  const param = { id: String(bookId), setId };
  return {
    async putPage(n, images, text) {
      const form = new FormData();
      for (const [width, image] of images)
        form.set(`w${width}`, image instanceof Blob ? image : new Blob([image as Uint8Array<ArrayBuffer>]), `${n}-${width}`);
      form.set("text", JSON.stringify(text));
      // The route reads the multipart body itself (no validator to type it): it goes as the request's body.
      await send(() => pageSet.pages[":n"].$put({ param: { ...param, n: String(n) } }, { init: { body: form, signal } }), signal);
    },
    async failPage(n, failure) {
      await send(
        () => pageSet.pages[":n"].failure.$put({ param: { ...param, n: String(n) }, json: failure }, { init: { signal } }),
        signal,
      );
    },
    async complete(input) {
      await send(() => pageSet.complete.$post({ param, json: input }, { init: { signal } }), signal);
    },
  };
}

async function loadPdf(source: File | string, signal?: AbortSignal): Promise<Uint8Array> {
  if (typeof source !== "string") return new Uint8Array(await source.arrayBuffer());
  const response = await fetch(source, { credentials: "same-origin", signal });
  if (!response.ok) throw new ApiError("The book's PDF could not be loaded to prepare its pages.", response.status, null);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Prepares (or resumes preparing) a book's pages. `source`: the PDF the admin just uploaded, or
 * the URL of the stored one when resuming. Throws ApiError/SinkError with a message for the admin.
 */
export async function prepareBookPages(
  bookId: number,
  source: File | string,
  onProgress: (progress: PrepareProgress) => void,
  signal?: AbortSignal,
): Promise<PrepareProgress> {
  const data = await loadPdf(source, signal);
  const { doc, task, unreadable } = await openDocument(data, (bytes) => getDocument({ data: bytes, ...PDFJS_ASSETS })).catch(
    (error: Error) => {
      throw new ApiError(
        isPasswordRequest(error)
          ? "This PDF is password-protected: upload a copy without a password."
          : "This file cannot be opened as a PDF (it may be damaged).",
        0,
        null,
      );
    },
  );
  try {
    const set = await call(
      () => pageSets.$post({ param: { id: String(bookId) }, json: { pageCount: doc.numPages } }),
      "Failed to start preparing the pages",
    );
    const done = new Set([...set.done, ...set.failed.map((f) => f.n)]);
    const result = await preparePages({ doc, done, unreadable, kit, sink: sinkFor(bookId, set.id, signal), onProgress, signal });
    return { ...result, failed: [...set.failed, ...result.failed] };
  } finally {
    void task.destroy();
  }
}

/** Where to load the PDF from when resuming: the preparing set's, else the book's own. */
export function resumeSource(bookId: number, status: PagesStatus): string | null {
  if (status.preparing) return pageSet.pdf.$path({ param: { id: String(bookId), setId: status.preparing.id } });
  if (!status.ready && status.hasPdf) return api.api.books[":id"].pdf.$path({ param: { id: String(bookId) } });
  return null;
}

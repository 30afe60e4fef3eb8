import { api, call } from "./api-client.ts";

const book = api.api.books[":id"];
const pdfUpload = book.upload.pdf[":uploadId"];

/** PUT with upload progress (fetch has none), cancellable through the signal. */
function putWithProgress(url: string, body: Blob, signal: AbortSignal, onProgress: (sent: number) => void): Promise<{ etag: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || "null") as { etag?: string; error?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.etag) resolve({ etag: body.etag });
      else reject(new Error(body?.error ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error("Upload failed: network error"));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * Uploads a PDF in parts (R2 multipart; see workers/books/uploads.ts for the protocol), with
 * progress. On failure or cancel the upload is aborted on the server, so no object is left behind.
 * The parts go by XHR for its progress events, to the URL the typed client builds.
 */
export async function uploadPdf(
  bookId: number,
  file: File,
  pageCount: number | null,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
) {
  const id = String(bookId);
  const start = await call(
    () => book.upload.pdf.$post({ param: { id }, json: { size: file.size, ...(pageCount ? { pageCount } : {}) } }),
    "Failed to start the upload",
  );
  const param = { id, uploadId: start.uploadId };
  try {
    const parts: { partNumber: number; etag: string }[] = [];
    for (let partNumber = 1; partNumber <= start.partCount; partNumber++) {
      const offset = (partNumber - 1) * start.partSize;
      const url = pdfUpload[":partNumber"].$path({ param: { ...param, partNumber: String(partNumber) } });
      const { etag } = await putWithProgress(url, file.slice(offset, offset + start.partSize), signal, (sent) =>
        onProgress((offset + sent) / file.size),
      );
      parts.push({ partNumber, etag });
    }
    onProgress(1);
    return await call(
      () => pdfUpload.complete.$post({ param, json: { parts, ...(pageCount ? { pageCount } : {}) } }),
      "Failed to finish the upload",
    );
  } catch (error) {
    await call(() => pdfUpload.$delete({ param }), "").catch(() => null);
    throw error;
  }
}

/**
 * Sends the image as the request's body (the route reads it raw, up to 2 MB, typed by its
 * Content-Type). Returns the server's notice when it kept the cover without its small versions.
 */
export async function uploadCover(bookId: number, image: Blob): Promise<string | null> {
  const answer = await call(
    () => book.upload.thumbnail.$put({ param: { id: String(bookId) } }, { headers: { "Content-Type": image.type }, init: { body: image } }),
    "Failed to upload the cover",
  );
  return answer.notice;
}

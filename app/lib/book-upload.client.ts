import { requestJson } from "./api-client.ts";

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
 * Uploads a PDF in parts (R2 multipart; see workers/admins/book-uploads.ts for the protocol), with
 * progress. On failure or cancel the upload is aborted on the server, so no object is left behind.
 */
export async function uploadPdf(
  bookId: number,
  file: File,
  pageCount: number | null,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
) {
  const start = await requestJson<{ uploadId: string; partSize: number; partCount: number }>(`/api/books/${bookId}/upload/pdf`, {
    body: { size: file.size, ...(pageCount ? { pageCount } : {}) },
    fallback: "Failed to start the upload",
  });
  const base = `/api/books/${bookId}/upload/pdf/${start.uploadId}`;
  try {
    const parts: { partNumber: number; etag: string }[] = [];
    for (let partNumber = 1; partNumber <= start.partCount; partNumber++) {
      const offset = (partNumber - 1) * start.partSize;
      const { etag } = await putWithProgress(`${base}/${partNumber}`, file.slice(offset, offset + start.partSize), signal, (sent) =>
        onProgress((offset + sent) / file.size),
      );
      parts.push({ partNumber, etag });
    }
    onProgress(1);
    return await requestJson(`${base}/complete`, {
      body: { parts, ...(pageCount ? { pageCount } : {}) },
      fallback: "Failed to finish the upload",
    });
  } catch (error) {
    await requestJson(base, { method: "DELETE", fallback: "" }).catch(() => null);
    throw error;
  }
}

export async function uploadCover(bookId: number, image: Blob): Promise<void> {
  const response = await fetch(`/api/books/${bookId}/upload/thumbnail`, {
    method: "PUT",
    headers: { "Content-Type": image.type },
    body: image,
    credentials: "same-origin",
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? "Failed to upload the cover");
  }
}

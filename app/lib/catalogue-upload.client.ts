import { uploadCover, uploadPdf } from "./book-upload.client.ts";
import { inspectLocalPdf } from "./pdf.client.ts";

/** Books whose files go up at once: enough to keep a connection busy, few enough that each finishes soon. */
export const UPLOADS_AT_ONCE = 3;
/** A PDF up to this size is opened in the browser for its first page as the cover, when the row names none. */
const COVER_FROM_PDF_MAX = 64 * 1024 * 1024;

export type UploadPhase =
  | { kind: "queued" }
  | { kind: "cover" }
  | { kind: "pdf"; progress: number }
  | { kind: "done"; note: string | null }
  | { kind: "failed"; error: string };

export interface BookFiles {
  row: number;
  bookId: number;
  pdf: File;
  cover: File | null;
}

/**
 * One book's files: its cover (the row's, else the PDF's first page drawn in the browser, as Add
 * Books does), then its PDF in parts. A failure is the row's alone: its book stays, waiting for
 * its file, and the page offers to try again.
 */
export async function uploadBookFiles(files: BookFiles, signal: AbortSignal, onPhase: (phase: UploadPhase) => void): Promise<void> {
  try {
    onPhase({ kind: "cover" });
    let pageCount: number | null = null;
    let cover: Blob | null = files.cover;
    if (!cover && files.pdf.size <= COVER_FROM_PDF_MAX) {
      const inspected = await inspectLocalPdf(files.pdf).catch(() => null);
      pageCount = inspected?.pageCount ?? null;
      cover = inspected?.cover ?? null;
    }
    // A cover the server cannot take does not hold the PDF back; the row says so.
    let note: string | null = null;
    if (cover) await uploadCover(files.bookId, cover).catch((error: Error) => (note = `Cover not saved: ${error.message}`));
    onPhase({ kind: "pdf", progress: 0 });
    await uploadPdf(files.bookId, files.pdf, pageCount, signal, (progress) => onPhase({ kind: "pdf", progress }));
    onPhase({ kind: "done", note });
  } catch (error) {
    const cancelled = error instanceof DOMException && error.name === "AbortError";
    onPhase({ kind: "failed", error: cancelled ? "Upload cancelled" : (error as Error).message });
    throw error;
  }
}

import { useRef, useState } from "react";
import { uploadCover, uploadPdf } from "../../lib/book-upload.client.ts";
import { inspectLocalPdf } from "../../lib/pdf.client.ts";
import { Button } from "../ui/button.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { handOverUploadedPdf } from "./book-pages.tsx";

const COVER_TYPES = ["image/jpeg", "image/png", "image/webp"];

/** Adds or replaces an existing book's PDF and cover. The old file stays until the new one is in. */
export function AdminBookFiles({ bookId, hasPdf, onChanged }: { bookId: number; hasPdf: boolean; onChanged: () => void }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function replacePdf(file: File | undefined) {
    if (!file) return;
    setMessage(null);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const { pageCount } = await inspectLocalPdf(file).catch(() => {
        throw new Error("This file cannot be opened as a PDF (it may be damaged or password-protected).");
      });
      setProgress(0);
      await uploadPdf(bookId, file, pageCount, controller.signal, setProgress);
      handOverUploadedPdf(bookId, file);
      setMessage({
        text: `PDF uploaded (${pageCount} pages). Its pages are being prepared below; ${hasPdf ? "teachers keep the previous pages until then" : "teachers can read it once they are ready"}.`,
        tone: "success",
      });
      onChanged();
    } catch (e) {
      setMessage({
        text: e instanceof DOMException && e.name === "AbortError" ? "Upload cancelled. The book is unchanged." : (e as Error).message,
      });
    } finally {
      setProgress(null);
    }
  }

  async function replaceCover(file: File | undefined) {
    if (!file) return;
    setMessage(null);
    if (!COVER_TYPES.includes(file.type)) return setMessage({ text: "The cover must be a JPEG, PNG or WebP image." });
    try {
      await uploadCover(bookId, file);
      setMessage({ text: "Cover replaced.", tone: "success" });
      onChanged();
    } catch (e) {
      setMessage({ text: (e as Error).message });
    }
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-6 text-sm">
        <label htmlFor="replace-pdf" className="font-medium">
          {hasPdf ? "Replace PDF" : "Add PDF"}
          <input
            id="replace-pdf"
            type="file"
            accept="application/pdf"
            disabled={progress !== null}
            onChange={(e) => replacePdf(e.target.files?.[0])}
            className="mt-1 block text-sm font-normal"
          />
        </label>
        <label htmlFor="replace-cover" className="font-medium">
          Replace cover
          <input
            id="replace-cover"
            type="file"
            accept={COVER_TYPES.join(",")}
            disabled={progress !== null}
            onChange={(e) => replaceCover(e.target.files?.[0])}
            className="mt-1 block text-sm font-normal"
          />
        </label>
      </div>
      {progress !== null && (
        <div className="flex items-center gap-3">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuenow={Math.round(progress * 100)}
            aria-valuemin={0}
            aria-valuemax={100}
            className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div className="h-full bg-indigo-600" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
          <span className="w-12 text-right text-sm tabular-nums">{Math.round(progress * 100)}%</span>
          <Button variant="secondary" onClick={() => abort.current?.abort()}>
            Cancel upload
          </Button>
        </div>
      )}
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}

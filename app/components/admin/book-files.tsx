import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { PdfState } from "../../../workers/books/pdf-state.ts";
import { uploadCover, uploadPdf } from "../../lib/book-upload.client.ts";
import { inspectLocalPdf } from "../../lib/pdf.client.ts";
import { Button } from "../ui/button.tsx";
import { FileDrop } from "../ui/file-drop.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { CLOSE_TAB_NOTICE } from "./book-pages.tsx";
import { bookPagesKey } from "./preparation/preparation-calls.ts";

const COVER_TYPES = ["image/jpeg", "image/png", "image/webp"];
const PDF_TYPES = ["application/pdf", ".pdf"];
const MAX_COVER = 2 * 1024 * 1024;
const MAX_PDF = 1024 * 1024 * 1024;

/** Adds or replaces an existing book's PDF and cover. The old file stays until the new one is in. */
export function AdminBookFiles({ bookId, pdfState, onChanged }: { bookId: number; pdfState: PdfState; onChanged: () => void }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();

  // FileDrop checked each file's type and size first.
  async function replacePdf(file: File) {
    setMessage(null);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const { pageCount } = await inspectLocalPdf(file).catch(() => {
        throw new Error("This file cannot be opened as a PDF (it may be damaged or password-protected).");
      });
      setProgress(0);
      await uploadPdf(bookId, file, pageCount, controller.signal, setProgress);
      setMessage({
        text: `PDF uploaded (${pageCount} pages). ${pdfState === "ready" ? "Teachers keep the previous pages until the new ones are ready." : "Teachers can read it once its pages are ready."} ${CLOSE_TAB_NOTICE}`,
        tone: "success",
      });
      // The pages panel polls the new set from now on.
      void queryClient.invalidateQueries({ queryKey: bookPagesKey(bookId) });
      onChanged();
    } catch (e) {
      setMessage({
        text: e instanceof DOMException && e.name === "AbortError" ? "Upload cancelled. The book is unchanged." : (e as Error).message,
      });
    } finally {
      setProgress(null);
    }
  }

  async function replaceCover(file: File) {
    setMessage(null);
    try {
      const notice = await uploadCover(bookId, file);
      setMessage({ text: notice ? `Cover replaced. ${notice}` : "Cover replaced.", tone: "success" });
      onChanged();
    } catch (e) {
      setMessage({ text: (e as Error).message });
    }
  }

  return (
    <div className="space-y-3">
      <div className="grid gap-4 sm:grid-cols-2">
        <FileDrop
          id="replace-pdf"
          label={pdfState === "none" ? "Add PDF" : "Replace PDF"}
          accept={PDF_TYPES}
          maxBytes={MAX_PDF}
          typeError="The PDF must be a PDF file."
          sizeError="The PDF must be at most 1 GB."
          hint={pdfState === "ready" ? "Teachers keep the current pages until the new ones are ready." : "Up to 1 GB."}
          chosen={null}
          disabled={progress !== null}
          onFile={replacePdf}
          onError={(text) => setMessage({ text })}
        />
        <FileDrop
          id="replace-cover"
          label="Replace cover"
          accept={COVER_TYPES}
          maxBytes={MAX_COVER}
          typeError="The cover must be a JPEG, PNG or WebP image."
          sizeError="The cover must be at most 2 MB."
          hint="JPEG, PNG or WebP, up to 2 MB."
          chosen={null}
          disabled={progress !== null}
          onFile={replaceCover}
          onError={(text) => setMessage({ text })}
        />
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

// pdf.js lives only here, in a client-only module imported by the reader routes: it never enters
// the server bundle or the dashboard's JavaScript. pdf.js 6 has no `isEvalSupported` any more (it
// never evaluates code; our CSP forbids eval regardless) and scripting only exists in its viewer,
// which we do not use: a PDF's JavaScript is never run.
import { GlobalWorkerOptions, getDocument, PDFDataRangeTransport, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { openDocument } from "./pages/open-document.ts";
import { serveRanges } from "./pdf-ranges.ts";

GlobalWorkerOptions.workerSrc = workerUrl;

/** Where pdf.js finds its fonts, character maps, decoders (JPX, JBIG2) and colour profiles: served by us. */
export const PDFJS_ASSETS = {
  enableXfa: false,
  standardFontDataUrl: "/pdfjs/standard_fonts/",
  cMapUrl: "/pdfjs/cmaps/",
  cMapPacked: true,
  wasmUrl: "/pdfjs/wasm/",
  iccUrl: "/pdfjs/iccs/",
} as const;

/** pdf.js asks for whole chunks: small enough that the first page costs little, large enough to be few requests. */
const CHUNK = 128 * 1024;

export interface OpenedPdf {
  document: Promise<PDFDocumentProxy>;
  close(): void;
}

/**
 * Opens a PDF through our own range transport: pdf.js never gets the URL, only the bytes we
 * fetch for it (app/lib/pdf-ranges.ts). Nothing is fetched ahead.
 */
export function openPdf(url: string, length: number, onError: (error: Error) => void): OpenedPdf {
  const controller = new AbortController();
  const transport = new PDFDataRangeTransport(length, null);
  serveRanges(transport, url, controller.signal, onError);
  const task = getDocument({
    range: transport,
    rangeChunkSize: CHUNK,
    disableAutoFetch: true,
    disableStream: true,
    ...PDFJS_ASSETS,
  });
  return {
    document: task.promise,
    close() {
      controller.abort();
      void task.destroy();
    },
  };
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from "pdfjs-dist";
export { probePdf } from "./pdf-ranges.ts";

/**
 * Reads a PDF the admin picked, in the browser: its page count, and its first page drawn as a
 * WebP cover for books uploaded without one. Throws for files pdf.js cannot open.
 */
export async function inspectLocalPdf(file: File): Promise<{ pageCount: number; cover: Blob | null }> {
  // Opened as the pages will be prepared (./pages/open-document.ts), so the page count is the same.
  const { doc, task } = await openDocument(new Uint8Array(await file.arrayBuffer()), (data) => getDocument({ data, ...PDFJS_ASSETS }));
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: 600 / base.width });
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(viewport.width);
    canvas.height = Math.round(viewport.height);
    await page.render({ canvas, viewport }).promise;
    // A first page with nothing on it (often a damaged file) makes no cover: never a blank white one.
    if (isBlankCanvas(canvas)) return { pageCount: doc.numPages, cover: null };
    const cover = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/webp", 0.85));
    return { pageCount: doc.numPages, cover };
  } finally {
    void task.destroy();
  }
}

function isBlankCanvas(canvas: HTMLCanvasElement): boolean {
  const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
  for (let i = 0; i < data.length; i += 4) {
    // Transparent (never painted) or near white.
    if ((data[i + 3] as number) > 0 && ((data[i] as number) < 250 || (data[i + 1] as number) < 250 || (data[i + 2] as number) < 250))
      return false;
  }
  return true;
}

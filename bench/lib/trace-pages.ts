// The trace bench's pages: demo books generated as the seed generates them, and pages of the PDFs in
// ../shared/pdfs when present, rendered at 1024 px with pdf.js on @napi-rs/canvas (as the Node
// renderer does) and stored as PNG, as R2 holds them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCanvas } from "@napi-rs/canvas";
import { generateBookPdf } from "../../scripts/seed/book-pdf.ts";
import { DEMO_BOOKS } from "../../scripts/seed/demo-books.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED_PDFS = join(ROOT, "../shared/pdfs");

export interface BenchPage {
  bookId: number;
  title: string;
  page: number;
  width: number;
  height: number;
  /** The stored page: PNG, RGBA as canvases write it. */
  png: Uint8Array;
  /** Its luma, (r + 2g + b) / 4, row after row. */
  luma: Uint8Array;
}

/** `demoBooks` demo books of `pagesPerBook` pages, and up to `sharedPages` pages of each shared PDF. */
export async function benchPages(demoBooks: number, pagesPerBook: number, sharedPages: number): Promise<BenchPage[]> {
  const sources: Array<{ title: string; pdf: Uint8Array; pages: number }> = [];
  for (const book of DEMO_BOOKS.filter((b) => b.hasPdf).slice(0, demoBooks)) {
    const pdf = await generateBookPdf({ ...book, publisher: "Lectern Press" }, { pages: pagesPerBook });
    sources.push({ title: book.title, pdf, pages: pagesPerBook });
  }
  if (sharedPages > 0 && existsSync(SHARED_PDFS)) {
    for (const name of readdirSync(SHARED_PDFS).filter((f) => f.toLowerCase().endsWith(".pdf"))) {
      sources.push({ title: name, pdf: new Uint8Array(readFileSync(join(SHARED_PDFS, name))), pages: sharedPages });
    }
  }
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const out: BenchPage[] = [];
  for (const [index, source] of sources.entries()) {
    const task = pdfjs.getDocument({ data: source.pdf.slice(), verbosity: 0 });
    try {
      const doc = await task.promise;
      for (let n = 1; n <= Math.min(source.pages, doc.numPages); n++) {
        try {
          const page = await doc.getPage(n);
          const viewport = page.getViewport({ scale: 1024 / page.getViewport({ scale: 1 }).width });
          const canvas = createCanvas(1024, Math.round(viewport.height));
          const context = canvas.getContext("2d");
          context.fillStyle = "#fff";
          context.fillRect(0, 0, canvas.width, canvas.height);
          await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as never, viewport }).promise;
          const rgba = canvas.data();
          const luma = new Uint8Array(canvas.width * canvas.height);
          for (let i = 0, p = 0; i < luma.length; i++, p += 4) {
            luma[i] = ((rgba[p] as number) + 2 * (rgba[p + 1] as number) + (rgba[p + 2] as number)) >> 2;
          }
          out.push({
            bookId: index + 1,
            title: source.title,
            page: n,
            width: canvas.width,
            height: canvas.height,
            png: canvas.encodeSync("png") as Uint8Array,
            luma,
          });
        } catch {
          // A broken page of a broken PDF: not a page a teacher receives.
        }
      }
    } catch {
      // A PDF pdf.js cannot open (encrypted, fuzzed): nothing to serve, nothing to trace.
    } finally {
      await task.destroy();
    }
  }
  return out;
}

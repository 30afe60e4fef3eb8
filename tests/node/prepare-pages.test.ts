import { createRequire } from "node:module";
import { dirname } from "node:path";
import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { PDFDocument, PDFNumber, StandardFonts } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { BLANK_DOCUMENT_ERROR, type PageSink, plainText, preparePages, type RenderKit } from "../../app/lib/pages/prepare-pages.ts";
import type { OutlineItem, PageText } from "../../workers/page-images/page-content.ts";

const PDFJS = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

const kit: RenderKit<Canvas> = {
  createCanvas: (width, height) => createCanvas(width, height),
  context: (canvas) => canvas.getContext("2d") as unknown as CanvasRenderingContext2D,
  encode: async (canvas) => new Uint8Array(await canvas.encode("png")),
};

/** A sink that remembers what it was given. */
function recordingSink() {
  const calls = {
    pages: new Map<number, { widths: number[]; text: PageText }>(),
    failed: new Map<number, string>(),
    complete: null as { outline: OutlineItem[]; text: string[] } | null,
  };
  const sink: PageSink = {
    async putPage(n, images, text) {
      calls.pages.set(n, { widths: [...images.keys()], text });
    },
    async failPage(n, failure) {
      calls.failed.set(n, failure.error);
    },
    async complete(input) {
      calls.complete = input;
    },
  };
  return { sink, calls };
}

async function open(bytes: Uint8Array) {
  return getDocument({ data: bytes, standardFontDataUrl: `${PDFJS}/standard_fonts/`, verbosity: 0 }).promise;
}

/** Small pages (about a postcard) keep the rendering quick. */
async function textPdf(pages: string[]) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const words of pages) pdf.addPage([300, 200]).drawText(words, { x: 20, y: 150, size: 14, font });
  return pdf;
}

describe("preparePages", () => {
  it("renders every page at both widths with its text, then completes with every page's text", async () => {
    const { sink, calls } = recordingSink();
    const doc = await open(await (await textPdf(["Photosynthesis in plants", "Cells and tissues"])).save());
    const progress = await preparePages({ doc, done: new Set(), kit, sink });
    expect(progress).toMatchObject({ done: 2, failed: [], total: 2 });
    expect(calls.pages.get(1)?.widths).toEqual([1024, 2048]);
    const text = calls.pages.get(1)!.text;
    expect(text).toMatchObject({ width: 300, height: 200 });
    expect(text.runs[0]).toMatchObject({ str: "Photosynthesis in plants" });
    // y is the top of the run, measured from the top of the page.
    expect(text.runs[0]!.y).toBeGreaterThan(30);
    expect(text.runs[0]!.y).toBeLessThan(50);
    expect(calls.complete?.text).toEqual(["Photosynthesis in plants", "Cells and tissues"]);
    expect(plainText(text)).toBe("Photosynthesis in plants");
  });

  it("skips pages already stored, but still reads their text for search", async () => {
    const { sink, calls } = recordingSink();
    const doc = await open(await (await textPdf(["one", "two", "three"])).save());
    await preparePages({ doc, done: new Set([1, 2]), kit, sink });
    expect([...calls.pages.keys()]).toEqual([3]);
    expect(calls.complete?.text).toEqual(["one", "two", "three"]);
  });

  it("reports a page pdf.js cannot render by number, and renders the others", async () => {
    const pdf = await textPdf(["first", "second", "third"]);
    // Page 2's dictionary becomes a number: pdf.js cannot even open that page.
    pdf.context.assign(pdf.getPage(1).ref, PDFNumber.of(42));
    const { sink, calls } = recordingSink();
    const doc = await open(await pdf.save({ useObjectStreams: false }));
    const progress = await preparePages({ doc, done: new Set(), kit, sink });
    expect(calls.pages.has(1)).toBe(true);
    expect(calls.failed.get(2)).toMatch(/page|kid/i);
    // Every page pdf.js counts is accounted for: stored or reported, never skipped.
    const handled = [...calls.pages.keys(), ...calls.failed.keys()].sort();
    expect(handled).toEqual(Array.from({ length: doc.numPages }, (_, i) => i + 1));
    expect(progress.failed.map((f) => f.n)).toContain(2);
    expect(calls.complete?.text[0]).toBe("first");
    expect(calls.complete?.text[1]).toBe("");
  });

  it("reports every page of an all-blank (damaged) document as failed, so the PDF is refused", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([300, 200]);
    pdf.addPage([300, 200]);
    const { sink, calls } = recordingSink();
    const progress = await preparePages({ doc: await open(await pdf.save()), done: new Set(), kit, sink });
    expect([...calls.failed.entries()]).toEqual([
      [1, BLANK_DOCUMENT_ERROR],
      [2, BLANK_DOCUMENT_ERROR],
    ]);
    expect(progress.done).toBe(0);
  });

  it("stops when asked to, without reporting the page as failed", async () => {
    const { sink, calls } = recordingSink();
    const controller = new AbortController();
    controller.abort();
    const doc = await open(await (await textPdf(["a"])).save());
    await expect(preparePages({ doc, done: new Set(), kit, sink, signal: controller.signal })).rejects.toThrow();
    expect(calls.failed.size).toBe(0);
    expect(calls.complete).toBeNull();
  });
});

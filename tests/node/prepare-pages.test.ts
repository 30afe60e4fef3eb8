import { createRequire } from "node:module";
import { dirname } from "node:path";
import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { openDocument } from "../../app/lib/pages/open-document.ts";
import {
  BLANK_DOCUMENT_ERROR,
  type PageSink,
  pageText,
  plainText,
  preparePages,
  type RenderKit,
} from "../../app/lib/pages/prepare-pages.ts";
import { parseInput } from "../../workers/http/validate.ts";
import { CompletePageSetSchema, type OutlineItem, type PageText, PageTextSchema } from "../../workers/page-images/page-content.ts";
import { CLEANED_TEXT_RUN, CONTROL_TEXT_RUN, controlTextPdf } from "../support/control-text-pdf.ts";

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

/** Opened as the renderers open a PDF: mended where pdf.js would lose pages or ask for a password it does not need. */
function openMended(bytes: Uint8Array) {
  return openDocument(bytes, (data) => getDocument({ data, standardFontDataUrl: `${PDFJS}/standard_fonts/`, verbosity: 0 }));
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

  it("cleans control characters out of a PDF's text (NUL, ESC, ...), keeping every script, and leaves out a run placed off the page, so the server takes the page set", async () => {
    const { sink, calls } = recordingSink();
    const bytes = await controlTextPdf();
    // What pdf.js itself reads from the page: the control characters are there.
    const page = await (await open(bytes.slice())).getPage(1);
    const read = (await page.getTextContent()).items.filter((item) => "str" in item);
    expect(read.map((item) => item.str)).toContain(CONTROL_TEXT_RUN);
    // And a run its overflowing matrix places nowhere (pdf.js gives it a non-finite transform).
    expect(read.some((item) => !(item.transform as number[]).every(Number.isFinite))).toBe(true);

    const progress = await preparePages({ doc: await open(bytes.slice()), done: new Set(), kit, sink });
    expect(progress).toMatchObject({ done: 1, failed: [], total: 1 });
    const text = calls.pages.get(1)!.text;
    expect(text.runs.map((run) => run.str)).toEqual([CLEANED_TEXT_RUN]);
    // Search's plain text: the same, its spaces run together.
    expect(calls.complete?.text).toEqual(["Cellwall green \u05d0\u65e5"]);
    // What the page-set API checks on arrival (workers/api/admin-page-sets.ts) takes both.
    expect(parseInput(PageTextSchema, text)).toMatchObject({ ok: true });
    expect(parseInput(CompletePageSetSchema, calls.complete)).toMatchObject({ ok: true });
  });

  it("keeps a page's text within what the server takes, however much of it the PDF holds", async () => {
    // pdf.js's text content for a page of 60,000 short runs on 600 lines (a fuzzed PDF can hold more).
    const items = Array.from({ length: 60_000 }, (_, i) => ({
      str: `w${i}`,
      transform: [10, 0, 0, 10, 10 + (i % 100) * 5, 780 - Math.floor(i / 100)],
      width: 5,
    }));
    const page = {
      getViewport: () => ({ width: 612, height: 792, convertToViewportPoint: (x: number, y: number) => [x, 792 - y] }),
      getTextContent: async () => ({ items }),
    } as unknown as Parameters<typeof pageText>[0];
    const text = await pageText(page);
    expect(parseInput(PageTextSchema, text)).toMatchObject({ ok: true });
    expect(text.runs.length).toBeGreaterThan(40_000);
    // And a page's plain text for search, at most what the completion takes.
    const long = {
      width: 612,
      height: 792,
      runs: Array.from({ length: 30 }, (_, i) => ({ str: "x".repeat(10_000), x: 0, y: i * 12, w: 500, h: 10 })),
    };
    expect(parseInput(CompletePageSetSchema, { text: [plainText(long)] })).toMatchObject({ ok: true });
  });

  it("skips pages already stored, but still reads their text for search", async () => {
    const { sink, calls } = recordingSink();
    const doc = await open(await (await textPdf(["one", "two", "three"])).save());
    await preparePages({ doc, done: new Set([1, 2]), kit, sink });
    expect([...calls.pages.keys()]).toEqual([3]);
    expect(calls.complete?.text).toEqual(["one", "two", "three"]);
  });

  it("keeps the pages after a page-tree entry that is not a page: that one fails under its own number", async () => {
    const words = ["first", "second", "third", "fourth"];
    const breakages = {
      // The second entry of /Kids points at a number: pdf.js lists no page after it.
      number: (pdf: PDFDocument) => pdf.context.assign(pdf.getPage(1).ref, PDFNumber.of(42)),
      // A page-tree node without a list of pages (nor a count to skip it by).
      node: (pdf: PDFDocument) => pdf.context.assign(pdf.getPage(1).ref, pdf.context.obj({ Type: "Pages", Kids: 7 })),
      // Inside a node of pages 1-3 that pdf.js skips by its /Count: it failed page 3 as well.
      nested: (pdf: PDFDocument) => {
        pdf.context.assign(pdf.getPage(1).ref, PDFNumber.of(42));
        nestPages(pdf, 3);
      },
    };
    for (const [name, breakPageTwo] of Object.entries(breakages)) {
      const pdf = await textPdf(words);
      breakPageTwo(pdf);
      const { doc, task, unreadable } = await openMended(await pdf.save({ useObjectStreams: false }));
      try {
        expect(doc.numPages, name).toBe(4);
        const { sink, calls } = recordingSink();
        const progress = await preparePages({ doc, done: new Set(), unreadable, kit, sink });
        expect([...calls.pages.keys()], name).toEqual([1, 3, 4]);
        expect([...calls.failed.keys()], name).toEqual([2]);
        expect(calls.failed.get(2), name).toMatch(/page tree .* so there is no page here/);
        expect(progress, name).toMatchObject({ done: 3, total: 4 });
        expect(calls.complete?.text, name).toEqual(["first", "", "third", "fourth"]);
      } finally {
        await task.destroy();
      }
    }
  });

  it("opens a PDF whose encryption covers only its attachments, and still refuses one whose pages need a password", async () => {
    const { doc, task } = await openMended(await encryptedPdf("Identity"));
    try {
      const { sink, calls } = recordingSink();
      await preparePages({ doc, done: new Set(), kit, sink });
      expect(calls.complete?.text).toEqual(["Behind a locked attachment"]);
    } finally {
      await task.destroy();
    }
    await expect(openMended(await encryptedPdf("StdCF"))).rejects.toMatchObject({ name: "PasswordException" });
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

/**
 * A one-page PDF with an attachment and an AES-256 /Encrypt dictionary whose user password is not
 * empty (so pdf.js asks for one), like /work/shared/pdfs/encrypted-attachment.pdf: with `Identity`
 * only attachments are encrypted (/EFF), with `StdCF` the pages' streams and strings are too.
 */
async function encryptedPdf(pageFilter: "Identity" | "StdCF") {
  const pdf = await textPdf(["Behind a locked attachment"]);
  await pdf.attach(new TextEncoder().encode("notes"), "notes.txt", { mimeType: "text/plain" });
  const bytes = (length: number, byte: number) => PDFHexString.of(byte.toString(16).padStart(2, "0").repeat(length));
  const encrypt = pdf.context.obj({
    Filter: "Standard",
    V: 5,
    R: 6,
    Length: 256,
    P: -4,
    O: bytes(48, 0x11),
    U: bytes(48, 0x22),
    OE: bytes(32, 0x33),
    UE: bytes(32, 0x44),
    Perms: bytes(16, 0x55),
    CF: { StdCF: { CFM: "AESV3", Length: 32 } },
    StmF: pageFilter,
    StrF: pageFilter,
    EFF: "StdCF",
  });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  pdf.context.trailerInfo.ID = pdf.context.obj([bytes(16, 0x66), bytes(16, 0x66)]);
  return pdf.save({ useObjectStreams: false });
}

/** Moves the first `count` pages into a page-tree node of their own, the first entry of the root. */
function nestPages(pdf: PDFDocument, count: number) {
  const root = pdf.catalog.Pages();
  const rootRef = pdf.catalog.get(PDFName.of("Pages"))!;
  const refs = root.Kids().asArray();
  const nodeRef = pdf.context.register(pdf.context.obj({ Type: "Pages", Kids: refs.slice(0, count), Count: count, Parent: rootRef }));
  for (const ref of refs.slice(0, count)) {
    const page = pdf.context.lookup(ref);
    if (page instanceof PDFDict) page.set(PDFName.of("Parent"), nodeRef);
  }
  root.set(PDFName.of("Kids"), pdf.context.obj([nodeRef, ...refs.slice(count)]));
}

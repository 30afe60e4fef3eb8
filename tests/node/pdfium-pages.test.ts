// The platform renderer's page code (workers/renderer/render-page.ts) on PDFium, as the renderer
// Worker, `npm run pages` and the seed run it: images, text where pdf.js put it, text out of a
// damaged PDF cleaned, rotated pages, blank pages, outlines, encryption. Under Node, on PDFs made here.
import { degrees, PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { plainText } from "#shared/rules/plain-text.ts";
import { loadWhole, nodePdfium } from "../../scripts/lib/node-pdfium.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { PageTextSchema } from "../../workers/page-images/page-content.ts";
import { PASSWORD_MESSAGE } from "../../workers/renderer/messages.ts";
import type { Pdfium } from "../../workers/renderer/pdfium-api.ts";
import { extractOutline, renderPage } from "../../workers/renderer/render-page.ts";
import { CLEANED_TEXT_RUN, controlTextPdf } from "../support/control-text-pdf.ts";

async function withDocument<T>(bytes: Uint8Array, use: (m: Pdfium, doc: number, pageCount: number) => T | Promise<T>): Promise<T> {
  const m = await nodePdfium();
  const { doc, data, pageCount } = loadWhole(m, bytes);
  try {
    return await use(m, doc, pageCount);
  } finally {
    m._FPDF_CloseDocument(doc);
    m._free(data);
  }
}

async function renderAll(bytes: Uint8Array) {
  return withDocument(bytes, (m, doc, pageCount) =>
    Array.from({ length: pageCount }, (_, i) => {
      const page = m._FPDF_LoadPage(doc, i);
      try {
        return renderPage(m, page);
      } finally {
        m._FPDF_ClosePage(page);
      }
    }),
  );
}

async function textPdf(pages: string[], rotate = 0) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const words of pages) {
    const page = pdf.addPage([612, 792]);
    page.setRotation(degrees(rotate));
    page.drawText(words, { x: 72, y: 700, size: 24, font });
  }
  return pdf;
}

describe("a page rendered by PDFium", () => {
  it("is a PNG at 1024 and 2048 px of the page's shape, grey when the page is, with its text where pdf.js placed it", async () => {
    const [page] = await renderAll(await (await textPdf(["Photosynthesis in plants"])).save());
    for (const width of [1024, 2048]) {
      const meta = await sharp(page!.images.get(width)!).metadata();
      expect(meta).toMatchObject({ format: "png", width, height: Math.round((792 * width) / 612), channels: 1 });
    }
    expect(page!.text.width).toBe(612);
    expect(page!.text.runs).toHaveLength(1);
    const [run] = page!.text.runs;
    expect(run!.str).toBe("Photosynthesis in plants");
    // pdf.js: x at the origin (72), the run's top at the baseline (792 - 700) less the font size (24).
    expect(run!.x).toBeCloseTo(72, 0);
    expect(run!.y).toBeCloseTo(68, 0);
    expect(run!.h).toBeCloseTo(24, 0);
    expect(run!.w).toBeGreaterThan(200);
    expect(page!.blank).toBe(false);
    expect(plainText(page!.text)).toBe("Photosynthesis in plants");
  });

  it("draws a page in bands without a seam, and a photograph at 2048 px in a small wasm heap", async () => {
    // A full-page photograph of 3000 x 4500 (noise, so nothing compresses it away) under a dark bar from top to bottom.
    const { data, info } = await sharp({
      // sharp's types want a background; with noise it is not read.
      create: { width: 3000, height: 4500, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(3000);
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 918]);
    page.drawImage(await pdf.embedJpg(data), { x: 0, y: 0, width: 612, height: 918 });
    page.drawRectangle({ x: 300, y: 0, width: 12, height: 918, color: { type: "RGB", red: 0, green: 0, blue: 0 } as never });
    const m = await nodePdfium();
    const before = m.HEAPU8.length;
    const [rendered] = await renderAll(await pdf.save());
    // A 13.5-megapixel photograph: drawn whole at 2048 px it took PDFium's heap to 134 MB, past an
    // isolate's 128 MB; in bands to 93 MB (the decoded photograph itself is most of it).
    expect(Math.max(before, m.HEAPU8.length)).toBeLessThan(100 * 1024 * 1024);
    const { data: pixels, info: decoded } = await sharp(rendered!.images.get(2048)!).raw().toBuffer({ resolveWithObject: true });
    expect([decoded.width, decoded.height]).toEqual([2048, 3072]);
    // The bar's middle column is dark on every row: no band left a row undrawn.
    const x = Math.round((306 / 612) * 2048);
    const light = Array.from({ length: decoded.height }, (_, y) => pixels[(y * decoded.width + x) * decoded.channels]!).filter(
      (v) => v > 60,
    );
    expect(light).toEqual([]);
  });

  it("keeps a colour page in colour", async () => {
    const pdf = await PDFDocument.create();
    pdf
      .addPage([300, 200])
      .drawRectangle({ x: 20, y: 20, width: 100, height: 100, color: { type: "RGB", red: 0.9, green: 0.1, blue: 0.1 } as never });
    const [page] = await renderAll(await pdf.save());
    expect((await sharp(page!.images.get(1024)!).metadata()).channels).toBe(3);
  });

  it("cleans control characters out of a damaged PDF's text, keeping every script, and keeps every run within bounds", async () => {
    const [page] = await renderAll(await controlTextPdf());
    expect(page!.text.runs[0]!.str).toBe(CLEANED_TEXT_RUN);
    // The run whose matrix overflows (pdf.js places it nowhere): PDFium places it, within the coordinates the server takes.
    expect(page!.text.runs.map((run) => run.str)).toEqual([CLEANED_TEXT_RUN, "Far off"]);
    expect(parseInput(PageTextSchema, page!.text)).toMatchObject({ ok: true });
  });

  it("places the text of a rotated page where the rotated page shows it", async () => {
    const [page] = await renderAll(await (await textPdf(["Turned"], 90)).save());
    // A page turned a quarter is shown 792 wide and 612 tall.
    expect([page!.text.width, page!.text.height]).toEqual([792, 612]);
    const [run] = page!.text.runs;
    expect(run!.str).toBe("Turned");
    expect(run!.x).toBeGreaterThanOrEqual(0);
    expect(run!.x).toBeLessThanOrEqual(792);
    expect(run!.y).toBeGreaterThanOrEqual(0);
    expect(run!.y).toBeLessThanOrEqual(612);
  });

  it("says a page with nothing on it is blank", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([300, 200]);
    const [page] = await renderAll(await pdf.save());
    expect(page!.blank).toBe(true);
  });

  it("reads the outline with each entry's page, nested", async () => {
    const pdf = await textPdf(["One", "Two", "Three"]);
    const pages = pdf.getPages().map((page) => page.ref);
    const outlineRef = pdf.context.nextRef();
    const [a, b, c] = [pdf.context.nextRef(), pdf.context.nextRef(), pdf.context.nextRef()];
    pdf.context.assign(
      a,
      pdf.context.obj({ Title: PDFHexString.fromText("Chapter 1"), Parent: outlineRef, Next: b, Dest: [pages[0]!, PDFName.of("Fit")] }),
    );
    pdf.context.assign(
      b,
      pdf.context.obj({
        Title: PDFHexString.fromText("Chapter 2"),
        Parent: outlineRef,
        Prev: a,
        First: c,
        Last: c,
        Count: 1,
        Dest: [pages[1]!, PDFName.of("Fit")],
      }),
    );
    pdf.context.assign(
      c,
      pdf.context.obj({ Title: PDFHexString.fromText("Section 2.1"), Parent: b, Dest: [pages[2]!, PDFName.of("Fit")] }),
    );
    pdf.context.assign(outlineRef, pdf.context.obj({ Type: "Outlines", First: a, Last: b, Count: 3 }));
    pdf.catalog.set(PDFName.of("Outlines"), outlineRef);
    const outline = await withDocument(await pdf.save(), (m, doc, count) => extractOutline(m, doc, count));
    expect(outline).toEqual([
      { title: "Chapter 1", page: 1, items: [] },
      { title: "Chapter 2", page: 2, items: [{ title: "Section 2.1", page: 3, items: [] }] },
    ]);
  });

  it("opens a PDF whose encryption covers only its attachments, and refuses one whose pages need a password", async () => {
    const pdf = await textPdf(["Behind a locked attachment"]);
    await pdf.attach(new TextEncoder().encode("notes"), "notes.txt", { mimeType: "text/plain" });
    const hex = (length: number, byte: number) => PDFHexString.of(byte.toString(16).padStart(2, "0").repeat(length));
    const encrypt = (filter: string) =>
      pdf.context.obj({
        Filter: "Standard",
        V: 5,
        R: 6,
        Length: 256,
        P: -4,
        O: hex(48, 0x11),
        U: hex(48, 0x22),
        OE: hex(32, 0x33),
        UE: hex(32, 0x44),
        Perms: hex(16, 0x55),
        CF: { StdCF: { CFM: "AESV3", Length: 32 } },
        StmF: filter,
        StrF: filter,
        EFF: "StdCF",
      });
    pdf.context.trailerInfo.ID = pdf.context.obj([hex(16, 0x66), hex(16, 0x66)]);
    pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt("Identity"));
    const [page] = await renderAll(await pdf.save({ useObjectStreams: false }));
    expect(plainText(page!.text)).toBe("Behind a locked attachment");
    pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt("StdCF"));
    await expect(renderAll(await pdf.save({ useObjectStreams: false }))).rejects.toThrow(PASSWORD_MESSAGE);
  });

  it("cannot load a page-tree entry that is not a page, and loads the pages after it", async () => {
    const pdf = await textPdf(["first", "second", "third"]);
    pdf.context.assign(pdf.getPage(1).ref, PDFNumber.of(42));
    const loaded = await withDocument(await pdf.save({ useObjectStreams: false }), (m, doc, count) =>
      Array.from({ length: count }, (_, i) => {
        const page = m._FPDF_LoadPage(doc, i);
        if (page) m._FPDF_ClosePage(page);
        return page !== 0;
      }),
    );
    expect(loaded).toEqual([true, false, true]);
  });
});

// The admin's range reader under pdf.js's own transport (its Node build, the same code as the
// browser's): a PDF with an image larger than one range request, as a JPX scan often is.
import { randomBytes } from "node:crypto";
import { concatTransformationMatrix, drawObject, PDFDocument, PDFName, popGraphicsState, pushGraphicsState } from "pdf-lib";
import { getDocument, OPS, PDFDataRangeTransport } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_RANGE, serveRanges } from "../../app/lib/pdf-ranges.ts";

/** One page showing one uncompressed 1000 x 1000 RGB image: a 3 MB stream, three times MAX_RANGE. */
async function bigImagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([300, 300]);
  const image = pdf.context.stream(randomBytes(1000 * 1000 * 3), {
    Type: "XObject",
    Subtype: "Image",
    Width: 1000,
    Height: 1000,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8,
  });
  page.node.setXObject(PDFName.of("Im0"), pdf.context.register(image));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(300, 0, 0, 300, 0, 0), drawObject("Im0"), popGraphicsState());
  return pdf.save({ useObjectStreams: false });
}

/** The PDF endpoint as the Worker answers ranges: 206 with the bytes asked for. */
function serveFile(file: Uint8Array) {
  const ranges: number[] = [];
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init.headers).get("Range") ?? "")!;
    const slice = file.slice(Number(first), Number(last) + 1);
    ranges.push(slice.length);
    return new Response(slice, { status: 206 });
  });
  return ranges;
}

afterEach(() => vi.unstubAllGlobals());

describe("serveRanges", () => {
  it("hands pdf.js each request whole, so a page whose image is larger than one range paints", async () => {
    const file = await bigImagePdf();
    const ranges = serveFile(file);
    const transport = new PDFDataRangeTransport(file.length, null);
    const errors: Error[] = [];
    const controller = new AbortController();
    serveRanges(transport, "/api/books/1/pdf", controller.signal, (error) => errors.push(error));
    const task = getDocument({ range: transport, rangeChunkSize: 128 * 1024, disableAutoFetch: true, disableStream: true, verbosity: 0 });
    try {
      const doc = await task.promise;
      const page = await doc.getPage(1);
      // Before the fix the parts past the first had no reader to go to: this never settled.
      const ops = await Promise.race([
        page.getOperatorList(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("page 1 never loaded")), 15_000)),
      ]);
      expect(ops.fnArray).toContain(OPS.paintImageXObject);
      expect(errors).toEqual([]);
      // The image's request went out in parts, none larger than MAX_RANGE.
      expect(Math.max(...ranges)).toBe(MAX_RANGE);
      expect(ranges.length).toBeGreaterThan(3);
    } finally {
      controller.abort();
      await task.destroy();
    }
  });
});

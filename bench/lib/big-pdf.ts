import {
  concatTransformationMatrix,
  drawObject,
  type PDFDict,
  PDFDocument,
  PDFStream,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from "pdf-lib";

const PAGE_W = 612;
const PAGE_H = 792;
const IMAGE_PX_WIDTH = 256;

/**
 * An unfiltered DeviceRGB image of pseudo-random bytes (xorshift32 from `seed`). Its pixels are made
 * only when the writer copies them into the output, so the document never holds the images and the
 * saved file at once. Seeded rather than random: the same book comes out byte for byte every run, so
 * its rendered pages are found in the page cache (keyed by the PDF's hash) instead of rendered again.
 */
class NoiseImageStream extends PDFStream {
  private readonly size: number;
  private readonly seed: number;
  constructor(dict: PDFDict, size: number, seed: number) {
    super(dict);
    this.size = size;
    this.seed = seed;
  }
  override getContents(): Uint8Array {
    const words = new Uint32Array(Math.ceil(this.size / 4));
    let x = this.seed >>> 0 || 1;
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    return new Uint8Array(words.buffer, 0, this.size);
  }
  override getContentsSize(): number {
    return this.size;
  }
  override getContentsString(): string {
    return "";
  }
}

/**
 * A PDF of `pages` pages and at least `targetBytes` bytes, spread evenly: each page has its own
 * incompressible image, so a reader that downloads more than the pages it shows pays for it.
 */
export async function generateHeavyPdf(options: { pages: number; targetBytes: number }): Promise<Uint8Array> {
  const { pages, targetBytes } = options;
  if (pages < 1) throw new Error("a PDF needs at least one page");
  const rowBytes = IMAGE_PX_WIDTH * 3;
  const height = Math.max(1, Math.ceil(targetBytes / pages / rowBytes));
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Heavy test book (${pages} pages)`);
  doc.setProducer("Lectern bench");
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const imageW = PAGE_W - 144;
  const imageH = Math.min(PAGE_H - 260, (imageW * height) / IMAGE_PX_WIDTH);

  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([PAGE_W, PAGE_H]);
    page.drawText(`Chapter ${Math.ceil(n / 10)}: noise and numbers`, { x: 72, y: PAGE_H - 96, size: 22, font: bold });
    page.drawText(`Page ${n} of ${pages}`, { x: 72, y: PAGE_H - 124, size: 12, font: regular, color: rgb(0.3, 0.3, 0.35) });
    const dict = doc.context.obj({
      Type: "XObject",
      Subtype: "Image",
      Width: IMAGE_PX_WIDTH,
      Height: height,
      ColorSpace: "DeviceRGB",
      BitsPerComponent: 8,
    });
    const image = doc.context.register(new NoiseImageStream(dict, rowBytes * height, 0x9e3779b9 ^ n));
    const name = page.node.newXObject("Noise", image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(imageW, 0, 0, imageH, 72, PAGE_H - 150 - imageH),
      drawObject(name),
      popGraphicsState(),
    );
    page.drawText(String(n), { x: PAGE_W / 2 - 8, y: 48, size: 11, font: regular });
  }
  return doc.save({ objectsPerTick: 500 });
}

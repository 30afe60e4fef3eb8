/**
 * Page pixels (packed RGB rows, as PDFium renders into a BGR bitmap with REVERSE_BYTE_ORDER) to a
 * PNG: greyscale (colour type 0) when every pixel is grey, which most text pages are and which the
 * stamp decodes fastest, else RGB (type 2); every row filtered "Up"; deflated by workerd's native
 * zlib (`node:zlib`, nodejs_compat). Written here rather than taken from a package: the wasm PNG
 * encoders measured in workerd were either slower (libpng inside PDFium: 300 ms a 1024 px page) or
 * did not compress (`@jsquash/png`), and native zlib is the part that costs (docs/decisions/0038).
 */
import { deflateSync } from "node:zlib";
import { chunk, pngFile } from "../page-images/png-file.ts";

/** zlib's level: 3 writes a 2048 px page in about two thirds of level 6's time, for 10 to 20 % more bytes. */
const LEVEL = 3;

/**
 * A PNG written band by band, as a page is rendered in horizontal bands (./render-page.ts): each
 * band's rows are filtered "Up" into the image's one buffer as they arrive, so only a band of
 * pixels is ever in the wasm heap. Greyscale (colour type 0) when every pixel was grey (the Up
 * filter of grey rows is the filter of their red bytes), else RGB (type 2). Also says whether
 * every pixel was (almost) white: a blank page.
 */
export class PngBuilder {
  readonly width: number;
  readonly height: number;
  private readonly raw: Uint8Array;
  private readonly rowBytes: number;
  private previous: Uint8Array | null = null;
  private next = 0;
  grey = true;
  blank = true;

  // Plain fields, not parameter properties: Node's type stripping (the seed) does not take those.
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.rowBytes = width * 3;
    this.raw = new Uint8Array((this.rowBytes + 1) * height);
  }

  /** The next `count` rows, `stride` bytes apart in `pixels` (read before the call returns; copied as needed). */
  addRows(pixels: Uint8Array, stride: number, count: number): void {
    const { raw, rowBytes } = this;
    for (let r = 0; r < count && this.next < this.height; r++, this.next++) {
      const row = pixels.subarray(r * stride, r * stride + rowBytes);
      const out = this.next * (rowBytes + 1);
      const above = this.previous;
      raw[out] = above ? 2 : 0;
      if (this.grey) {
        for (let x = 0; x < rowBytes; x += 3) {
          if (row[x] !== row[x + 1] || row[x] !== row[x + 2]) {
            this.grey = false;
            break;
          }
        }
      }
      if (this.blank) {
        for (let x = 0; x < rowBytes; x++) {
          if (row[x]! < 250) {
            this.blank = false;
            break;
          }
        }
      }
      if (above) for (let x = 0; x < rowBytes; x++) raw[out + 1 + x] = row[x]! - above[x]!;
      else raw.set(row, out + 1);
      this.previous = row;
    }
    // The rows are a view of memory the caller frees: the last one is kept for the next band's filter.
    if (this.previous) this.previous = this.previous.slice();
  }

  finish(): Uint8Array {
    const { width, height, rowBytes } = this;
    let data = this.raw;
    if (this.grey) {
      data = new Uint8Array((width + 1) * height);
      for (let y = 0; y < height; y++) {
        const from = y * (rowBytes + 1);
        const to = y * (width + 1);
        data[to] = this.raw[from]!;
        for (let x = 0; x < width; x++) data[to + 1 + x] = this.raw[from + 1 + x * 3]!;
      }
    }
    const header = new Uint8Array(13);
    const view = new DataView(header.buffer);
    view.setUint32(0, width);
    view.setUint32(4, height);
    header.set([8, this.grey ? 0 : 2, 0, 0, 0], 8);
    return pngFile([
      chunk("IHDR", header),
      chunk("IDAT", new Uint8Array(deflateSync(data, { level: LEVEL }))),
      chunk("IEND", new Uint8Array(0)),
    ]);
  }
}

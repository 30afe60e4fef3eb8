/**
 * Page pixels (packed RGB rows, as PDFium renders into a BGR bitmap with REVERSE_BYTE_ORDER) to a
 * PNG: greyscale (colour type 0) when every pixel is grey, which most text pages are and which the
 * stamp decodes fastest, else RGB (type 2); every row filtered "Up"; deflated by workerd's native
 * zlib (`node:zlib`, nodejs_compat). Written here rather than taken from a package: the wasm PNG
 * encoders measured in workerd were either slower (libpng inside PDFium: 300 ms a 1024 px page) or
 * did not compress (`@jsquash/png`), and native zlib is the part that costs (docs/decisions/0038).
 */
import { deflateSync } from "node:zlib";

/** zlib's level: 3 writes a 2048 px page in about two thirds of level 6's time, for 10 to 20 % more bytes. */
const LEVEL = 3;

const CRC_TABLE = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

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
    const parts = [
      Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10),
      chunk("IHDR", header),
      chunk("IDAT", new Uint8Array(deflateSync(data, { level: LEVEL }))),
      chunk("IEND", new Uint8Array(0)),
    ];
    const png = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) {
      png.set(part, at);
      at += part.length;
    }
    return png;
  }
}

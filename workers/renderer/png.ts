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

export interface RgbRows {
  width: number;
  height: number;
  /** Bytes from one row's start to the next's (PDFium pads rows to 4 bytes). */
  stride: number;
  pixels: Uint8Array;
}

export function isGrey({ width, height, stride, pixels }: RgbRows): boolean {
  for (let y = 0; y < height; y++) {
    for (let i = y * stride, end = i + width * 3; i < end; i += 3) {
      if (pixels[i] !== pixels[i + 1] || pixels[i] !== pixels[i + 2]) return false;
    }
  }
  return true;
}

/** Whether nothing was drawn: every pixel (almost) the white the page was filled with. */
export function isBlank({ width, height, stride, pixels }: RgbRows): boolean {
  for (let y = 0; y < height; y++) {
    for (let i = y * stride, end = i + width * 3; i < end; i++) if (pixels[i]! < 250) return false;
  }
  return true;
}

export function encodePng(rows: RgbRows): Uint8Array {
  const { width, height, stride, pixels } = rows;
  const grey = isGrey(rows);
  const channels = grey ? 1 : 3;
  const rowBytes = width * channels + 1;
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const out = y * rowBytes;
    const from = y * stride;
    const above = from - stride;
    raw[out] = y ? 2 : 0; // Up, or None for the first row
    if (grey) {
      for (let x = 0, i = from; x < width; x++, i += 3) raw[out + 1 + x] = y ? pixels[i]! - pixels[i - stride]! : pixels[i]!;
    } else if (y) {
      for (let x = 0; x < width * 3; x++) raw[out + 1 + x] = pixels[from + x]! - pixels[above + x]!;
    } else {
      raw.set(pixels.subarray(from, from + width * 3), out + 1);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, grey ? 0 : 2, 0, 0, 0], 8);
  const parts = [
    Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: LEVEL }))),
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

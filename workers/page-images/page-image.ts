import { inflateSync } from "node:zlib";
import { concatBytes } from "#shared/concat-bytes.ts";
import { MAX_PAGE_HEIGHT, PAGE_WIDTHS, STORED_PAGE_TYPE } from "#shared/rules/page-format.ts";

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** PNG colour type -> the bit depths it allows (PNG spec, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** The PNGs the Worker decodes: 8 bits per sample, grey (0), RGB (2), grey + alpha (4), RGBA (6) -> samples per pixel. */
const DECODED_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
const MAX_WIDTH = Math.max(...PAGE_WIDTHS);

interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlaced: boolean;
}

/**
 * What an uploaded page image is, by its content only (magic bytes and the IHDR chunk), or null
 * when it is not a stored page image: only PNG is stored (app/lib/pages/page-format.ts), 8 bits per
 * sample, grey or RGB with or without alpha, not interlaced (what canvases write, and all that
 * `decodePageImage` reads), at most the largest page width wide and MAX_PAGE_HEIGHT tall. Whether
 * the width is the one the upload claims is the caller's check.
 */
export function inspectPageImage(bytes: Uint8Array): { type: typeof STORED_PAGE_TYPE; width: number; height: number } | null {
  const header = readPngHeader(bytes);
  if (!header || unsupported(header)) return null;
  return { type: STORED_PAGE_TYPE, width: header.width, height: header.height };
}

function readPngHeader(bytes: Uint8Array): PngHeader | null {
  // Signature (8) + IHDR length (4) + "IHDR" (4) + 13 bytes of IHDR data.
  if (bytes.length < 33) return null;
  if (PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || ascii(bytes, 12, 4) !== "IHDR") return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const bitDepth = bytes[24] as number;
  const colourType = bytes[25] as number;
  const [compression, filter, interlace] = [bytes[26], bytes[27], bytes[28]];
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth)) return null;
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null;
  if (width < 1 || height < 1 || width > MAX_WIDTH || height > MAX_PAGE_HEIGHT) return null;
  return { width, height, bitDepth, colourType, interlaced: interlace === 1 };
}

/** Why a valid PNG is still not a page image the Worker decodes, or null when it is one. */
function unsupported({ bitDepth, colourType, interlaced }: PngHeader): string | null {
  if (interlaced) return "interlaced";
  if (bitDepth !== 8) return `${bitDepth}-bit`;
  if (!DECODED_CHANNELS[colourType]) return "palette";
  return null;
}

/** Decoded page pixels: opaque RGB (3 bytes a pixel) or RGBA with alpha 255 (4), row after row. */
export interface PagePixels {
  width: number;
  height: number;
  channels: 3 | 4;
  pixels: Uint8Array;
}

/** A grey page's pixels as stored, a byte a pixel (grey + alpha laid on white): what a text page is. */
export interface GreyPixels {
  width: number;
  height: number;
  channels: 1;
  pixels: Uint8Array;
}

/**
 * A stored page's pixels, opaque (transparent pixels laid on white, as the reader shows them).
 * zlib inflates the IDAT data natively (node:zlib; measured faster than DecompressionStream and
 * photon, decision 0012), then the scanlines are unfiltered and packed in that same buffer, so an
 * RGB or RGBA page costs one buffer of its decoded size (32 MiB for the tallest RGBA page, 2048 x 4096).
 */
/**
 * A page's pixels as 32-bit words, for settling runs of white (most of a text page) a word at a
 * time: null when its rows do not start on a word (then every pixel is looked at).
 */
export function pixelWords({ pixels, width, channels }: PagePixels | GreyPixels): Int32Array | null {
  return pixels.byteOffset % 4 === 0 && (width * channels) % 4 === 0
    ? new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length >> 2)
    : null;
}

/** Whether `count` words from word `at` are all white (every bit set). */
export function whiteWords(words: Int32Array, at: number, count: number): boolean {
  let all = -1;
  for (let i = 0; i < count; i++) all &= words[at + i] as number;
  return all === -1;
}

export function decodePageImage(png: Uint8Array): PagePixels {
  const page = decodeStoredPage(png);
  return page.channels === 1 ? { ...page, channels: 3, pixels: greyToRgb(page.pixels) } : page;
}

/**
 * A stored page's pixels as decodePageImage gives them, but a grey page stays grey, a byte a pixel:
 * the stamp of a text page reads and writes a third of the bytes it would as RGB (stamp.ts).
 */
export function decodeStoredPage(png: Uint8Array): PagePixels | GreyPixels {
  const header = readPngHeader(png);
  if (!header) throw new Error("not a stored page image (PNG expected)");
  const reason = unsupported(header);
  if (reason) throw new Error(`${reason} PNG: page images are stored as 8-bit, non-interlaced grey or RGB(A) PNG`);
  const { width, height } = header;
  const bpp = DECODED_CHANNELS[header.colourType] as number;
  const stride = width * bpp;
  const expected = height * (stride + 1);
  let raw: Uint8Array;
  try {
    // One output chunk of the exact size: no second copy to join chunks; a plain Uint8Array, not a Buffer, keeps the loops below monomorphic.
    const inflated = inflateSync(idatData(png), { chunkSize: expected, maxOutputLength: expected });
    raw = new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
  } catch (error) {
    throw new Error(`page image pixel data is corrupt (${(error as Error).message})`);
  }
  if (raw.length !== expected) throw new Error("page image is truncated");
  // Rows are moved to their final place (dropping the filter byte) first and unfiltered there, so
  // that RGB(A) rows start on a 4-byte boundary and Up and Sub can add 4 bytes at a time.
  const words = raw.byteOffset % 4 === 0 && stride % 4 === 0 ? new Int32Array(raw.buffer, raw.byteOffset, (height * stride) / 4) : null;
  for (let y = 0; y < height; y++) {
    const from = y * (stride + 1);
    const filter = raw[from] as number;
    // Row y moves to y * stride: never over a row not yet read.
    raw.copyWithin(y * stride, from + 1, from + 1 + stride);
    unfilter(filter, raw, words, y * stride, stride, bpp, y === 0);
  }
  const packed = raw.subarray(0, height * stride);
  if (bpp === 3) return { width, height, channels: 3, pixels: packed };
  if (bpp === 4) {
    layOnWhite(packed);
    return { width, height, channels: 4, pixels: packed };
  }
  return { width, height, channels: 1, pixels: bpp === 1 ? packed : greyOnWhite(packed) };
}

/** The IDAT chunks' data, concatenated; throws when a chunk runs past the end or IEND is missing. */
function idatData(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 8; ; ) {
    if (at + 12 > png.length) throw new Error("page image is truncated");
    const length = view.getUint32(at);
    const type = ascii(png, at + 4, 4);
    const start = at + 8;
    at = start + length + 4;
    if (at > png.length) throw new Error("page image is truncated");
    if (type === "IDAT") parts.push(png.subarray(start, start + length));
    if (type === "IEND") return concatBytes(parts);
  }
}

/**
 * Undoes the filter of the row at `at` in place (PNG spec 9.2); the row above, already unfiltered,
 * is the `stride` bytes before it (zeros for the first row). `words`, when given, views the same
 * bytes 4 at a time.
 */
function unfilter(filter: number, px: Uint8Array, words: Int32Array | null, at: number, stride: number, bpp: number, first: boolean) {
  const end = at + stride;
  switch (filter) {
    case 0:
      return;
    case 1:
      if (words && bpp === 4)
        for (let j = (at >> 2) + 1; j < end >> 2; j++) words[j] = addBytes(words[j] as number, words[j - 1] as number);
      else for (let i = at + bpp; i < end; i++) px[i] = (px[i] as number) + (px[i - bpp] as number);
      return;
    case 2:
      if (first) return;
      if (words)
        for (let j = at >> 2, up = stride >> 2; j < end >> 2; j++) words[j] = addBytes(words[j] as number, words[j - up] as number);
      else for (let i = at; i < end; i++) px[i] = (px[i] as number) + (px[i - stride] as number);
      return;
    case 3:
      // With no row above (the first row), Average predicts half the left byte and Paeth the left byte.
      if (first) for (let i = at + bpp; i < end; i++) px[i] = (px[i] as number) + ((px[i - bpp] as number) >> 1);
      else {
        for (let i = at; i < at + bpp; i++) px[i] = (px[i] as number) + ((px[i - stride] as number) >> 1);
        for (let i = at + bpp; i < end; i++) px[i] = (px[i] as number) + (((px[i - bpp] as number) + (px[i - stride] as number)) >> 1);
      }
      return;
    case 4:
      if (first) for (let i = at + bpp; i < end; i++) px[i] = (px[i] as number) + (px[i - bpp] as number);
      else {
        for (let i = at; i < at + bpp; i++) px[i] = (px[i] as number) + (px[i - stride] as number);
        for (let i = at + bpp; i < end; i++)
          px[i] = (px[i] as number) + paeth(px[i - bpp] as number, px[i - stride] as number, px[i - stride - bpp] as number);
      }
      return;
    default:
      throw new Error(`page image has an unknown scanline filter (${filter})`);
  }
}

/** The Paeth predictor; flat areas (b = c, or a = c) settle without the full arithmetic. */
function paeth(a: number, b: number, c: number): number {
  if (b === c) return a;
  if (a === c) return b;
  let pa = b - c;
  let pb = a - c;
  let pc = pa + pb;
  if (pa < 0) pa = -pa;
  if (pb < 0) pb = -pb;
  if (pc < 0) pc = -pc;
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Four bytes added pairwise, each modulo 256 (no carry from one byte into the next). */
function addBytes(x: number, y: number): number {
  return ((x & 0x7f7f7f7f) + (y & 0x7f7f7f7f)) ^ ((x ^ y) & 0x80808080);
}

/** Lays RGBA pixels that are not opaque on white, in place (a word at a time where the buffer allows). */
function layOnWhite(rgba: Uint8Array): void {
  const aligned = rgba.byteOffset % 4 === 0;
  // Little-endian words: alpha is the top byte, so an opaque pixel's word shifted right by 24 is -1
  // (signed words: V8 keeps them in integer registers, where uint32 above 2^31 would be doubles).
  const words = aligned ? new Int32Array(rgba.buffer, rgba.byteOffset, rgba.length / 4) : null;
  for (let i = 0; i < rgba.length; i += 4) {
    if (words ? (words[i >> 2] as number) >> 24 === -1 : rgba[i + 3] === 255) continue;
    const a = rgba[i + 3] as number;
    for (let c = i; c < i + 3; c++) rgba[c] = ((rgba[c] as number) * a + 255 * (255 - a) + 127) / 255;
    rgba[i + 3] = 255;
  }
}

/** Grey + alpha as opaque grey, a byte a pixel, in place (laid on white as layOnWhite lays RGBA). */
function greyOnWhite(greyAlpha: Uint8Array): Uint8Array {
  const grey = greyAlpha.subarray(0, greyAlpha.length / 2);
  for (let i = 0, o = 0; i < greyAlpha.length; i += 2, o++) {
    const a = greyAlpha[i + 1] as number;
    grey[o] = ((greyAlpha[i] as number) * a + 255 * (255 - a) + 127) / 255;
  }
  return grey;
}

/** Opaque grey, a byte a pixel, as RGB. */
function greyToRgb(grey: Uint8Array): Uint8Array {
  const rgb = new Uint8Array(grey.length * 3);
  for (let i = 0, o = 0; i < grey.length; i++, o += 3) {
    const v = grey[i] as number;
    rgb[o] = v;
    rgb[o + 1] = v;
    rgb[o + 2] = v;
  }
  return rgb;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

import { inflateSync } from "node:zlib";
import { concatBytes } from "#shared/concat-bytes.ts";

/**
 * Any PNG as RGBA, 8 bits a sample: grey, RGB, palette, grey + alpha, RGBA; 1 to 16 bits; tRNS;
 * interlaced or not. Written here rather than taken from @jsquash/png: its wasm instance is one per
 * isolate and keeps the memory it grew to (75 MB after one 8-megapixel PNG, measured, decision
 * 0023), while this inflates with the runtime's native zlib into JS buffers that are freed after:
 * the inflated scanlines and the RGBA output, nothing else.
 */
export interface RgbaPixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Samples per pixel by PNG colour type (PNG spec, 11.2.2). */
export const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export function decodePngPixels(png: Uint8Array): RgbaPixels {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const [depth, colourType, , , interlace] = png.subarray(24, 29) as unknown as number[];
  const channels = PNG_CHANNELS[colourType as number];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth as number)) throw new Error("unsupported PNG header");
  let palette: Uint8Array = new Uint8Array();
  let transparency: Uint8Array = new Uint8Array();
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "PLTE") palette = data;
    else if (type === "tRNS") transparency = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(concatBytes(idat)));
  const pixel = pixelReader(colourType as number, depth as number, palette, transparency);
  const bits = channels * (depth as number);
  const step = Math.max(1, bits >> 3);
  const out = new Uint8Array(width * height * 4);
  const passes = interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  let offset = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((width - x0) / dx);
    const rows = Math.ceil((height - y0) / dy);
    if (columns <= 0 || rows <= 0) continue;
    const rowBytes = Math.ceil((columns * bits) / 8);
    let previous: Uint8Array | null = null;
    for (let r = 0; r < rows; r++, offset += rowBytes + 1) {
      if (offset + rowBytes + 1 > raw.length) throw new Error("PNG data cut short");
      const row = raw.subarray(offset + 1, offset + 1 + rowBytes);
      unfilter(raw[offset] as number, row, previous, step);
      for (let c = 0, o = ((y0 + r * dy) * width + x0) * 4; c < columns; c++, o += dx * 4) pixel(row, c, out, o);
      previous = row;
    }
  }
  return { width, height, data: out };
}

/** Undoes a scanline's filter in place (PNG spec, 9.2); `step` is the bytes of a whole pixel, at least 1. */
function unfilter(filter: number, row: Uint8Array, previous: Uint8Array | null, step: number): void {
  if (filter === 0) return;
  if (filter > 4) throw new Error(`unknown PNG filter ${filter}`);
  const above = previous ?? new Uint8Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const a = i >= step ? (row[i - step] as number) : 0;
    const b = above[i] as number;
    const add =
      filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, i >= step ? (above[i - step] as number) : 0);
    row[i] = ((row[i] as number) + add) & 255;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

type PixelReader = (row: Uint8Array, column: number, out: Uint8Array, at: number) => void;

/** Writes pixel `column` of an unfiltered row as RGBA at `out[at]`. */
function pixelReader(colourType: number, depth: number, palette: Uint8Array, transparency: Uint8Array): PixelReader {
  const channels = PNG_CHANNELS[colourType] as number;
  // The raw value of sample `s` of pixel `column`: sub-byte samples packed from the high bits, 16-bit big-endian.
  const sample = (row: Uint8Array, column: number, s: number): number => {
    if (depth === 8) return row[column * channels + s] as number;
    if (depth === 16) return (((row[(column * channels + s) * 2] as number) << 8) | (row[(column * channels + s) * 2 + 1] as number)) >>> 0;
    const bit = column * depth;
    return ((row[bit >> 3] as number) >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  };
  const max = (1 << depth) - 1;
  const to8 = (value: number) => (depth === 8 ? value : depth === 16 ? value >> 8 : Math.round((value * 255) / max));
  const key = (i: number) =>
    transparency.length >= 2 * (i + 1) ? ((transparency[2 * i] as number) << 8) | (transparency[2 * i + 1] as number) : -1;
  if (colourType === 3)
    return (row, column, out, at) => {
      const index = sample(row, column, 0);
      out[at] = palette[index * 3] ?? 0;
      out[at + 1] = palette[index * 3 + 1] ?? 0;
      out[at + 2] = palette[index * 3 + 2] ?? 0;
      out[at + 3] = transparency[index] ?? 255;
    };
  if (colourType === 0 || colourType === 4) {
    const transparentGrey = key(0);
    return (row, column, out, at) => {
      const grey = sample(row, column, 0);
      out[at] = out[at + 1] = out[at + 2] = to8(grey);
      out[at + 3] = colourType === 4 ? to8(sample(row, column, 1)) : grey === transparentGrey ? 0 : 255;
    };
  }
  const [tr, tg, tb] = [key(0), key(1), key(2)];
  return (row, column, out, at) => {
    const r = sample(row, column, 0);
    const g = sample(row, column, 1);
    const b = sample(row, column, 2);
    out[at] = to8(r);
    out[at + 1] = to8(g);
    out[at + 2] = to8(b);
    out[at + 3] = colourType === 6 ? to8(sample(row, column, 3)) : r === tr && g === tg && b === tb ? 0 : 255;
  };
}

/**
 * The hidden mark in a teacher's page image (docs/decisions/0025-leak-trace.md).
 *
 * The page is cut into square blocks, MARK_COLUMNS across its width whatever the image's width
 * (16 px at 1024, 32 at 2048, 10 at the 640 px preview), so the pattern is the same in every
 * rendition. A secret layout gives each block one of the code's CODE_BITS bits and a sign; every
 * pixel that is not paper-white moves DELTA levels of luma up or down by its block's sign times the
 * bit, where the page has edges (markWeight). The code is 256 bits of HMAC-SHA256 over (teacher, day) (mark-key.ts), so without the secret
 * a teacher can neither read it nor write another teacher's.
 *
 * Paper stays white: a threshold at any level then keeps the mark where it matters, on the
 * anti-aliased edges of the text (which span every grey level) and on pictures; JPEG, WebP and
 * scaling move luma by less than the mark does on average over a block. Reading it (read-mark.ts)
 * compares the suspect image, registered onto the stored page, with the stored page itself.
 */

import { pixelWords, whiteWords } from "../page-images/page-image.ts";

export const MARK_COLUMNS = 64;
export const CODE_BITS = 256;
/** Rows of blocks the layout covers: pages up to 4 x as tall as wide (MAX_PAGE_ASPECT). */
export const MARK_ROWS = MARK_COLUMNS * 4 + 1;
/** How far, in levels of luma, the mark moves a pixel that is not paper. */
export const DELTA = 24;
/** Pixels at least this light are paper: never marked (thresholding them would print the mark). */
export const PAPER = 248;
/** From here up to PAPER, the mark fades out (anti-aliased edges close to white). */
const FADE_FROM = 224;

/** Per block (row-major, MARK_COLUMNS wide): which bit of the code it carries, and with which sign. */
export interface MarkLayout {
  bits: Uint8Array;
  signs: Int8Array;
}

/** The layout from 32 secret bytes: each run of CODE_BITS blocks carries every bit once, in a secret order and with secret signs. */
export function createLayout(seed: Uint8Array): MarkLayout {
  const random = xoshiro128(seed);
  const count = MARK_COLUMNS * MARK_ROWS;
  const bits = new Uint8Array(count);
  const signs = new Int8Array(count);
  const order = Uint8Array.from({ length: CODE_BITS }, (_, i) => i);
  for (let start = 0; start < count; start += CODE_BITS) {
    for (let i = CODE_BITS - 1; i > 0; i--) {
      const j = random() % (i + 1);
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    for (let i = 0; i < CODE_BITS && start + i < count; i++) {
      bits[start + i] = order[i] as number;
      signs[start + i] = random() & 1 ? 1 : -1;
    }
  }
  return { bits, signs };
}

/** A small, well-known PRNG (xoshiro128**), seeded from the secret: the layout must be the same in every isolate. */
function xoshiro128(seed: Uint8Array): () => number {
  const view = new DataView(seed.buffer, seed.byteOffset, seed.byteLength);
  let a = view.getUint32(0) | 1;
  let b = view.getUint32(4);
  let c = view.getUint32(8);
  let d = view.getUint32(12);
  return () => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** The block (row-major, MARK_COLUMNS wide) a pixel of a page `width` wide falls in. */
export function markBlock(x: number, y: number, width: number): number {
  const column = Math.min(MARK_COLUMNS - 1, Math.floor((x * MARK_COLUMNS) / width));
  return Math.min(MARK_ROWS - 1, Math.floor((y * MARK_COLUMNS) / width)) * MARK_COLUMNS + column;
}

/** The sign (+1 / -1) of each block for one code: the layout's sign times the code's bit. */
export function blockSigns(layout: MarkLayout, code: Uint8Array): Int8Array {
  const out = new Int8Array(layout.bits.length);
  for (let i = 0; i < out.length; i++) {
    const bit = layout.bits[i] as number;
    const set = ((code[bit >> 3] as number) >> (bit & 7)) & 1;
    out[i] = set ? (layout.signs[i] as number) : -(layout.signs[i] as number);
  }
  return out;
}

/** How much of DELTA a pixel of this luma gets: all of it, fading to none toward paper white. */
const STRENGTH = Int16Array.from({ length: 256 }, (_, luma) =>
  luma >= PAPER ? 0 : luma <= FADE_FROM ? DELTA : Math.round((DELTA * (PAPER - luma)) / (PAPER - FADE_FROM)),
);

/**
 * Where the eye would see the mark, it is not written: a pixel gets DELTA times its activity (the
 * luma differences to its neighbours left and right, above and below, out of ACTIVE), so an edge of
 * a letter or a line gets all of it and a flat field of colour (a cover's blue, a photo's sky) none.
 * Measured: a plain 10-level move in 16 px blocks reads as a checkerboard on a flat cover.
 */
export const ACTIVE = 96;

/** The share (0-256) of the mark a pixel takes, from its luma and its neighbours' (luma: row-major, width wide). */
export function markWeight(luma: ArrayLike<number>, width: number, height: number, x: number, y: number): number {
  const i = y * width + x;
  const v = luma[i] as number;
  if (v >= PAPER) return 0;
  const left = x > 0 ? (luma[i - 1] as number) : v;
  const right = x < width - 1 ? (luma[i + 1] as number) : v;
  const up = y > 0 ? (luma[i - width] as number) : v;
  const down = y < height - 1 ? (luma[i + width] as number) : v;
  const activity = Math.abs(right - left) + Math.abs(down - up);
  const fade = (STRENGTH[v] as number) / DELTA;
  return Math.round(Math.min(1, activity / ACTIVE) * fade * 256);
}

/**
 * Writes the mark into RGB(A) pixels in place (before the visible stamp and the encoder). The
 * activity is read from the rows above, at and below as they were before the mark (two rows are
 * kept aside, copied whole): no full-page luma copy, and a run of white pixels (most of a text
 * page) skipped 12 bytes at a time (4 RGB or 3 RGBA pixels).
 */
export function embedMark(pixels: Uint8Array, width: number, height: number, channels: 3 | 4, signs: Int8Array): void {
  const columnOf = new Uint8Array(width);
  for (let x = 0; x < width; x++) columnOf[x] = Math.min(MARK_COLUMNS - 1, Math.floor((x * MARK_COLUMNS) / width));
  const rowBytes = width * channels;
  const words = pixelWords({ pixels, width, height, channels });
  const run = 12 / channels;
  let above = new Uint8Array(rowBytes);
  let here = new Uint8Array(rowBytes);
  here.set(pixels.subarray(0, rowBytes));
  above.set(here);
  for (let y = 0; y < height; y++) {
    const row = Math.min(MARK_ROWS - 1, Math.floor((y * MARK_COLUMNS) / width)) * MARK_COLUMNS;
    const start = y * rowBytes;
    const last = y + 1 >= height;
    for (let x = 0, q = 0; x < width; x++, q += channels) {
      if (words !== null && q % 12 === 0 && x + run <= width) {
        if (whiteWords(words, (start + q) >> 2, 3)) {
          x += run - 1;
          q += 12 - channels;
          continue;
        }
      }
      const r = here[q] as number;
      const g = here[q + 1] as number;
      const b = here[q + 2] as number;
      const luma = (r + 2 * g + b) >> 2;
      if (luma >= PAPER) continue;
      const left = x > 0 ? (here[q - channels + 1] as number) : g;
      const right = x < width - 1 ? (here[q + channels + 1] as number) : g;
      // The next row is not marked yet: read in place.
      const down = last ? g : (pixels[start + rowBytes + q + 1] as number);
      const activity = Math.abs(right - left) + Math.abs(down - (above[q + 1] as number));
      if (activity === 0) continue;
      const strength = ((STRENGTH[luma] as number) * Math.min(ACTIVE, activity)) / ACTIVE;
      const move = Math.round(strength * (signs[row + (columnOf[x] as number)] as number));
      if (move === 0) continue;
      const p = start + q;
      pixels[p] = clamp(r + move);
      pixels[p + 1] = clamp(g + move);
      pixels[p + 2] = clamp(b + move);
    }
    // This row as it was becomes the row above; the next row is copied before it is marked.
    const spare = above;
    above = here;
    here = spare;
    if (!last) here.set(pixels.subarray(start + rowBytes, start + 2 * rowBytes));
  }
}

function clamp(v: number): number {
  return Math.max(0, Math.min(255, v));
}

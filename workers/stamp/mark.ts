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
 * The move a pixel gets, by luma and activity (capped at ACTIVE), for each sign: the same
 * arithmetic as markWeight's, looked up rather than worked out per pixel (a photo page has a
 * million pixels that are not paper). Two tables, as Math.round rounds halves up whatever the sign.
 */
/** MOVES' stride per luma: activity 0..ACTIVE, padded to a power of two so the index is a shift. */
const ACTIVITY_STRIDE = 128;
const MOVE_SPAN = 256 * ACTIVITY_STRIDE;
/**
 * The move a pixel gets, by its block's sign, its luma and its activity (capped at ACTIVE): the
 * same arithmetic as markWeight's, looked up rather than worked out per pixel (a photo page has a
 * million pixels that are not paper). Paper and flat pixels look up a move of 0. Each sign has its
 * half, as Math.round rounds halves up whatever the sign.
 */
const MOVES = Int8Array.from({ length: 2 * MOVE_SPAN }, (_, i) => {
  const sign = i < MOVE_SPAN ? 1 : -1;
  const luma = Math.floor((i % MOVE_SPAN) / ACTIVITY_STRIDE);
  const activity = Math.min(ACTIVE, i % ACTIVITY_STRIDE);
  return Math.round((((STRENGTH[luma] as number) * activity) / ACTIVE) * sign);
});
/** A channel plus a move, clamped to 0..255 by a look-up (offset by DELTA): no branch per channel. */
const CLAMPED = Uint8Array.from({ length: 256 + 2 * DELTA }, (_, i) => Math.max(0, Math.min(255, i - DELTA)));

/** Writes the mark into grey, RGB or RGBA pixels in place (before the visible stamp and the encoder). */
export function embedMark(pixels: Uint8Array, width: number, height: number, channels: 1 | 3 | 4, signs: Int8Array): void {
  // The activity is read from the page as it was before the mark: a copy to read from (a memcpy,
  // a millisecond at 1024 px) costs less than keeping rows aside.
  if (channels === 1) markGreyPixels(pixels.slice(), pixels, width, height, signs);
  else markPixels(pixels.slice(), pixels, width, height, channels, channels, signs);
}

/**
 * An RGB page, marked, as the opaque RGBA that libwebp takes: the mark's pass writes every pixel
 * once, so the page is widened to RGBA in the same pass rather than in one more (a colour page's
 * 1.4 million pixels, about 7 ms at 1024 px). stampPage runs the same pass in WebAssembly SIMD
 * (mark-simd.ts, about a fifth of this one's CPU); this is the reference it is tested against.
 */
export function markedRgba(rgb: Uint8Array, width: number, height: number, signs: Int8Array): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  markPixels(rgb, rgba, width, height, 3, 4, signs);
  return rgba;
}

/**
 * The mark from `source` into `target` (the same page; target RGBA when it is wider than the
 * source, and then every pixel is written). The row is walked a block at a time, so a block's sign
 * is looked up once, not per pixel. In place (same channels), a run of four white source pixels
 * (most of a text page) is skipped with one look at three or four 32-bit words.
 */
function markPixels(source: Uint8Array, target: Uint8Array, width: number, height: number, from: 3 | 4, to: 3 | 4, signs: Int8Array) {
  const ends = blockEnds(width);
  const words = to === from ? pixelWords({ pixels: source, width, height, channels: from }) : null;
  const targetWords = to !== from ? new Int32Array(target.buffer, target.byteOffset, target.length >> 2) : null;
  const rowBytes = width * from;
  for (let y = 0; y < height; y++) {
    const row = Math.min(MARK_ROWS - 1, Math.floor((y * MARK_COLUMNS) / width)) * MARK_COLUMNS;
    const start = y * rowBytes;
    // The first and the last row stand in for the rows beyond them.
    const up = y > 0 ? -rowBytes : 0;
    const down = y + 1 < height ? rowBytes : 0;
    for (let column = 0, x = 0; column < MARK_COLUMNS; column++) {
      const half = (signs[row + column] as number) > 0 ? 0 : MOVE_SPAN;
      for (const end = ends[column] as number; x < end; x++) {
        const p = start + x * from;
        if (words !== null && (x & 3) === 0 && x + 4 <= end && whiteWords(words, p >> 2, from)) {
          x += 3;
          continue;
        }
        const r = source[p] as number;
        const g = source[p + 1] as number;
        const b = source[p + 2] as number;
        const left = x > 0 ? (source[p - from + 1] as number) : g;
        const right = x < width - 1 ? (source[p + from + 1] as number) : g;
        const vertical = Math.abs((source[p + down + 1] as number) - (source[p + up + 1] as number));
        const activity = Math.abs(right - left) + vertical;
        // No branch on paper, flat fields or a zero move: on a photo they are a coin toss each, and
        // a mispredicted jump costs more than writing a pixel back unchanged.
        const move = DELTA + (MOVES[half + ((r + 2 * g + b) >> 2) * ACTIVITY_STRIDE + Math.min(activity, ACTIVE)] as number);
        if (targetWords !== null) {
          targetWords[y * width + x] =
            (CLAMPED[r + move] as number) | ((CLAMPED[g + move] as number) << 8) | ((CLAMPED[b + move] as number) << 16) | -16777216;
        } else {
          target[p] = CLAMPED[r + move] as number;
          target[p + 1] = CLAMPED[g + move] as number;
          target[p + 2] = CLAMPED[b + move] as number;
        }
      }
    }
  }
}

/** Where each of the MARK_COLUMNS blocks of a row `width` pixels wide ends (markBlock's columns). */
function blockEnds(width: number): Int32Array {
  const ends = new Int32Array(MARK_COLUMNS);
  for (let x = 0; x < width; x++) ends[Math.min(MARK_COLUMNS - 1, Math.floor((x * MARK_COLUMNS) / width))] = x + 1;
  for (let column = 1; column < MARK_COLUMNS; column++) ends[column] = Math.max(ends[column] as number, ends[column - 1] as number);
  return ends;
}

/**
 * markPixels on a grey page, a byte a pixel: the same arithmetic, where a grey pixel's luma and
 * green are the pixel itself, so a grey page marked here equals it widened to RGB, marked there and
 * reduced again (tests/worker/page-stamp.test.ts). A run of four white pixels is one 32-bit word.
 */
function markGreyPixels(source: Uint8Array, target: Uint8Array, width: number, height: number, signs: Int8Array) {
  const ends = blockEnds(width);
  const words = pixelWords({ pixels: source, width, height, channels: 1 });
  for (let y = 0; y < height; y++) {
    const row = Math.min(MARK_ROWS - 1, Math.floor((y * MARK_COLUMNS) / width)) * MARK_COLUMNS;
    const start = y * width;
    const up = y > 0 ? -width : 0;
    const down = y + 1 < height ? width : 0;
    for (let column = 0, x = 0; column < MARK_COLUMNS; column++) {
      const half = (signs[row + column] as number) > 0 ? 0 : MOVE_SPAN;
      for (const end = ends[column] as number; x < end; x++) {
        const p = start + x;
        if (words !== null && (x & 3) === 0 && x + 4 <= end && (words[p >> 2] as number) === -1) {
          x += 3;
          continue;
        }
        const v = source[p] as number;
        const left = x > 0 ? (source[p - 1] as number) : v;
        const right = x < width - 1 ? (source[p + 1] as number) : v;
        const activity = Math.abs(right - left) + Math.abs((source[p + down] as number) - (source[p + up] as number));
        target[p] = CLAMPED[v + DELTA + (MOVES[half + v * ACTIVITY_STRIDE + Math.min(activity, ACTIVE)] as number)] as number;
      }
    }
  }
}

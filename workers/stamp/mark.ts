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
 * scaling move luma by less than the mark does on average over a block. Reading it (readMark)
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

/**
 * What the suspect does to each grey of the page (a threshold, JPEG, a screen's gamma): the mean
 * suspect luma for each original luma, so that only what the mark moved is left.
 */
export function toneCurve(original: Uint8Array, suspect: Float32Array): Float64Array {
  const sums = new Float64Array(256);
  const counts = new Float64Array(256);
  for (let i = 0; i < original.length; i++) {
    const s = suspect[i] as number;
    if (Number.isNaN(s)) continue;
    const o = original[i] as number;
    sums[o] = (sums[o] as number) + s;
    counts[o] = (counts[o] as number) + 1;
  }
  const predicted = new Float64Array(256);
  for (let v = 0; v < 256; v++) predicted[v] = counts[v] ? (sums[v] as number) / (counts[v] as number) : Number.NaN;
  return predicted;
}

/**
 * The mark as read from a suspect image registered onto the stored page: for each bit, the sum
 * over its blocks of (suspect - what the stored page predicts) times the block's layout sign.
 * `original` and `suspect` are luma in the stored page's frame (NaN where the suspect has no pixel).
 */
export function readMark(
  original: Uint8Array,
  suspect: Float32Array,
  width: number,
  height: number,
  layout: MarkLayout,
  predicted = toneCurve(original, suspect),
): Float64Array {
  const soft = new Float64Array(CODE_BITS);
  const blockPixels = width / MARK_COLUMNS;
  for (let y = 0; y < height; y++) {
    const row = Math.min(MARK_ROWS - 1, Math.floor(y / blockPixels)) * MARK_COLUMNS;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const o = original[i] as number;
      if (o >= PAPER) continue;
      const s = suspect[i] as number;
      if (Number.isNaN(s)) continue;
      const weight = markWeight(original, width, height, x, y);
      if (weight === 0) continue;
      const block = row + Math.min(MARK_COLUMNS - 1, Math.floor(x / blockPixels));
      const bit = layout.bits[block] as number;
      soft[bit] = (soft[bit] as number) + ((layout.signs[block] as number) * weight * (s - (predicted[o] as number))) / 256;
    }
  }
  return soft;
}

/**
 * The stamp's share of the mark (watermark.ts: a tile leaves out 2 in 5 of its dots where a block
 * says +1 on a light page, and lightens less where it says -1 on a dark one), read against a
 * candidate's own stamp. Per block, `flatInk` (once per read) sums how much darker than the tone
 * curve predicts the suspect is on the page's flat pixels (paper, a tint, a cover's field: where
 * the stamp is, and not the letters' edges, where a threshold or JPEG moves luma most); the
 * candidate's stamp (watermark.ts stampPrediction) says how many dots and how much lightening it
 * put there. The blocks' ink is fitted as a multiple of each plus a share of their flat pixels
 * (the tone curve carries the stamp's mean); a block lighter than the fit says +1, weighted by how
 * much stamp it holds. A candidate whose stamp is not the image's gets a prediction that fits
 * nothing: soft bits with no more to do with its code than any others (the bound in trace-core.ts
 * holds for them).
 */
export function flatInk(original: Uint8Array, suspect: Float32Array, width: number, height: number, predicted: Float64Array) {
  const ink = new Float64Array(MARK_COLUMNS * MARK_ROWS);
  const flat = new Float64Array(MARK_COLUMNS * MARK_ROWS);
  const blockPixels = width / MARK_COLUMNS;
  for (let y = 1; y < height - 1; y++) {
    const row = Math.min(MARK_ROWS - 1, Math.floor(y / blockPixels)) * MARK_COLUMNS;
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const s = suspect[i] as number;
      if (Number.isNaN(s)) continue;
      const o = original[i] as number;
      const level = predicted[o] as number;
      if (Number.isNaN(level)) continue;
      const activity =
        Math.abs((original[i + 1] as number) - (original[i - 1] as number)) +
        Math.abs((original[i + width] as number) - (original[i - width] as number));
      if (activity > FLAT) continue;
      const block = row + Math.min(MARK_COLUMNS - 1, Math.floor(x / blockPixels));
      ink[block] = (ink[block] as number) + level - s;
      flat[block] = (flat[block] as number) + 1;
    }
  }
  return { ink, flat };
}

/** A pixel whose luma differs from its neighbours' by at most this much (left/right plus up/down) is flat. */
const FLAT = 16;

export function readStampMark(
  { ink, flat }: { ink: Float64Array; flat: Float64Array },
  { dots, light }: { dots: Float64Array; light: Float64Array },
  layout: MarkLayout,
): Float64Array {
  // Least squares of ink = a * dots + b * light + c * flat over the blocks the stamp touches.
  const m = new Float64Array(9);
  const r = new Float64Array(3);
  for (let b = 0; b < dots.length; b++) {
    const v: [number, number, number] = [dots[b] as number, light[b] as number, flat[b] as number];
    if (v[0] === 0 && v[1] === 0) continue;
    const i = ink[b] as number;
    for (let j = 0; j < 3; j++) {
      const vj = v[j] as number;
      r[j] = (r[j] as number) + vj * i;
      for (let k = 0; k < 3; k++) m[3 * j + k] = (m[3 * j + k] as number) + vj * (v[k] as number);
    }
  }
  const soft = new Float64Array(CODE_BITS);
  const fit = solve3(m, r);
  if (!fit) return soft;
  const [a, b, c] = fit;
  // How much of the stamp a block holds, in luma: where the modulation can show.
  const [dotWeight, lightWeight] = [Math.max(0, a), Math.max(0, -b)];
  for (let block = 0; block < dots.length; block++) {
    const d = dots[block] as number;
    const l = light[block] as number;
    if (d === 0 && l === 0) continue;
    const lighter = a * d + b * l + c * (flat[block] as number) - (ink[block] as number);
    const bit = layout.bits[block] as number;
    soft[bit] = (soft[bit] as number) + (layout.signs[block] as number) * lighter * (dotWeight * d + lightWeight * l);
  }
  return soft;
}

/** The 3 x 3 system m x = r (row-major m) by Cramer's rule, with the columns no block varies left at 0; null when nothing varies. */
function solve3(m: Float64Array, r: Float64Array): [number, number, number] | null {
  // A prediction with no dots (a dark page) or no lightening (a light one) leaves its column empty.
  const used = [0, 1, 2].filter((j) => (m[4 * j] as number) > 0);
  const n = used.length;
  if (n === 0) return null;
  const at = (j: number, k: number) => m[3 * (used[j] as number) + (used[k] as number)] as number;
  const rhs = (j: number) => r[used[j] as number] as number;
  const det = (cols: (j: number, k: number) => number) =>
    n === 1
      ? cols(0, 0)
      : n === 2
        ? cols(0, 0) * cols(1, 1) - cols(0, 1) * cols(1, 0)
        : cols(0, 0) * (cols(1, 1) * cols(2, 2) - cols(1, 2) * cols(2, 1)) -
          cols(0, 1) * (cols(1, 0) * cols(2, 2) - cols(1, 2) * cols(2, 0)) +
          cols(0, 2) * (cols(1, 0) * cols(2, 1) - cols(1, 1) * cols(2, 0));
  const whole = det(at);
  if (!(Math.abs(whole) > 1e-9)) return null;
  const out: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < n; k++) out[used[k] as number] = det((j, col) => (col === k ? rhs(j) : at(j, col))) / whole;
  return out;
}

/** Two reads of the mark (the page's ink, the stamp's dots) as one, each scaled to unit length first. */
export function joinSoft(a: Float64Array, b: Float64Array): Float64Array {
  const norm = (v: Float64Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)) || 1;
  const [na, nb] = [norm(a), norm(b)];
  return a.map((x, i) => x / na + (b[i] as number) / nb);
}

/**
 * How strongly a code is in the soft bits: the correlation, scaled so that a code the image does
 * not carry scores like a standard normal variable, and a perfect read sqrt(CODE_BITS) = 16.
 */
export function codeScore(soft: Float64Array, code: Uint8Array): number {
  let dot = 0;
  let norm = 0;
  for (let bit = 0; bit < CODE_BITS; bit++) {
    const v = soft[bit] as number;
    norm += v * v;
    dot += ((code[bit >> 3] as number) >> (bit & 7)) & 1 ? v : -v;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

/**
 * Reading the hidden mark (mark.ts) back from a suspect image registered onto the stored page, for
 * the trace (docs/decisions/0025-leak-trace.md): from the page's ink (readMark) and from the
 * visible stamp's dots (flatInk, readStampMark), and how strongly a code is in what was read.
 */
import { CODE_BITS, MARK_COLUMNS, MARK_ROWS, type MarkLayout, markWeight, PAPER } from "./mark.ts";

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
 * nothing: soft bits with no more to do with its code than any others (the bound in leaks/mark-reading.ts
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

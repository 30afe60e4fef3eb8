import type { Grey } from "./grey.ts";

/**
 * How well `b` (the suspect) is told by `a` (the page) through any change of greys: the correlation
 * ratio, sqrt of the share of b's variance that a's grey level explains, corrected for the number
 * of bins. A threshold, gamma or JPEG keep it near 1 where the two show the same thing; a plain
 * correlation would not survive the threshold. -1 when fewer than `minShare` of the pixels overlap.
 */
/** toneFit's bins, reused: it runs hundreds of thousands of times a trace. */
const COUNTS = new Float64Array(256);
const SUMS = new Float64Array(256);

export function toneFit(a: Grey, b: Grey, minShare: number, bins = 32, shift = 0, rows: [number, number] = [0, b.height]): number {
  const counts = COUNTS.fill(0, 0, bins);
  const sums = SUMS.fill(0, 0, bins);
  let n = 0;
  let total = 0;
  let squares = 0;
  const width = a.width;
  const scale = bins / 256;
  // Row j of `a` against row j + shift of `b` (the same width): a page slid along a strip of the suspect.
  // `rows`: where b has pixels at all (validRows), so that a small suspect costs what it shows.
  for (let j = Math.max(0, -shift, rows[0] - shift), last = Math.min(a.height, rows[1] - shift); j < last; j++) {
    const rowA = j * width;
    const rowB = (j + shift) * width;
    for (let i = 0; i < width; i++) {
      const y = b.data[rowB + i] as number;
      if (Number.isNaN(y)) continue;
      const k = Math.min(bins - 1, Math.max(0, Math.floor((a.data[rowA + i] as number) * scale)));
      counts[k] = (counts[k] as number) + 1;
      sums[k] = (sums[k] as number) + y;
      n++;
      total += y;
      squares += y * y;
    }
  }
  if (n < minShare * a.data.length || n < 4 * bins) return -1;
  const variance = squares - (total * total) / n;
  if (variance <= 1e-6) return -1;
  let explained = 0;
  let used = 0;
  for (let k = 0; k < bins; k++) {
    const c = counts[k] as number;
    if (!c) continue;
    used++;
    explained += ((sums[k] as number) * (sums[k] as number)) / c;
  }
  const eta2 = (explained - (total * total) / n) / variance;
  const adjusted = eta2 - ((used - 1) / Math.max(1, n - used)) * (1 - eta2);
  return adjusted > 0 ? Math.sqrt(adjusted) : 0;
}

import type { TextMask } from "../page-images/text-mask.ts";
import { MARK_COLUMNS, MARK_ROWS, markBlock } from "./mark.ts";
import { tilePlaces, watermarkFor } from "./stamp-text.ts";

/**
 * The watermark in the pixels of a page: the teacher's lines as a light block tiled in staggered
 * rows over the whole page, and once more, stronger and small, on one line (two if it does not
 * fit) at the foot. Text is drawn by text-mask.ts (DejaVu Sans Condensed outlines: Latin, Greek,
 * Cyrillic; a box for anything else) once per teacher and width, then cached per isolate.
 *
 * The ink follows the page. Where the page is light, the tiles are a stipple: a share of the
 * glyphs' pixels (ordered dither of their coverage) turned near-black, as dark as text ink, so the
 * block reads as light grey at reading size yet no grey-level threshold that keeps the text can
 * remove it (issue 25). Where the page is dark (a navy cover, white text on black) the tiles
 * lighten it by a set amount of luma. Light or dark is the mean luma of the 16 px cell a mark pixel
 * falls in, measured when the mark first touches the cell. Darkening keeps black text black and
 * lightening keeps white text white.
 *
 * The tiles carry the hidden mark too (issue 25, decision 25): where the mark's block says +1, a
 * fixed share of the stipple's dots (`dropped`) is left out, so the stamp is a little lighter
 * there; on a dark page, where the tiles lighten it, they lighten it less (WEAK_LIGHT) where the
 * block says -1. Either way +1 is lighter, as in the page's own share of the mark. A quarter of a
 * page that shows five tiles and a line of text, or a quarter of a cover, then still carries the
 * mark. Reading it needs the teacher's own stamp as the prediction (stampPrediction), drawn the
 * same way.
 */

/**
 * The lines stamped on a teacher's pages on a UTC day ("2026-11-22" -> "Nov 22, 2026"): the reader
 * draws them, and the trace draws them again to read the stamp's share of the hidden mark.
 */
export function watermarkLines(name: string, email: string, school: string, day: string): string[] {
  const date = new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  return [name, email, school, date];
}

/** libwebp settings for stamped pages: method 0 is its fastest; q75 keeps small text crisp. */
export const STAMPED_WEBP_OPTIONS = { quality: 75, method: 0 } as const;
/**
 * The data saver's colour pages (docs/decisions/0048): q50 takes a 640 px colour page from about
 * 66 kB to 56 kB; the hidden mark survives it (the trace bench attacks with WebP q50).
 */
export const SAVER_WEBP_OPTIONS = { quality: 50, method: 0 } as const;

/**
 * How far the mark moves a fully covered pixel's luma, out of 255, where it lightens a dark page
 * (the tiles) or darkens or lightens it (the foot). The tile's 44 is more than the widest step (43)
 * between the grey PNG's 8 levels, so it survives that rounding on any grey; the foot's is white ->
 * #454545.
 */
const TILE_CONTRAST = 44;
const FOOT_CONTRAST = 186;
/** A cell this dark or darker gets light ink: on white paper, over 60% of the cell would be black ink, which body text never is. */
const DARK_CELL = 96;
const CELL_SHIFT = 4;
/**
 * The stipple on light paper (stamp-text.ts, `stipple`): a dot keeps 16/256 of the paper's luma, white -> 15,
 * the grey PNG's black level: as dark as text ink, so a threshold that keeps the text keeps the dots.
 */
const DOT_KEEP = 16;
/** On dark cells, the share (of 256) of the tiles' lightening where the hidden mark's block is -1. */
const WEAK_LIGHT = 154;
/** A pixel this much darker than its cell's paper is ink (text, an edge of it): no dot there. */
const INK_MARGIN = 24;

/**
 * Composites the watermark into RGB (3 channels) or RGBA (4) pixels in place: darker ink on light
 * areas, lighter on dark ones. With `mark` (the hidden mark's block signs, mark.ts), the
 * tiles' dots carry it as well.
 */
export function watermarkPixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  lines: string[],
  channels: 1 | 3 | 4 = 4,
  mark?: Int8Array,
): void {
  const page = pageOf(pixels, width, height, channels);
  const { tile, dots, foot } = watermarkFor(lines, width);
  const stipple = { dots, mark };
  for (const [x, y] of tilePlaces(tile, width, height)) blend(page, tile, x, y, TILE_INK, stipple);
  const scale = width / 1024;
  const footX = Math.max(0, Math.round((width - foot.width) / 2));
  const footY = Math.max(0, height - foot.height - Math.round(8 * scale));
  blend(page, foot, footX, footY, FOOT_INK);
}

/** What a teacher's stamp does to each block of the hidden mark when no block carries the mark. */
export interface StampPrediction {
  /** Dots the tiles put there (light cells). */
  dots: Float64Array;
  /** Luma the tiles add there (dark cells), summed over its pixels. */
  light: Float64Array;
}

/**
 * Per block of the hidden mark (mark.ts), what the tiles `lines` draw do there on a grey
 * page (`luma`, one byte a pixel) when no block carries the mark: the prediction the trace reads
 * the stamp's share of the mark against. `seen(x, y)` says whether the suspect shows that pixel.
 */
export function stampPrediction(
  luma: Uint8Array,
  width: number,
  height: number,
  lines: string[],
  seen: (x: number, y: number) => boolean,
): StampPrediction {
  const page = pageOf(luma, width, height, 1);
  const { tile, dots } = watermarkFor(lines, width);
  const out = { dots: new Float64Array(MARK_COLUMNS * MARK_ROWS), light: new Float64Array(MARK_COLUMNS * MARK_ROWS) };
  const { xs, ys, alphas } = tile;
  for (const [left, top] of tilePlaces(tile, width, height)) {
    for (let i = 0; i < alphas.length; i++) {
      const x = left + (xs[i] as number);
      const y = top + (ys[i] as number);
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const cell = (y >> CELL_SHIFT) * page.columns + (x >> CELL_SHIFT);
      let cellLight = page.cells[cell] as number;
      if (cellLight < 0) cellLight = page.cells[cell] = cellLuma(page, x >> CELL_SHIFT, y >> CELL_SHIFT);
      const strength = TILE_INK[cellLight] as number;
      const v = luma[y * width + x] as number;
      if (strength > 0) {
        if (!dots[i] || v < (page.paper[cell] as number) - INK_MARGIN || !seen(x, y)) continue;
        const block = markBlock(x, y, width);
        out.dots[block] = (out.dots[block] as number) + 1;
      } else if (seen(x, y)) {
        const block = markBlock(x, y, width);
        out.light[block] = (out.light[block] as number) + ((255 - v) * (alphas[i] as number) * -strength) / (1 << 16);
      }
    }
  }
  return out;
}

/**
 * The share of a tile's dots left out where the hidden mark's block says +1: 2 in 5, chosen by a
 * hash of the pixel so no pattern shows. Less is too little to read in a quarter (decision 25).
 */
function dropped(x: number, y: number): boolean {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y + 0x632be5ab, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return ((h >>> 16) & 0xffff) % 5 < 2;
}

function pageOf(pixels: Uint8Array, width: number, height: number, channels: number): Page {
  const columns = (width >> CELL_SHIFT) + 1;
  const cellCount = columns * ((height >> CELL_SHIFT) + 1);
  return { pixels, width, height, channels, columns, cells: new Int16Array(cellCount).fill(-1), paper: new Uint8Array(cellCount) };
}

interface Page {
  pixels: Uint8Array;
  width: number;
  height: number;
  /** 1 (grey: a text page, or the trace's prediction), 3 or 4. */
  channels: number;
  /** Cells per row, and each cell's mean luma once measured (-1 before). */
  columns: number;
  cells: Int16Array;
  /** Each cell's lightest sampled luma: its paper, measured with its mean. */
  paper: Uint8Array;
}

/**
 * By a cell's mean luma, how strongly (out of 256) the ink moves a covered pixel toward black
 * (positive) or white (negative) so that the cell's luma moves by `contrast`. Dark cells get light
 * ink; so do mid-tones when lightening has more room than darkening and darkening too little.
 */
function inkByLuma(contrast: number): Int16Array {
  return Int16Array.from({ length: 256 }, (_, luma) =>
    luma > DARK_CELL && (luma >= contrast || luma >= 255 - luma)
      ? Math.min(256, Math.round((contrast * 256) / luma))
      : -Math.min(256, Math.round((contrast * 256) / (255 - luma))),
  );
}
const TILE_INK = inkByLuma(TILE_CONTRAST);
const FOOT_INK = inkByLuma(FOOT_CONTRAST);

/**
 * With `stipple`, light cells get only its dots, near-black (fewer where its mark's block is +1);
 * without, every covered pixel moves by its coverage.
 */
function blend(
  page: Page,
  mask: TextMask,
  left: number,
  top: number,
  ink: Int16Array,
  stipple?: { dots: Uint8Array; mark?: Int8Array | undefined },
) {
  const { pixels, width, height, channels, columns, cells, paper } = page;
  const { xs, ys, alphas } = mask;
  for (let i = 0; i < alphas.length; i++) {
    const x = left + (xs[i] as number);
    const y = top + (ys[i] as number);
    if (x < 0 || y < 0 || x >= width || y >= height) continue;
    const cell = (y >> CELL_SHIFT) * columns + (x >> CELL_SHIFT);
    let luma = cells[cell] as number;
    if (luma < 0) luma = cells[cell] = cellLuma(page, x >> CELL_SHIFT, y >> CELL_SHIFT);
    const strength = ink[luma] as number;
    let p = (y * width + x) * channels;
    const end = p + (channels === 1 ? 1 : 3);
    if (strength > 0 && stipple) {
      if (!stipple.dots[i]) continue;
      // Dots go on paper only: text and its anti-aliased edges stay exactly as they were.
      const luma4 =
        channels === 1 ? 4 * (pixels[p] as number) : (pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number);
      if (luma4 < 4 * ((paper[cell] as number) - INK_MARGIN)) continue;
      if (stipple.mark && (stipple.mark[markBlock(x, y, width)] as number) > 0 && dropped(x, y)) continue;
      for (; p < end; p++) pixels[p] = ((pixels[p] as number) * DOT_KEEP) >> 8;
    } else if (strength > 0) {
      const a = ((alphas[i] as number) * strength) >> 8;
      for (; p < end; p++) pixels[p] = (pixels[p] as number) - (((pixels[p] as number) * a) >> 8);
    } else {
      let a = ((alphas[i] as number) * -strength) >> 8;
      // On dark cells the tiles lighten: less where the mark's block is -1, so +1 is lighter here too.
      if (stipple?.mark && (stipple.mark[markBlock(x, y, width)] as number) < 0) a = (a * WEAK_LIGHT) >> 8;
      for (; p < end; p++) pixels[p] = (pixels[p] as number) + (((255 - (pixels[p] as number)) * a) >> 8);
    }
  }
}

/** Mean luma, (r + 2g + b) / 4, of one cell from every other pixel of every other row (64 of its 256); its maximum goes to `paper`. */
function cellLuma({ pixels, width, height, channels, columns, paper }: Page, column: number, row: number): number {
  const left = column << CELL_SHIFT;
  const top = row << CELL_SHIFT;
  const right = Math.min(width, left + (1 << CELL_SHIFT));
  const bottom = Math.min(height, top + (1 << CELL_SHIFT));
  let sum = 0;
  let count = 0;
  let lightest = 0;
  for (let y = top; y < bottom; y += 2) {
    for (let p = (y * width + left) * channels, end = (y * width + right) * channels; p < end; p += 2 * channels) {
      const luma4 =
        channels === 1 ? 4 * (pixels[p] as number) : (pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number);
      sum += luma4;
      if (luma4 > lightest) lightest = luma4;
      count++;
    }
  }
  paper[row * columns + column] = count ? lightest >> 2 : 255;
  return count ? Math.round(sum / (4 * count)) : 255;
}

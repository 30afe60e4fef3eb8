import { renderText, type TextMask } from "./text-mask.ts";

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
 */

/** libwebp settings for stamped pages: method 0 is its fastest; q75 keeps small text crisp. */
export const STAMPED_WEBP_OPTIONS = { quality: 75, method: 0 } as const;

interface Watermark {
  tile: TextMask;
  /** Per tile pixel, 1 where the stipple puts a dark dot. */
  dots: Uint8Array;
  foot: TextMask;
}

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
 * The stipple on light paper (see `stipple`): a dot keeps 16/256 of the paper's luma, white -> 15,
 * the grey PNG's black level: as dark as text ink, so a threshold that keeps the text keeps the dots.
 */
const DOT_COVERAGE = 128;
const DOT_KEEP = 16;
/** A pixel this much darker than its cell's paper is ink (text, an edge of it): no dot there. */
const INK_MARGIN = 24;
const CACHE_LIMIT = 32;

/** Per isolate: the rendered text of the last teachers seen, by width. Text rendering is the slow part. */
const watermarks = new Map<string, Watermark>();

/** Composites the watermark into RGB (3 channels) or RGBA (4) pixels in place: darker ink on light areas, lighter on dark ones. */
export function watermarkPixels(pixels: Uint8Array, width: number, height: number, lines: string[], channels: 3 | 4 = 4): void {
  const columns = (width >> CELL_SHIFT) + 1;
  const cellCount = columns * ((height >> CELL_SHIFT) + 1);
  const page: Page = {
    pixels,
    width,
    height,
    channels,
    columns,
    cells: new Int16Array(cellCount).fill(-1),
    paper: new Uint8Array(cellCount),
  };
  const { tile, dots, foot } = watermarkFor(lines, width);
  const scale = width / 1024;
  // Gaps of about a block's size: every region of the page carries a mark, yet most of it none.
  const pitchX = tile.width + Math.round(220 * scale);
  const pitchY = tile.height + Math.round(150 * scale);
  for (let row = 0, y = Math.round(40 * scale); y < height; row++, y += pitchY) {
    const offset = row % 2 ? -Math.round(pitchX / 2) : 0;
    for (let x = offset; x < width; x += pitchX) blend(page, tile, x, y, TILE_INK, dots);
  }
  const footX = Math.max(0, Math.round((width - foot.width) / 2));
  const footY = Math.max(0, height - foot.height - Math.round(8 * scale));
  blend(page, foot, footX, footY, FOOT_INK);
}

interface Page {
  pixels: Uint8Array;
  width: number;
  height: number;
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

/** With `dots`, light cells get only the dots, near-black; without, every covered pixel moves by its coverage. */
function blend(page: Page, mask: TextMask, left: number, top: number, ink: Int16Array, dots?: Uint8Array) {
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
    const end = p + 3;
    if (strength > 0 && dots) {
      if (!dots[i]) continue;
      // Dots go on paper only: text and its anti-aliased edges stay exactly as they were.
      const luma4 = (pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number);
      if (luma4 < 4 * ((paper[cell] as number) - INK_MARGIN)) continue;
      for (; p < end; p++) pixels[p] = ((pixels[p] as number) * DOT_KEEP) >> 8;
    } else if (strength > 0) {
      const a = ((alphas[i] as number) * strength) >> 8;
      for (; p < end; p++) pixels[p] = (pixels[p] as number) - (((pixels[p] as number) * a) >> 8);
    } else {
      const a = ((alphas[i] as number) * -strength) >> 8;
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
      const luma4 = (pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number);
      sum += luma4;
      if (luma4 > lightest) lightest = luma4;
      count++;
    }
  }
  paper[row * columns + column] = count ? lightest >> 2 : 255;
  return count ? Math.round(sum / (4 * count)) : 255;
}

function watermarkFor(lines: string[], width: number): Watermark {
  const key = `${width}\n${lines.join("\n")}`;
  const cached = watermarks.get(key);
  if (cached) {
    watermarks.delete(key);
    watermarks.set(key, cached);
    return cached;
  }
  const scale = width / 1024;
  const text = lines.map((line) => line.trim()).filter(Boolean);
  const tile = renderText(text, Math.round(14 * scale));
  const footSize = Math.round(12 * scale);
  let foot = renderText([text.join(" · ")], footSize);
  if (foot.width > width - 32 * scale) {
    const half = Math.ceil(text.length / 2);
    foot = renderText([text.slice(0, half).join(" · "), text.slice(half).join(" · ")], footSize);
  }
  const watermark = { tile, dots: stipple(tile), foot };
  watermarks.set(key, watermark);
  if (watermarks.size > CACHE_LIMIT) watermarks.delete(watermarks.keys().next().value as string);
  return watermark;
}

/**
 * Which of the tile's pixels are dots: every other pixel, in a checkerboard fixed to the tile, of
 * those at least half covered. Each stroke stays a dotted line, so the lines read at 1x and 0.75x;
 * ordered dither (4x4 Bayer, 3 or 4 in 16) was as light but left 1-px strokes without dots.
 */
function stipple({ xs, ys, alphas }: TextMask): Uint8Array {
  return Uint8Array.from(alphas, (alpha, i) => (alpha >= DOT_COVERAGE && (((xs[i] as number) + (ys[i] as number)) & 1) === 0 ? 1 : 0));
}

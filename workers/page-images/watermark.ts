import { draw_text, PhotonImage } from "@cf-wasm/photon";

/**
 * The watermark in the pixels of a page: the teacher's lines as a light block tiled in staggered
 * rows over the whole page, and once more, stronger and small, on one line (two if it does not
 * fit) at the foot. Text is drawn by photon (its built-in Roboto: Latin, Greek and Cyrillic; no
 * CJK) once per teacher and width, then cached per isolate.
 *
 * The ink follows the page: where the page is light the mark darkens it, where it is dark (a navy
 * cover, white text on black) it lightens it, by the same amount of luma either way, so the mark
 * reads alike on any background. Light or dark is the mean luma of the 16 px cell a mark pixel
 * falls in, measured when the mark first touches the cell. Darkening keeps black text black and
 * lightening keeps white text white. On a white page the mark is as light as it was (#D3D3D3).
 */

/** libwebp settings for stamped pages: method 0 is its fastest; q75 keeps small text crisp. */
export const STAMPED_WEBP_OPTIONS = { quality: 75, method: 0 } as const;

/** A block of text as coverage: only the covered pixels, as (x, y, alpha) triples. */
interface TextMask {
  width: number;
  height: number;
  xs: Uint16Array;
  ys: Uint16Array;
  alphas: Uint8Array;
}

interface Watermark {
  tile: TextMask;
  foot: TextMask;
}

/**
 * How far the mark moves a fully covered pixel's luma, out of 255. The tile's 44 is white ->
 * #D3D3D3, and more than the widest step (43) between the grey PNG's 8 levels, so it survives
 * that rounding on any grey; the foot's is white -> #454545.
 */
const TILE_CONTRAST = 44;
const FOOT_CONTRAST = 186;
/** A cell this dark or darker gets light ink: on white paper, over 60% of the cell would be black ink, which body text never is. */
const DARK_CELL = 96;
const CELL_SHIFT = 4;
const CACHE_LIMIT = 32;

/** Per isolate: the rendered text of the last teachers seen, by width. Text rendering is the slow part. */
const watermarks = new Map<string, Watermark>();

/** Composites the watermark into RGB (3 channels) or RGBA (4) pixels in place: darker ink on light areas, lighter on dark ones. */
export function watermarkPixels(pixels: Uint8Array, width: number, height: number, lines: string[], channels: 3 | 4 = 4): void {
  const columns = (width >> CELL_SHIFT) + 1;
  const page: Page = { pixels, width, height, channels, columns, cells: new Int16Array(columns * ((height >> CELL_SHIFT) + 1)).fill(-1) };
  const { tile, foot } = watermarkFor(lines, width);
  const scale = width / 1024;
  // Gaps of about a block's size: every region of the page carries a mark, yet most of it none.
  const pitchX = tile.width + Math.round(220 * scale);
  const pitchY = tile.height + Math.round(150 * scale);
  for (let row = 0, y = Math.round(40 * scale); y < height; row++, y += pitchY) {
    const offset = row % 2 ? -Math.round(pitchX / 2) : 0;
    for (let x = offset; x < width; x += pitchX) blend(page, tile, x, y, TILE_INK);
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

function blend(page: Page, mask: TextMask, left: number, top: number, ink: Int16Array) {
  const { pixels, width, height, channels, columns, cells } = page;
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
    if (strength > 0) {
      const a = ((alphas[i] as number) * strength) >> 8;
      for (; p < end; p++) pixels[p] = (pixels[p] as number) - (((pixels[p] as number) * a) >> 8);
    } else {
      const a = ((alphas[i] as number) * -strength) >> 8;
      for (; p < end; p++) pixels[p] = (pixels[p] as number) + (((255 - (pixels[p] as number)) * a) >> 8);
    }
  }
}

/** Mean luma, (r + 2g + b) / 4, of one cell from every other pixel of every other row (64 of its 256). */
function cellLuma({ pixels, width, height, channels }: Page, column: number, row: number): number {
  const left = column << CELL_SHIFT;
  const top = row << CELL_SHIFT;
  const right = Math.min(width, left + (1 << CELL_SHIFT));
  const bottom = Math.min(height, top + (1 << CELL_SHIFT));
  let sum = 0;
  let count = 0;
  for (let y = top; y < bottom; y += 2) {
    for (let p = (y * width + left) * channels, end = (y * width + right) * channels; p < end; p += 2 * channels) {
      sum += (pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number);
      count++;
    }
  }
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
  const watermark = { tile, foot };
  watermarks.set(key, watermark);
  if (watermarks.size > CACHE_LIMIT) watermarks.delete(watermarks.keys().next().value as string);
  return watermark;
}

/** Photon draws white text only: draw it on black and read the red channel as coverage. */
function renderText(lines: string[], fontSize: number): TextMask {
  const lineHeight = Math.ceil(fontSize * 1.35);
  const longest = Math.max(...lines.map((line) => line.length));
  const width = Math.min(8192, Math.ceil(longest * fontSize * 0.75) + 8);
  const height = lineHeight * lines.length + 8;
  const black = new Uint8Array(width * height * 4);
  for (let i = 3; i < black.length; i += 4) black[i] = 255;
  const image = new PhotonImage(black, width, height);
  let pixels: Uint8Array;
  try {
    for (const [i, line] of lines.entries()) draw_text(image, line, 2, 2 + i * lineHeight, fontSize);
    pixels = image.get_raw_pixels();
  } finally {
    image.free();
  }
  let count = 0;
  let right = 0;
  let bottom = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!pixels[(y * width + x) * 4]) continue;
      count++;
      if (x > right) right = x;
      if (y > bottom) bottom = y;
    }
  }
  const xs = new Uint16Array(count);
  const ys = new Uint16Array(count);
  const alphas = new Uint8Array(count);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const alpha = pixels[(y * width + x) * 4] as number;
      if (!alpha) continue;
      xs[i] = x;
      ys[i] = y;
      alphas[i++] = alpha;
    }
  }
  return { width: right + 1, height: bottom + 1, xs, ys, alphas };
}

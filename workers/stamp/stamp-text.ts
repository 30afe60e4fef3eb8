/**
 * The teacher's stamp as text drawn for one page width (watermark.ts): the tile, which of its pixels
 * are dots, the line at the foot, and where the tiles go on a page. Drawn once per teacher and
 * width, then cached per isolate: rendering text is the slow part.
 */
import { renderText, type TextMask } from "../page-images/text-mask.ts";

export interface Watermark {
  tile: TextMask;
  /** Per tile pixel, 1 where the stipple puts a dark dot. */
  dots: Uint8Array;
  foot: TextMask;
}

/** A tile pixel covered at least this much (of 256) may be a dot (stipple). */
const DOT_COVERAGE = 128;
/** Teachers' rendered stamps kept per isolate (~15 kB each): the trace draws the stamps of many candidates, several times a trace. */
const CACHE_LIMIT = 256;

/** Per isolate: the rendered text of the last teachers seen, by width. Text rendering is the slow part. */
const watermarks = new Map<string, Watermark>();

/**
 * Where the tiles go: staggered rows from the top, gaps of about a tile's size, so every region of
 * the page carries a stamp yet most of it none.
 */
export function tilePlaces(tile: TextMask, width: number, height: number): Array<[number, number]> {
  const scale = width / 1024;
  const pitchX = tile.width + Math.round(220 * scale);
  const pitchY = tile.height + Math.round(150 * scale);
  const places: Array<[number, number]> = [];
  for (let row = 0, y = Math.round(40 * scale); y < height; row++, y += pitchY) {
    const offset = row % 2 ? -Math.round(pitchX / 2) : 0;
    for (let x = offset; x < width; x += pitchX) places.push([x, y]);
  }
  return places;
}

export function watermarkFor(lines: string[], width: number): Watermark {
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

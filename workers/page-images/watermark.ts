import { draw_text, PhotonImage } from "@cf-wasm/photon";

/**
 * The watermark in the pixels of a page: the teacher's lines as a light grey block tiled in
 * staggered rows over the whole page, and once more, darker and small, on one line (two if it does
 * not fit) at the foot. Text is drawn by photon (its built-in Roboto: Latin, Greek and Cyrillic;
 * no CJK) once per teacher and width, then cached per isolate.
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

const TILE_GREY = 0x60;
const TILE_OPACITY = 0.24;
const FOOT_GREY = 0x30;
const FOOT_OPACITY = 0.9;
const CACHE_LIMIT = 32;

/** Per isolate: the rendered text of the last teachers seen, by width. Text rendering is the slow part. */
const watermarks = new Map<string, Watermark>();

/** Composites the watermark into RGB (3 channels) or RGBA (4) pixels in place (darken only, so black text stays black). */
export function watermarkPixels(pixels: Uint8Array, width: number, height: number, lines: string[], channels: 3 | 4 = 4): void {
  const image = { pixels, width, height, channels };
  const { tile, foot } = watermarkFor(lines, width);
  const scale = width / 1024;
  // Gaps of about a block's size: every region of the page carries a mark, yet most of it none.
  const pitchX = tile.width + Math.round(220 * scale);
  const pitchY = tile.height + Math.round(150 * scale);
  const tileAlpha = Math.round(TILE_OPACITY * 256);
  for (let row = 0, y = Math.round(40 * scale); y < height; row++, y += pitchY) {
    const offset = row % 2 ? -Math.round(pitchX / 2) : 0;
    for (let x = offset; x < width; x += pitchX) blend(image, tile, x, y, TILE_GREY, tileAlpha);
  }
  const footX = Math.max(0, Math.round((width - foot.width) / 2));
  const footY = Math.max(0, height - foot.height - Math.round(8 * scale));
  blend(image, foot, footX, footY, FOOT_GREY, Math.round(FOOT_OPACITY * 256));
}

interface Pixels {
  pixels: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

function blend({ pixels, width, height, channels }: Pixels, mask: TextMask, left: number, top: number, grey: number, opacity: number) {
  const { xs, ys, alphas } = mask;
  for (let i = 0; i < alphas.length; i++) {
    const x = left + (xs[i] as number);
    const y = top + (ys[i] as number);
    if (x < 0 || y < 0 || x >= width || y >= height) continue;
    const a = ((alphas[i] as number) * opacity) >> 8;
    let p = (y * width + x) * channels;
    for (const end = p + 3; p < end; p++) {
      const v = pixels[p] as number;
      if (v > grey) pixels[p] = v - (((v - grey) * a) >> 8);
    }
  }
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

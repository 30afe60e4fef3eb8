import { deflateSync } from "node:zlib";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode.js";
import { downscalePixels } from "../page-images/downscale.ts";
import { decodeStoredPage, type GreyPixels, type PagePixels, pixelWords, whiteWords } from "../page-images/page-image.ts";
import { chunk, pngFile } from "../page-images/png-file.ts";
import { embedMark } from "./mark.ts";
import { markedRgbaSimd } from "./mark-simd.ts";
import { SAVER_WEBP_OPTIONS, STAMPED_WEBP_OPTIONS, watermarkPixels } from "./watermark.ts";

/** How a stamped page is encoded: as sharp as the reader shows it, or the data saver's smaller bytes. */
export type StampQuality = "sharp" | "saver";

/**
 * Every page image a teacher sees is stamped here from the stored, unmarked PNG: decoded with
 * native zlib (page-image.ts), the watermark composited into the pixels (watermark.ts), then
 * written as an 8-level grey PNG when the page has no colour (text pages: a third of lossy WebP's
 * CPU, half its bytes) or as lossy WebP (libwebp) when it has. Measured in
 * docs/decisions/0012-page-watermark.md (bench/lib/stamp-bench.ts).
 *
 * libwebp's wasm is imported as a module (workerd compiles it at upload) and instantiated on the
 * first colour page (once per isolate).
 *
 * `quality` "saver" is the reader's data saver (docs/decisions/0048): 4 greys instead of 8 on a
 * text page, WebP q50 instead of q75 on a colour one, for about a fifth fewer bytes.
 */
export async function stampPage(
  stored: Uint8Array,
  lines: string[],
  width?: number,
  mark?: Int8Array,
  quality: StampQuality = "sharp",
): Promise<{ bytes: Uint8Array; contentType: string }> {
  if (!lines.some((line) => line.trim())) throw new Error("a page is never served without a watermark");
  // Narrower than stored: the reader's quick first look at a page (PREVIEW_WIDTH), before the sharp one.
  const decoded = decodeStoredPage(stored);
  // A page stored grey (the renderer stores a page with no colour so) stays grey, a byte a pixel,
  // from the decode to the PNG: a third of the bytes to scale, mark, stamp and read back, and the
  // same image as the RGB path would make of it.
  if (decoded.channels === 1) {
    const grey = width ? downscalePixels(decoded, width) : decoded;
    if (mark) embedMark(grey.pixels, grey.width, grey.height, 1, mark);
    watermarkPixels(grey.pixels, grey.width, grey.height, lines, 1, mark);
    return { bytes: greyPng(grey, GREY_SAMPLES[quality]), contentType: "image/png" };
  }
  let page = width ? downscalePixels(decoded, width) : decoded;
  // The hidden mark first (workers/stamp/mark.ts): it moves the page's own pixels; the stamp's tiles
  // then carry it in their dots. A page with colour will go out as WebP, which takes RGBA: the mark's
  // pass writes it as RGBA, in WebAssembly SIMD (mark-simd.ts: a fifth of the JavaScript pass's CPU).
  // A grey page's pass stays in JavaScript, in place: it settles runs of paper four pixels at a time.
  // A colour page usually shows it on many rows: one row in 16 settles most of them cheaply, once.
  const sampledColour = colourInRows(page, 16);
  if (mark && sampledColour) {
    page = { ...page, channels: 4, pixels: markedRgbaSimd(page.pixels, page.width, page.height, page.channels, mark) };
  } else if (mark) embedMark(page.pixels, page.width, page.height, page.channels, mark);
  watermarkPixels(page.pixels, page.width, page.height, lines, page.channels, mark);
  const grey = sampledColour ? null : greyPng(page, GREY_SAMPLES[quality]);
  if (grey) return { bytes: grey, contentType: "image/png" };
  return { bytes: await encodeColourWebp(page, quality), contentType: "image/webp" };
}

let encoder: Promise<unknown> | undefined;

async function encodeColourWebp({ width, height, channels, pixels }: PagePixels, quality: StampQuality): Promise<Uint8Array> {
  encoder ??= initWebpEncoder(webpEncoderWasm);
  await encoder;
  const rgba = channels === 4 ? pixels : rgbToRgba(pixels);
  const data = new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength);
  // libwebp reads only data, width and height; workerd has no ImageData constructor.
  return new Uint8Array(
    await encodeWebp({ data, width, height, colorSpace: "srgb" }, quality === "saver" ? SAVER_WEBP_OPTIONS : STAMPED_WEBP_OPTIONS),
  );
}

/**
 * RGB to opaque RGBA, a pixel a 32-bit word (little-endian, as decodePageImage's words are): a
 * third of the CPU of four byte stores a pixel.
 */
function rgbToRgba(rgb: Uint8Array): Uint8Array {
  const pixels = rgb.length / 3;
  const rgba = new Uint8Array(pixels * 4);
  const words = new Int32Array(rgba.buffer);
  for (let p = 0, i = 0; p < pixels; p++, i += 3) {
    words[p] = (rgb[i] as number) | ((rgb[i + 1] as number) << 8) | ((rgb[i + 2] as number) << 16) | -16777216;
  }
  return rgba;
}

/**
 * A pixel whose channels differ by more than this is colour, and the page goes out as WebP:
 * loose enough for grey scans with chroma noise, tight enough that a coloured heading keeps its colour.
 */
const COLOUR_TOLERANCE = 24;
/** Whether a pixel in every `nth` row has colour: a cheap look before the full pass. */
function colourInRows({ width, channels, pixels }: PagePixels, nth: number): boolean {
  const rowBytes = width * channels;
  for (let row = 0; row < pixels.length; row += rowBytes * nth) {
    for (let p = row; p < row + rowBytes; p += channels) {
      if (isColour(pixels[p] as number, pixels[p + 1] as number, pixels[p + 2] as number)) return true;
    }
  }
  return false;
}

function isColour(r: number, g: number, b: number): boolean {
  return Math.abs(r - g) > COLOUR_TOLERANCE || Math.abs(g - b) > COLOUR_TOLERANCE || Math.abs(r - b) > COLOUR_TOLERANCE;
}

/**
 * Luma (r + 2g + b) / 4 -> the nearest of 8 greys, as a 4-bit sample (shown as sample x 17). 8
 * levels keep antialiased text smooth and the tiled mark (~#D9D9D9 -> #DDDDDD) visible; 4 levels
 * round the mark away to white, 16 cost a quarter more bytes for no visible difference.
 */
const GREY_LEVELS = [0, 2, 4, 6, 9, 11, 13, 15];
/**
 * The data saver's greys: black, a mid grey for anti-aliased edges, the mark's tile grey (13) and
 * white. A 640 px text page goes from 47-50 kB to 38-40 kB; the hidden mark still reads at 15.3 of
 * 16 and the text stays legible (measured in docs/decisions/0048).
 */
const SAVER_GREY_LEVELS = [0, 7, 13, 15];
const greySamples = (levels: number[]) =>
  Uint8Array.from({ length: 256 }, (_, v) =>
    levels.reduce((best, level) => (Math.abs(level * 17 - v) < Math.abs(best * 17 - v) ? level : best)),
  );
const GREY_SAMPLES: Record<StampQuality, Uint8Array> = { sharp: greySamples(GREY_LEVELS), saver: greySamples(SAVER_GREY_LEVELS) };

/**
 * Opaque pixels as a 4-bit greyscale PNG, or null at the first pixel with colour. Rows are left
 * unfiltered (filter None): on quantized text it deflates smaller than Sub, Up or Paeth.
 */
export function encodeGreyPng(page: PagePixels): Uint8Array | null {
  // A colour page usually shows it on many rows: one row in 16 settles most of them cheaply.
  return colourInRows(page, 16) ? null : greyPng(page, GREY_SAMPLES.sharp);
}

/** encodeGreyPng once the sampled rows showed no colour: null at the first pixel with colour (never, for a grey page). */
function greyPng(page: GreyPixels, greySample: Uint8Array): Uint8Array;
function greyPng(page: PagePixels, greySample: Uint8Array): Uint8Array | null;
function greyPng(page: PagePixels | GreyPixels, greySample: Uint8Array): Uint8Array | null {
  const { width, height, channels, pixels } = page;
  const rowBytes = 1 + Math.ceil(width / 2);
  const rows = new Uint8Array(rowBytes * height);
  const stride = width * channels;
  // Most of a text page is white: four white pixels (12 bytes of RGB, 16 of RGBA) are settled with
  // three or four 32-bit compares (-1: all bits set) and written as two bytes.
  const words = pixelWords(page);
  for (let y = 0; y < height; y++) {
    let at = y * rowBytes + 1;
    for (let x = 0, p = y * stride; x < width; ) {
      if (words !== null && (x & 3) === 0 && x + 4 <= width) {
        if (whiteWords(words, p >> 2, channels)) {
          rows[at++] = 0xff;
          rows[at++] = 0xff;
          x += 4;
          p += 4 * channels;
          continue;
        }
      }
      const r = pixels[p] as number;
      const g = channels === 1 ? r : (pixels[p + 1] as number);
      const b = channels === 1 ? r : (pixels[p + 2] as number);
      let luma = g;
      if (r !== g || g !== b) {
        if (isColour(r, g, b)) return null;
        luma = (r + 2 * g + b) >> 2;
      }
      const sample = greySample[luma] as number;
      if (x & 1) {
        rows[at] = (rows[at] as number) | sample;
        at++;
      } else rows[at] = sample << 4;
      x++;
      p += channels;
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([4, 0, 0, 0, 0], 8); // 4-bit grey, deflate, adaptive filtering (all None), not interlaced
  return pngFile([chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows, { level: DEFLATE_LEVEL })), chunk("IEND", new Uint8Array())]);
}

/** zlib level 4: measured ~2x faster than the default 6 for ~3% more bytes on text pages (decision 0012). */
const DEFLATE_LEVEL = 4;

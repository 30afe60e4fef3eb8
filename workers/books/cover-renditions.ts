import createMozjpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import mozjpegDecoderWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import { initEmscriptenModule } from "@jsquash/jpeg/utils.js";
import createWebpDecoder from "@jsquash/webp/codec/dec/webp_dec.js";
import webpDecoderWasm from "@jsquash/webp/codec/dec/webp_dec.wasm";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode.js";
import { COVER_WIDTHS, type CoverWidth } from "#shared/rules/book-category.ts";
import { failed } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { downscalePixels } from "../page-images/downscale.ts";
import type { PagePixels } from "../page-images/page-image.ts";
import {
  type CoverRendition,
  coverRenditionKey,
  deleteCover,
  isUnavailableRendition,
  type MakeCoverRenditions,
  markCoverRenditionsUnavailable,
  putCoverRenditions,
} from "./cover-store.ts";
import { type ImageSize, readImageSize } from "./image-size.ts";
import { decodePngPixels, type RgbaPixels } from "./png-pixels.ts";

/**
 * A cover's display-sized renditions (decision 0023): the uploaded JPEG or WebP decoded by
 * jSquash's MozJPEG and libwebp, a PNG by png-pixels.ts; laid on white, halved while twice as wide
 * as needed, then shrunk with the page images' box filter, and written as lossy WebP by libwebp,
 * one per COVER_WIDTHS (never wider than the original).
 *
 * Memory: the size is read from the header first, and a cover whose decoding would take more than
 * MAX_DECODING_BYTES is refused before anything is decoded (a 2 MB JPEG can hold 24 megapixels).
 * JPEG and WebP decode in a fresh wasm instance per cover, dropped afterwards: emscripten's heap
 * grows to the decoded image and never shrinks, so a kept instance would hold the largest cover's
 * pixels for the isolate's life.
 */
export const MAX_DECODING_BYTES = 64 * 1024 * 1024;
/** libwebp's defaults: q75 (smooth gradients and small cover text) and method 4 (stored once, read often). */
export const COVER_WEBP_OPTIONS = { quality: 75, method: 4 } as const;

export const makeCoverRenditions: MakeCoverRenditions = async (bytes, type) => {
  const unreadable = {
    ...failed({ kind: "unsupported", error: `The file is not a readable ${type.slice(6).toUpperCase()} image` }),
    unreadable: true,
  };
  const size = readImageSize(bytes, type);
  if (!size) return unreadable;
  if (size.components === 4)
    return {
      ...failed({ kind: "unsupported", error: "The JPEG is in CMYK (print) colours: save it in RGB for screens" }),
      unreadable: false,
    };
  const perPixel = decodingBytesPerPixel(size);
  if (size.width * size.height * perPixel > MAX_DECODING_BYTES) {
    const megapixels = Math.floor(MAX_DECODING_BYTES / perPixel / 100_000) / 10;
    const error = `The cover is ${size.width} x ${size.height} pixels: send one of at most ${megapixels} megapixels (2000 x 3000 is plenty)`;
    return { ...failed({ kind: "too-large", error }), unreadable: false };
  }
  let pixels: PagePixels;
  try {
    pixels = onWhite(await decodeImage(bytes, type));
  } catch {
    return unreadable;
  }
  const renditions: CoverRendition[] = [];
  // Widest first: each narrower one is shrunk from the one before, a few times fewer pixels to read.
  for (const width of [...COVER_WIDTHS].sort((a, b) => b - a)) {
    while (pixels.width >= 2 * width) pixels = halve(pixels);
    pixels = downscalePixels(pixels, width);
    renditions.push({ width, bytes: await encode(pixels) });
  }
  return { ok: true, value: renditions };
};

/** When this isolate began making a cover's renditions on a request; 0 when it is not making any. */
let backfillStarted = 0;
/** A back-fill older than this is taken as cut short (its request cancelled), and no longer holds others back. */
const BACKFILL_STALE_MS = 60_000;

/**
 * Makes and stores the renditions of a cover stored before they existed (the first request for one
 * comes here), or marks them unavailable when the original cannot be made into them, so that this
 * work is done once per cover. One at a time per isolate: a dashboard of older covers asks for
 * two dozen at once, each decoding into up to tens of MB of the isolate's 128; the others get the
 * original meanwhile and their renditions on a later request. Returns whether they were made.
 */
export async function backfillCoverRenditions(bucket: R2Bucket, coverKey: string): Promise<boolean> {
  if (Date.now() - backfillStarted < BACKFILL_STALE_MS) return false;
  backfillStarted = Date.now();
  try {
    const original = await bucket.get(coverKey);
    if (!original) return false;
    const made = await makeCoverRenditions(new Uint8Array(await original.arrayBuffer()), original.httpMetadata?.contentType ?? "");
    if (made.ok) await putCoverRenditions(bucket, coverKey, made.value);
    else {
      log.warn("Cover renditions unavailable", { coverKey, reason: made.failure.error });
      await markCoverRenditionsUnavailable(bucket, coverKey, made.failure.error);
    }
    // The cover was replaced (and deleted) while its renditions were made: they go too, not left for the sweep.
    if (!(await bucket.head(coverKey))) {
      await deleteCover(bucket, coverKey);
      return false;
    }
    return made.ok;
  } finally {
    backfillStarted = 0;
  }
}

/**
 * Bytes a pixel takes while the cover is decoded: the RGBA we read (4), and the decoder's own copy
 * (the wasm heap's RGBA, 4; a PNG's inflated scanlines).
 */
function decodingBytesPerPixel(size: ImageSize): number {
  return 4 + (size.bitsPerPixel === undefined ? 4 : Math.ceil(size.bitsPerPixel / 8));
}

/**
 * What to serve for a cover: the original (`width` null) or its rendition at `width`, under the
 * request's conditional headers (R2 answers a bodiless object when the browser's copy is current).
 * A rendition marked unavailable is answered by the original; a missing one (a cover stored before
 * renditions existed) is made and stored first, once.
 */
export async function openCover(
  bucket: R2Bucket,
  coverKey: string,
  width: CoverWidth | null,
  conditional: Headers,
): Promise<R2Object | R2ObjectBody | null> {
  const original = () => bucket.get(coverKey, { onlyIf: conditional });
  if (width === null) return original();
  const key = coverRenditionKey(coverKey, width);
  let rendition = await bucket.get(key, { onlyIf: conditional });
  if (!rendition && (await backfillCoverRenditions(bucket, coverKey))) rendition = await bucket.get(key, { onlyIf: conditional });
  return rendition && !isUnavailableRendition(rendition) ? rendition : original();
}

let webpEncoder: Promise<unknown> | undefined;

/** A PNG, JPEG (turned upright by EXIF) or WebP as RGBA; the caller has checked its size (readImageSize). */
export async function decodeImage(bytes: Uint8Array, type: string): Promise<RgbaPixels> {
  if (type === "image/png") return decodePngPixels(bytes);
  const image =
    type === "image/jpeg"
      ? // true: turned upright by its EXIF orientation, as browsers show the original.
        (await initEmscriptenModule(createMozjpegDecoder, mozjpegDecoderWasm)).decode(bytes, true)
      : (await initEmscriptenModule(createWebpDecoder, webpDecoderWasm)).decode(bytes);
  if (!image) throw new Error(`${type} did not decode`);
  const { width, height, data } = image;
  return { width, height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** RGBA with every pixel opaque: transparent parts laid on white, in place. */
function onWhite({ data: pixels, width, height }: RgbaPixels): PagePixels {
  for (let p = 3; p < pixels.length; p += 4) {
    const alpha = pixels[p] as number;
    if (alpha === 255) continue;
    const white = 255 * (255 - alpha);
    for (let c = p - 3; c < p; c++) pixels[c] = Math.round(((pixels[c] as number) * alpha + white) / 255);
    pixels[p] = 255;
  }
  return { width, height, channels: 4, pixels };
}

/**
 * Half as wide and high (rounded down), each pixel the mean of a 2 x 2 block: the big first steps
 * of a large cover, without the box filter's 16-bit intermediate (2 bytes a sample of the source).
 */
function halve({ width, height, pixels }: PagePixels): PagePixels {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8Array(w * h * 4);
  const stride = width * 4;
  for (let y = 0, o = 0; y < h; y++) {
    for (let x = 0, i = 2 * y * stride; x < w; x++, i += 8) {
      for (let c = 0; c < 4; c++, o++) {
        const j = i + c;
        out[o] =
          ((pixels[j] as number) + (pixels[j + 4] as number) + (pixels[j + stride] as number) + (pixels[j + stride + 4] as number) + 2) >>
          2;
      }
    }
  }
  return { width: w, height: h, channels: 4, pixels: out };
}

async function encode({ width, height, pixels }: PagePixels): Promise<Uint8Array> {
  webpEncoder ??= initWebpEncoder(webpEncoderWasm);
  await webpEncoder;
  const data = new Uint8ClampedArray(pixels.buffer as ArrayBuffer, pixels.byteOffset, pixels.byteLength);
  // libwebp reads only data, width and height; workerd has no ImageData constructor.
  return new Uint8Array(await encodeWebp({ data, width, height, colorSpace: "srgb" }, COVER_WEBP_OPTIONS));
}

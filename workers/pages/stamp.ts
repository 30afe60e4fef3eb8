import { PhotonImage } from "@cf-wasm/photon";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode.js";
import { inspectPageImage } from "./page-image.ts";
import { STAMPED_WEBP_OPTIONS, watermarkPixels } from "./watermark.ts";

/**
 * Every page image a teacher sees is stamped here from the stored, unmarked PNG: photon decodes
 * it, the watermark goes into the pixels (watermark.ts), libwebp encodes lossy WebP. Measured in
 * docs/decisions/0012-page-watermark.md (bench/lib/stamp-bench.ts).
 *
 * The wasm modules are imported as modules (workerd compiles them at upload); photon instantiates
 * itself on import, libwebp on the first call (once per isolate).
 */
export async function stampPage(stored: Uint8Array, lines: string[]): Promise<{ bytes: Uint8Array; contentType: string }> {
  const header = inspectPageImage(stored);
  if (!header) throw new Error("not a stored page image (PNG expected)");
  if (!lines.some((line) => line.trim())) throw new Error("a page is never served without a watermark");
  const { width, height } = header;
  const image = PhotonImage.new_from_byteslice(stored);
  let pixels: Uint8Array;
  try {
    if (image.get_width() !== width || image.get_height() !== height) throw new Error("page image header disagrees with its pixels");
    pixels = image.get_raw_pixels();
  } finally {
    image.free();
  }
  watermarkPixels(pixels, width, height, lines);
  encoder ??= initWebpEncoder(webpEncoderWasm);
  await encoder;
  const data = new Uint8ClampedArray(pixels.buffer as ArrayBuffer, pixels.byteOffset, pixels.byteLength);
  // libwebp reads only data, width and height; workerd has no ImageData constructor.
  const bytes = await encodeWebp({ data, width, height, colorSpace: "srgb" }, STAMPED_WEBP_OPTIONS);
  return { bytes: new Uint8Array(bytes), contentType: "image/webp" };
}

let encoder: Promise<unknown> | undefined;

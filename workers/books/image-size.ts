import { PNG_CHANNELS } from "./png-pixels.ts";

/**
 * An image's size in pixels from its first bytes, without decoding it: what a decoder would need
 * in memory is known before it runs (a 2 MB JPEG or a small flat PNG can hold tens of megapixels).
 * JPEG also tells its colour components (4: CMYK or YCCK, which the JPEG decoder does not convert).
 */
export interface ImageSize {
  width: number;
  height: number;
  /** JPEG only: 1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK. */
  components?: number;
  /** PNG only: bits of a pixel in its scanlines (samples x bit depth). */
  bitsPerPixel?: number;
}

export function readImageSize(bytes: Uint8Array, type: string): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (type === "image/png") return pngSize(bytes, view);
    if (type === "image/jpeg") return jpegSize(bytes, view);
    if (type === "image/webp") return webpSize(bytes, view);
  } catch (error) {
    if (error instanceof RangeError) return null; // cut short: a header that runs past the end
    throw error;
  }
  return null;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function positive(width: number, height: number, more: Omit<ImageSize, "width" | "height"> = {}): ImageSize | null {
  return width < 1 || height < 1 ? null : { width, height, ...more };
}

function pngSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  if (ascii(bytes, 12, 4) !== "IHDR") return null;
  const channels = PNG_CHANNELS[bytes[25] as number];
  if (!channels) return null;
  return positive(view.getUint32(16), view.getUint32(20), { bitsPerPixel: channels * (bytes[24] as number) });
}

/** Start-of-frame markers: C0-CF but DHT (C4), JPG (C8) and DAC (CC). */
const isFrameMarker = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let at = 2; // past SOI
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data or the end, and no frame yet
    if (isFrameMarker(marker)) return positive(view.getUint16(at + 7), view.getUint16(at + 5), { components: view.getUint8(at + 9) });
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") {
    // A key frame: 3 bytes of frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return positive(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  if (chunk === "VP8L") {
    if (bytes[20] !== 0x2f) return null;
    const bits = view.getUint32(21, true);
    return positive((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X") {
    const uint24 = (at: number) => view.getUint16(at, true) | ((bytes[at + 2] as number) << 16);
    return positive(uint24(24) + 1, uint24(27) + 1);
  }
  return null;
}

import { MAX_PAGE_HEIGHT, PAGE_WIDTHS, STORED_PAGE_TYPE } from "../../app/lib/pages/page-format.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG colour type -> the bit depths it allows (PNG spec, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const MAX_WIDTH = Math.max(...PAGE_WIDTHS);

/**
 * What an uploaded page image is, by its content only (magic bytes and the IHDR chunk), or null
 * when it is not a stored page image: only PNG is stored (app/lib/pages/page-format.ts), at most
 * the largest page width wide and MAX_PAGE_HEIGHT tall. Whether the width is the one the upload
 * claims is the caller's check.
 */
export function inspectPageImage(bytes: Uint8Array): { type: typeof STORED_PAGE_TYPE; width: number; height: number } | null {
  // Signature (8) + IHDR length (4) + "IHDR" (4) + 13 bytes of IHDR data.
  if (bytes.length < 33) return null;
  if (PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || ascii(bytes, 12, 4) !== "IHDR") return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const bitDepth = bytes[24] as number;
  const colourType = bytes[25] as number;
  const [compression, filter, interlace] = [bytes[26], bytes[27], bytes[28]];
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth)) return null;
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null;
  if (width < 1 || height < 1 || width > MAX_WIDTH || height > MAX_PAGE_HEIGHT) return null;
  return { type: STORED_PAGE_TYPE, width, height };
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

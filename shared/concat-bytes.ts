/**
 * Byte arrays one after another in one array (a single part is returned as it is). Shared by the
 * browser (pdf.js's ranges fetched in parts) and the Worker (PNG chunks read and written); nothing
 * here may import browser or Worker modules.
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
}

// The Worker's PNG decoder for covers (workers/books/png-pixels.ts) against sharp (libvips/libspng),
// on every kind of PNG an admin's tool may write. Both give 8-bit RGBA.
import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { decodePngPixels } from "../../workers/books/png-pixels.ts";

/** A 2:3 picture with gradients, a hard-edged band and a half-transparent corner, odd-sized so Adam7's passes differ. */
async function picture(width = 61, height = 91) {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const band = y > height * 0.6 && y < height * 0.7;
      pixels[p] = band ? 240 : Math.round((x / width) * 255);
      pixels[p + 1] = band ? 180 : Math.round((y / height) * 255);
      pixels[p + 2] = band ? 30 : (x * y) & 255;
      pixels[p + 3] = x < width / 4 && y < height / 4 ? 128 : 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } });
}

/** Each kind of PNG: how sharp is asked to write it, and the colour type (PNG spec 11.2.2) it must then have. */
const KINDS: Record<string, [colourType: number, write: (image: Sharp) => Sharp]> = {
  "RGBA 8-bit": [6, (image) => image.png()],
  "RGB 8-bit": [2, (image) => image.removeAlpha().png()],
  "grey 8-bit": [0, (image) => image.removeAlpha().toColourspace("b-w").png()],
  "grey 16-bit": [0, (image) => image.removeAlpha().toColourspace("grey16").png()],
  "grey + alpha": [4, (image) => image.toColourspace("b-w").png()],
  "RGBA 16-bit": [6, (image) => image.toColourspace("rgb16").png()],
  "palette 8-bit with tRNS": [3, (image) => image.png({ palette: true })],
  // sharp takes a palette's bit depth from its colour count (16: 4 bits, 4: 2, 2: 1).
  "palette 4-bit": [3, (image) => image.removeAlpha().png({ palette: true, colours: 16 })],
  "palette 2-bit": [3, (image) => image.removeAlpha().png({ palette: true, colours: 4 })],
  "palette 1-bit": [3, (image) => image.removeAlpha().png({ palette: true, colours: 2 })],
  "interlaced RGBA": [6, (image) => image.png({ progressive: true })],
  "interlaced palette": [3, (image) => image.png({ progressive: true, palette: true })],
  "every filter (compression 9, adaptive)": [6, (image) => image.png({ compressionLevel: 9, adaptiveFiltering: true })],
};

describe("decodePngPixels", () => {
  it.each(Object.keys(KINDS))("reads %s exactly as sharp does", async (kind) => {
    const [colourType, write] = KINDS[kind]!;
    const png = await write(await picture()).toBuffer();
    expect(png[25], "the kind asked for").toBe(colourType);
    const expected = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const decoded = decodePngPixels(new Uint8Array(png));
    expect([decoded.width, decoded.height]).toEqual([expected.info.width, expected.info.height]);
    expect(Buffer.from(decoded.data).equals(expected.data)).toBe(true);
  });

  it("refuses data cut short", async () => {
    const png = new Uint8Array(await (await picture()).png().toBuffer());
    expect(() => decodePngPixels(png.subarray(0, png.length >> 1))).toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { decodePageImage } from "../../workers/page-images/page-image.ts";
import { encodeGreyPng, stampPage } from "../../workers/stamp/stamp.ts";
import { DANA, pngOf, rgbaOf } from "./fixtures-png.ts";

// A grey-level threshold (every pixel lighter than T turned white) used to wipe the tiled mark, which
// was only light grey, and leave the text clean. The mark's dots are now as dark as the text.

const [WIDTH, HEIGHT] = [1024, 1325];
/** The foot line (bottom 48 px) can be cropped away: only the tiles count here. */
const BODY = HEIGHT - 48;

/** Lines of "text": black bars with anti-aliased edges (a row of luma 96 and one of 192 either side). */
function storedPage(): Uint8Array {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 4).fill(255);
  const shade = (y: number, value: number) => {
    for (let x = 80; x < WIDTH - 80; x++) pixels.fill(value, (y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 3);
  };
  for (let top = 200; top < BODY - 40; top += 30) {
    shade(top - 2, 192);
    shade(top - 1, 96);
    for (let y = top; y < top + 8; y++) shade(y, 0);
    shade(top + 8, 96);
    shade(top + 9, 192);
  }
  return pngOf(pixels, WIDTH, HEIGHT);
}

/** Luma per pixel of a PNG. */
function lumas(png: Uint8Array): Uint8Array {
  const rgba = rgbaOf(png).pixels;
  return Uint8Array.from(
    { length: WIDTH * HEIGHT },
    (_, i) => ((rgba[4 * i] as number) + 2 * (rgba[4 * i + 1] as number) + (rgba[4 * i + 2] as number)) >> 2,
  );
}

const threshold = (luma: Uint8Array, level: number) => luma.map((value) => (value >= level ? 255 : value));

describe("the tiled mark against a grey-level threshold", () => {
  const stored = storedPage();
  // The page as it would go out without any watermark: same decoder, same 8 grey levels.
  const clean = lumas(encodeGreyPng(decodePageImage(stored)) as Uint8Array);

  for (const level of [60, 100, 128, 170, 200, 230]) {
    it(`keeps the tiles' dots after a threshold at ${level}, and the text exactly as on the unmarked page`, async () => {
      const stamped = lumas((await stampPage(stored, DANA)).bytes);
      const [before, after] = [threshold(clean, level), threshold(stamped, level)];
      let text = 0;
      let textChanged = 0;
      let marks = 0;
      let marksOnPaper = 0;
      for (let i = 0; i < WIDTH * BODY; i++) {
        if ((before[i] as number) < 255) {
          text++;
          if (after[i] !== before[i]) textChanged++;
        } else if ((after[i] as number) < 255) {
          marks++;
          // Paper far from any text: above the first line, or in the side margins.
          const [x, y] = [i % WIDTH, Math.floor(i / WIDTH)];
          if (y < 190 || x < 70 || x >= WIDTH - 70) marksOnPaper++;
        }
      }
      expect(text).toBeGreaterThan(100_000);
      // Where a dot falls on a text pixel it is as dark as the text already is: nothing changes there.
      expect(textChanged).toBe(0);
      // Every tile of a 1024 px page carries ~580 dots, about 14 tiles over the body.
      expect(marks).toBeGreaterThan(3000);
      expect(marksOnPaper).toBeGreaterThan(1000);
    });
  }
});

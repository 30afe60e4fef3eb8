import { describe, expect, it } from "vitest";
import { stampPage } from "../../workers/stamp/stamp.ts";
import { DANA, pngOf, rgbaOf } from "./fixtures-png.ts";

// Issue 23: on a dark page the watermark only darkened, so it vanished on near-black and navy pages.

const [WIDTH, HEIGHT] = [1024, 1325];
type Rgb = readonly [number, number, number];

/** A stored page (PNG, RGBA) whose rows above `split` are `top` and the rest `bottom`. */
function storedPage(top: Rgb, bottom: Rgb = top, split = HEIGHT): Uint8Array {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    const [r, g, b] = y < split ? top : bottom;
    for (let p = y * WIDTH * 4; p < (y + 1) * WIDTH * 4; p += 4) pixels.set([r, g, b, 255], p);
  }
  return pngOf(pixels, WIDTH, HEIGHT);
}

const luma = (pixels: Uint8Array, p: number) => ((pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number)) / 4;

/**
 * Pixels of rows [from, to) whose luma differs by at least `delta` (either way) from the page's own
 * there: the commonest luma of those rows, i.e. the background as it went out (the grey PNG rounds a
 * mid grey to one of its 8 levels, lossy WebP shifts a colour a little).
 */
function moved(stamped: Uint8Array, from: number, to: number, delta: number) {
  const histogram = new Uint32Array(256);
  for (let p = from * WIDTH * 4; p < to * WIDTH * 4; p += 4) histogram[Math.round(luma(stamped, p))]!++;
  const background = histogram.indexOf(Math.max(...histogram));
  let lighter = 0;
  let darker = 0;
  for (let p = from * WIDTH * 4; p < to * WIDTH * 4; p += 4) {
    const change = luma(stamped, p) - background;
    if (change >= delta) lighter++;
    else if (change <= -delta) darker++;
  }
  return { count: lighter + darker, lighter, darker };
}

// The first row of tiled marks covers rows 40 to about 125; the foot line sits in the last 30 rows.
const FIRST_TILES: [number, number] = [40, 130];
const FOOT: [number, number] = [HEIGHT - 30, HEIGHT];

describe("the watermark's contrast with the page", () => {
  const backgrounds: [string, Rgb][] = [
    ["white", [255, 255, 255]],
    ["near-black (grey PNG)", [18, 18, 18]],
    ["mid grey (grey PNG)", [128, 128, 128]],
    ["navy (WebP)", [20, 30, 90]],
    ["blue (WebP)", [36, 83, 200]],
  ];

  for (const [name, background] of backgrounds) {
    it(`stands out from a ${name} page: tiles moved by 24+ levels of luma, the foot line by 60+`, async () => {
      const page = storedPage(background);
      const stamped = rgbaOf((await stampPage(page, DANA)).bytes).pixels;
      expect(moved(stamped, ...FIRST_TILES, 24).count).toBeGreaterThan(1500);
      expect(moved(stamped, ...FOOT, 60).count).toBeGreaterThan(800);
    });
  }

  it("stays light on a white page: the tiles only darken it, with sparse dots as dark as text", async () => {
    const page = storedPage([255, 255, 255]);
    const stamped = rgbaOf((await stampPage(page, DANA)).bytes).pixels;
    const tiles = moved(stamped, ...FIRST_TILES, 1);
    expect(tiles.lighter).toBe(0);
    expect(moved(stamped, ...FIRST_TILES, 200).darker).toBe(tiles.darker);
    let sum = 0;
    for (let p = FIRST_TILES[0] * WIDTH * 4; p < FIRST_TILES[1] * WIDTH * 4; p += 4) sum += luma(stamped, p);
    expect(sum / ((FIRST_TILES[1] - FIRST_TILES[0]) * WIDTH)).toBeGreaterThan(240);
  });

  it("follows the page where it changes: light marks on a navy band, dark marks on the white below it", async () => {
    const page = storedPage([20, 30, 90], [255, 255, 255], 400);
    const stamped = rgbaOf((await stampPage(page, DANA)).bytes).pixels;
    const onNavy = moved(stamped, 0, 380, 24);
    const onWhite = moved(stamped, 420, HEIGHT - 40, 24);
    expect(onNavy.lighter).toBeGreaterThan(1500);
    expect(onNavy.darker).toBe(0);
    expect(onWhite.darker).toBeGreaterThan(1500);
    expect(onWhite.lighter).toBe(0);
  });
});

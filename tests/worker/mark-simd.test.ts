import { describe, expect, it } from "vitest";
import { blockSigns, createLayout, embedMark, MARK_COLUMNS, MARK_ROWS, markedRgba } from "../../workers/stamp/mark.ts";
import { markedRgbaSimd } from "../../workers/stamp/mark-simd.ts";

/** A seeded page: paper, near-paper greys (where the mark fades), flat fields and noise. */
function randomPage(width: number, height: number, seed: number): Uint8Array {
  let state = seed;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  const rgb = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const kind = random();
    const i = p * 3;
    if (kind < 0.25) rgb.fill(255, i, i + 3);
    else if (kind < 0.45) rgb.fill(218 + Math.floor(random() * 38), i, i + 3);
    else if (kind < 0.55) rgb.set([40, 90, 180], i);
    else for (let c = 0; c < 3; c++) rgb[i + c] = Math.floor(random() * 256);
  }
  return rgb;
}

function signsFor(seed: number): Int8Array {
  const code = new Uint8Array(32).map((_, i) => (i * seed * 31 + 7) & 255);
  return blockSigns(createLayout(new Uint8Array(32).fill(seed)), code);
}

describe("the hidden mark's SIMD pass (mark-simd.ts)", () => {
  // Widths below 10 have no 8-pixel run; 640, 1024 and 2048 are the stored widths; 1023 and 1030
  // leave a tail; heights past 64 and 128 cross the strips the page goes through the module in.
  const sizes: [number, number][] = [
    [1, 1],
    [2, 3],
    [9, 9],
    [10, 2],
    [17, 70],
    [640, 130],
    [1023, 65],
    [1024, 200],
    [1030, 129],
    [2048, 67],
  ];
  it.each(sizes)("writes the same bytes as the JavaScript pass at %i x %i, from RGB", (width, height) => {
    const rgb = randomPage(width, height, width + height);
    const before = rgb.slice();
    const signs = signsFor((width % 200) + 1);
    const simd = markedRgbaSimd(rgb, width, height, 3, signs);
    const reference = markedRgba(rgb, width, height, signs);
    expect(simd.length).toBe(width * height * 4);
    const first = simd.findIndex((byte, i) => byte !== reference[i]);
    expect(first, `first differing byte ${first} (pixel ${first >> 2})`).toBe(-1);
    expect(rgb).toEqual(before);
  });

  it.each(sizes)("writes the same bytes as the JavaScript pass at %i x %i, from RGBA (a page stored by a canvas)", (width, height) => {
    const rgb = randomPage(width, height, width * 3 + height);
    const rgba = markedRgba(rgb, width, height, new Int8Array(MARK_COLUMNS * MARK_ROWS)); // opaque RGBA, unmarked
    const before = rgba.slice();
    const signs = signsFor((height % 200) + 2);
    const simd = markedRgbaSimd(rgba, width, height, 4, signs);
    const reference = rgba.slice();
    embedMark(reference, width, height, 4, signs);
    const first = simd.findIndex((byte, i) => byte !== reference[i]);
    expect(first, `first differing byte ${first} (pixel ${first >> 2})`).toBe(-1);
    expect(rgba).toEqual(before);
  });

  it("moves pixels (the mark is there) and leaves paper white", () => {
    const rgb = randomPage(256, 64, 5);
    const out = markedRgbaSimd(rgb, 256, 64, 3, signsFor(3));
    let moved = 0;
    for (let p = 0; p < 256 * 64; p++) {
      if (rgb[p * 3] !== out[p * 4]) moved++;
      if (rgb[p * 3] === 255 && rgb[p * 3 + 1] === 255 && rgb[p * 3 + 2] === 255)
        expect(out.subarray(p * 4, p * 4 + 4)).toEqual(Uint8Array.of(255, 255, 255, 255));
      expect(out[p * 4 + 3]).toBe(255);
    }
    expect(moved).toBeGreaterThan(256 * 64 * 0.2);
  });

  it("keeps nothing of one page in the next: a small page after a big one, then the big one again", () => {
    const big = randomPage(1024, 150, 11);
    const small = randomPage(33, 20, 12);
    const [bigSigns, smallSigns] = [signsFor(4), signsFor(9)];
    const before = markedRgbaSimd(big, 1024, 150, 3, bigSigns);
    expect(markedRgbaSimd(small, 33, 20, 3, smallSigns)).toEqual(markedRgba(small, 33, 20, smallSigns));
    expect(markedRgbaSimd(big, 1024, 150, 3, bigSigns)).toEqual(before);
  });

  it("refuses block signs of another layout's size, and pixels of another page's size", () => {
    expect(() => markedRgbaSimd(new Uint8Array(12), 2, 2, 3, new Int8Array(MARK_COLUMNS * MARK_ROWS - 1))).toThrow(/block signs/);
    expect(() => markedRgbaSimd(new Uint8Array(12), 2, 2, 4, new Int8Array(MARK_COLUMNS * MARK_ROWS))).toThrow(/16 bytes, not 12/);
  });
});

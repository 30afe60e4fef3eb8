import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { MAX_PAGE_HEIGHT } from "../../app/lib/pages/page-format.ts";
import { inspectPageImage } from "../../workers/pages/page-image.ts";
import { stampPage } from "../../workers/pages/stamp.ts";

const DANA = ["Dana Whitfield", "dana.whitfield@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];
const OMAR = ["Omar Haddad", "omar.haddad@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];

/** A white page with black blocks where lines of text would be, stored as the renderers store it (PNG). */
function storedPage(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).fill(255);
  for (let top = 60; top < height - 120; top += 24) {
    for (let y = top; y < top + 10; y++) pixels.fill(0, (y * width + 60) * 4, (y * width + width - 60) * 4);
    for (let x = 60; x < width - 60; x++) pixels[(top * width + x) * 4 + 3] = 255;
  }
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  const image = new PhotonImage(pixels, width, height);
  try {
    return image.get_bytes();
  } finally {
    image.free();
  }
}

function decode(bytes: Uint8Array) {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), pixels: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

/** Pixels darker than mid grey in the bottom `rows` rows. */
function darkPixelsAtFoot(bytes: Uint8Array, rows: number): number {
  const { width, height, pixels } = decode(bytes);
  let dark = 0;
  for (let i = (height - rows) * width * 4; i < pixels.length; i += 4) {
    if ((pixels[i] as number) + (pixels[i + 1] as number) + (pixels[i + 2] as number) < 3 * 128) dark++;
  }
  return dark;
}

describe("stampPage", () => {
  const stored = storedPage(1024, 1325);

  it("returns a WebP of the stored page's size, marked, different per teacher", async () => {
    const dana = await stampPage(stored, DANA);
    const omar = await stampPage(stored, OMAR);
    expect(dana.contentType).toBe("image/webp");
    expect(new TextDecoder().decode(dana.bytes.subarray(8, 12))).toBe("WEBP");
    const decoded = decode(dana.bytes);
    expect([decoded.width, decoded.height]).toEqual([1024, 1325]);
    expect(dana.bytes).not.toEqual(omar.bytes);
    expect(dana.bytes).not.toEqual(stored);
  });

  it("writes the teacher's line legibly at the foot: many more dark pixels there than on the stored page", async () => {
    const before = darkPixelsAtFoot(stored, 60);
    const after = darkPixelsAtFoot((await stampPage(stored, DANA)).bytes, 60);
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(300);
  });

  it("tiles the marks lightly over the page: no longer pure white, yet far from dark", async () => {
    const { pixels } = decode((await stampPage(stored, DANA)).bytes);
    let marked = 0;
    let darkest = 255;
    // The band between the top margin and the first block of "text" is white on the stored page.
    for (let y = 0; y < 60; y++) {
      for (let x = 0; x < 1024; x++) {
        const value = pixels[(y * 1024 + x) * 4] as number;
        if (value < 245) marked++;
        darkest = Math.min(darkest, value);
      }
    }
    expect(marked).toBeGreaterThan(200);
    expect(darkest).toBeGreaterThan(150);
  });

  it("stamps a 2048 px page as well", async () => {
    const stamped = await stampPage(storedPage(2048, 2650), DANA);
    const { width, height } = decode(stamped.bytes);
    expect([width, height]).toEqual([2048, 2650]);
  });

  it("refuses anything but a stored PNG, and refuses to serve a page unmarked", async () => {
    await expect(stampPage(new TextEncoder().encode("%PDF-1.7 not an image"), DANA)).rejects.toThrow();
    await expect(stampPage(stored, [])).rejects.toThrow();
    await expect(stampPage(stored, ["  ", ""])).rejects.toThrow();
  });
});

describe("inspectPageImage", () => {
  const png = storedPage(1024, 1400);

  /** `png` with its IHDR width and height replaced (the CRC is not checked: only the header is read). */
  function claiming(width: number, height: number): Uint8Array {
    const copy = png.slice();
    const view = new DataView(copy.buffer);
    view.setUint32(16, width);
    view.setUint32(20, height);
    return copy;
  }

  it("reads a PNG's type and size from its header", () => {
    expect(inspectPageImage(png)).toEqual({ type: "image/png", width: 1024, height: 1400 });
    expect(inspectPageImage(png.subarray(0, 33))).toEqual({ type: "image/png", width: 1024, height: 1400 });
  });

  it("rejects truncated headers, other magic bytes and other formats", () => {
    expect(inspectPageImage(png.subarray(0, 32))).toBeNull();
    expect(inspectPageImage(new Uint8Array())).toBeNull();
    const wrongMagic = png.slice();
    wrongMagic[1] = 0x51;
    expect(inspectPageImage(wrongMagic)).toBeNull();
    const notIhdr = png.slice();
    notIhdr.set(new TextEncoder().encode("IDAT"), 12);
    expect(inspectPageImage(notIhdr)).toBeNull();
    const riff = new Uint8Array(64);
    riff.set(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "));
    expect(inspectPageImage(riff)).toBeNull();
    expect(inspectPageImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Uint8Array(60)]))).toBeNull();
  });

  it("rejects sizes no page has: 100000 x 100000, zero, wider than the widest page, taller than the cap", () => {
    expect(inspectPageImage(claiming(100_000, 100_000))).toBeNull();
    expect(inspectPageImage(claiming(0, 1400))).toBeNull();
    expect(inspectPageImage(claiming(1024, 0))).toBeNull();
    expect(inspectPageImage(claiming(4096, 5300))).toBeNull();
    expect(inspectPageImage(claiming(2048, MAX_PAGE_HEIGHT + 1))).toBeNull();
    expect(inspectPageImage(claiming(2048, MAX_PAGE_HEIGHT))).toEqual({ type: "image/png", width: 2048, height: MAX_PAGE_HEIGHT });
  });

  it("rejects impossible bit depth and colour type pairs", () => {
    const sixteenBitPalette = png.slice();
    sixteenBitPalette[24] = 16;
    sixteenBitPalette[25] = 3;
    expect(inspectPageImage(sixteenBitPalette)).toBeNull();
    const colourType5 = png.slice();
    colourType5[25] = 5;
    expect(inspectPageImage(colourType5)).toBeNull();
  });
});

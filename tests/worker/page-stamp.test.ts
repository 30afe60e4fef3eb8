import { describe, expect, it } from "vitest";
import { MAX_PAGE_HEIGHT } from "#shared/rules/page-format.ts";
import { decodePageImage, inspectPageImage } from "../../workers/page-images/page-image.ts";
import { blockSigns, createLayout } from "../../workers/stamp/mark.ts";
import { stampPage } from "../../workers/stamp/stamp.ts";
import { DANA, pngOf, rgbaOf } from "./fixtures-png.ts";

const OMAR = ["Omar Haddad", "omar.haddad@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];

/** A white page with black blocks where lines of text would be, stored as the renderers store it (PNG). */
function storedPage(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).fill(255);
  for (let top = 60; top < height - 120; top += 24) {
    for (let y = top; y < top + 10; y++) pixels.fill(0, (y * width + 60) * 4, (y * width + width - 60) * 4);
    for (let x = 60; x < width - 60; x++) pixels[(top * width + x) * 4 + 3] = 255;
  }
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  return pngOf(pixels, width, height);
}

/** A red band across the top of `storedPage`: a page with colour. */
function colourPage(width: number, height: number): Uint8Array {
  const { pixels } = rgbaOf(storedPage(width, height));
  for (let i = 0; i < width * 40 * 4; i += 4) pixels.set([200, 30, 40], i);
  return pngOf(pixels, width, height);
}

/** A PNG written by hand: 8-bit samples, rows filtered with `filters` in turn (0 None ... 4 Paeth). */
async function handPng(samples: Uint8Array, width: number, height: number, colourType: number, filters: number[]): Promise<Uint8Array> {
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType] as number;
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const filter = filters[y % filters.length] as number;
    raw[y * (stride + 1)] = filter;
    for (let i = 0; i < stride; i++) {
      const at = y * stride + i;
      const a = i >= channels ? (samples[at - channels] as number) : 0;
      const b = y > 0 ? (samples[at - stride] as number) : 0;
      const c = i >= channels && y > 0 ? (samples[at - stride - channels] as number) : 0;
      const [pa, pb, pc] = [Math.abs(b - c), Math.abs(a - c), Math.abs(a + b - 2 * c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter] as number;
      raw[y * (stride + 1) + 1 + i] = ((samples[at] as number) - predicted) & 0xff;
    }
  }
  const idat = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  // Split the data over two IDAT chunks, as encoders do for big images. CRCs are left zero: the decoder does not read them.
  const half = idat.length >> 1;
  const chunks = [
    chunk("IHDR", ihdr),
    chunk("IDAT", idat.subarray(0, half)),
    chunk("IDAT", idat.subarray(half)),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(8 + chunks.reduce((sum, part) => sum + part.length, 0));
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  for (const part of chunks) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  return out;
}

/** Samples that exercise every filter: gradients, noise, and a steady colour. */
function testSamples(width: number, height: number, channels: number): Uint8Array {
  const samples = new Uint8Array(width * height * channels);
  let seed = 11;
  for (let i = 0; i < samples.length; i++) {
    seed = (seed * 16807) % 2147483647;
    const x = Math.floor(i / channels) % width;
    samples[i] = x < width / 3 ? (x * 7 + i) & 0xff : x < (2 * width) / 3 ? seed & 0xff : 180;
  }
  // Opaque, but for one transparent and one half-transparent pixel.
  if (channels === 4) for (let i = 3; i < samples.length; i += 4) samples[i] = i === 3 ? 0 : i === 7 ? 128 : 255;
  return samples;
}

/** Pixels darker than mid grey in the bottom `rows` rows. */
function darkPixelsAtFoot(bytes: Uint8Array, rows: number): number {
  const { width, height, pixels } = rgbaOf(bytes);
  let dark = 0;
  for (let i = (height - rows) * width * 4; i < pixels.length; i += 4) {
    if ((pixels[i] as number) + (pixels[i + 1] as number) + (pixels[i + 2] as number) < 3 * 128) dark++;
  }
  return dark;
}

describe("stampPage", () => {
  const stored = storedPage(1024, 1325);

  it("returns a grey page as a PNG of the stored page's size, marked, different per teacher", async () => {
    const dana = await stampPage(stored, DANA);
    const omar = await stampPage(stored, OMAR);
    expect(dana.contentType).toBe("image/png");
    expect(inspectPageImage(dana.bytes)).toBeNull(); // 4-bit grey: not a page image one could store again
    const decoded = rgbaOf(dana.bytes);
    expect([decoded.width, decoded.height]).toEqual([1024, 1325]);
    expect(dana.bytes).not.toEqual(omar.bytes);
    expect(dana.bytes.length).toBeLessThan(stored.length);
  });

  it("returns a page with colour as a WebP that keeps the colour", async () => {
    const stamped = await stampPage(colourPage(1024, 1325), DANA);
    expect(stamped.contentType).toBe("image/webp");
    expect(new TextDecoder().decode(stamped.bytes.subarray(8, 12))).toBe("WEBP");
    const { width, height, pixels } = rgbaOf(stamped.bytes);
    expect([width, height]).toEqual([1024, 1325]);
    const [r, g, b] = pixels.subarray((20 * 1024 + 500) * 4);
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(90);
  });

  it("writes the teacher's line legibly at the foot: many more dark pixels there than on the stored page", async () => {
    const before = darkPixelsAtFoot(stored, 60);
    const after = darkPixelsAtFoot((await stampPage(stored, DANA)).bytes, 60);
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(300);
  });

  it("draws names in any script: accented Latin, and a box for each character the font lacks", async () => {
    const stamped = new Set<string>();
    for (const name of ["Zoë Núñez", "Łukasz Żółć", "山田 太郎 🙂"]) {
      const { bytes } = await stampPage(stored, [name, "teacher@lincoln-high.example.org"]);
      expect(darkPixelsAtFoot(bytes, 60)).toBeGreaterThan(150);
      stamped.add(bytes.join());
    }
    expect(stamped.size).toBe(3);
  });

  it("tiles the marks over the page as a sparse stipple of text-dark dots: light on average, every dot alone", async () => {
    const { pixels } = rgbaOf((await stampPage(stored, DANA)).bytes);
    const at = (x: number, y: number) => pixels[(y * 1024 + x) * 4] as number;
    let dots = 0;
    let grey = 0;
    let touching = 0;
    let sum = 0;
    // The band between the top margin and the first block of "text" is white on the stored page.
    for (let y = 0; y < 60; y++) {
      for (let x = 0; x < 1024; x++) {
        const value = at(x, y);
        sum += value;
        if (value < 40) {
          dots++;
          if ((x + 1 < 1024 && at(x + 1, y) < 40) || at(x, y + 1) < 40) touching++;
        } else if (value < 255) grey++;
      }
    }
    expect(dots).toBeGreaterThan(200);
    expect(grey).toBe(0);
    expect(touching).toBe(0);
    expect(sum / (60 * 1024)).toBeGreaterThan(245);
  });

  it("stamps a 2048 px page, and the tallest page (2048 x 4096) as one grey PNG", async () => {
    const stamped = await stampPage(storedPage(2048, 2650), DANA);
    expect(rgbaOf(stamped.bytes)).toMatchObject({ width: 2048, height: 2650 });
    const tallest = await stampPage(storedPage(2048, MAX_PAGE_HEIGHT), DANA);
    expect(tallest.contentType).toBe("image/png");
    expect(inspectPngSize(tallest.bytes)).toEqual([2048, MAX_PAGE_HEIGHT]);
  });

  it("stamps RGB pages as the Node renderer stores them", async () => {
    const { pixels } = rgbaOf(stored);
    const rgb = pixels.filter((_, i) => i % 4 !== 3);
    const stamped = await stampPage(await handPng(rgb, 1024, 1325, 2, [0]), DANA);
    expect(stamped.contentType).toBe("image/png");
    expect(stamped.bytes).toEqual((await stampPage(stored, DANA)).bytes);
  });

  it("stamps a page stored grey (as the renderer stores text pages) exactly as the same page stored as RGB", async () => {
    // The grey path (a byte a pixel from decode to PNG) must make the very image the RGB path makes:
    // scaled, marked, stamped and reduced to the same greys. Anti-aliased text (every grey level),
    // near-paper greys where the mark fades, and a width that is no multiple of 4 once scaled.
    const [width, height] = [1024, 1325];
    const grey = new Uint8Array(width * height).fill(255);
    let seed = 7;
    for (let top = 60; top < height - 120; top += 23) {
      for (let y = top; y < top + 11; y++) {
        for (let x = 60; x < width - 60; x++) {
          seed = (seed * 16807) % 2147483647;
          grey[y * width + x] = (x + y) % 9 < 5 ? seed & 0xff : 232 + (seed % 24);
        }
      }
    }
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < grey.length; i++) rgb.fill(grey[i] as number, i * 3, i * 3 + 3);
    const greyAlpha = new Uint8Array(width * height * 2);
    for (let i = 0; i < grey.length; i++) greyAlpha.set([grey[i] as number, i % 97 === 0 ? 128 : 255], i * 2);
    const rgbOfGreyAlpha = decodePageImage(await handPng(greyAlpha, width, height, 4, [0])).pixels;
    const code = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
    const mark = blockSigns(createLayout(new Uint8Array(32).fill(5)), code);
    const stored = {
      grey: await handPng(grey, width, height, 0, [0, 2]),
      rgb: await handPng(rgb, width, height, 2, [2]),
      greyAlpha: await handPng(greyAlpha, width, height, 4, [1]),
      rgbOfGreyAlpha: await handPng(rgbOfGreyAlpha, width, height, 2, [0]),
    };
    for (const [scaled, withMark, quality] of [
      [undefined, mark, "sharp"],
      [undefined, undefined, "sharp"],
      [640, mark, "saver"],
      [333, mark, "sharp"],
    ] as const) {
      const asGrey = await stampPage(stored.grey, OMAR, scaled, withMark, quality);
      expect(asGrey.contentType).toBe("image/png");
      const asRgb = await stampPage(stored.rgb, OMAR, scaled, withMark, quality);
      const what = `${scaled ?? width} px, ${withMark ? "marked" : "unmarked"}, ${quality}`;
      // The first byte that differs (-1: none): a diff of two whole images would take minutes to print.
      expect(firstDifference(asGrey.bytes, asRgb.bytes), what).toBe(-1);
      const greyAlphaStamped = await stampPage(stored.greyAlpha, OMAR, scaled, withMark, quality);
      const rgbStamped = await stampPage(stored.rgbOfGreyAlpha, OMAR, scaled, withMark, quality);
      expect(firstDifference(greyAlphaStamped.bytes, rgbStamped.bytes), `grey + alpha, ${what}`).toBe(-1);
    }
  });

  it("refuses anything but a stored PNG, and refuses to serve a page unmarked", async () => {
    await expect(stampPage(new TextEncoder().encode("%PDF-1.7 not an image"), DANA)).rejects.toThrow(/PNG expected/);
    await expect(stampPage(stored, [])).rejects.toThrow(/watermark/);
    await expect(stampPage(stored, ["  ", ""])).rejects.toThrow(/watermark/);
  });
});

/** The index of the first byte where `a` and `b` differ, or -1 when they are the same bytes. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Width and height from a PNG's IHDR (the tallest page is too big to decode twice in one isolate). */
function inspectPngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

describe("decodePageImage", () => {
  const [width, height] = [37, 23];

  for (const [colourType, name, channels] of [
    [2, "RGB", 3],
    [6, "RGBA", 4],
  ] as const) {
    for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4]]) {
      it(`reads ${name} rows filtered with ${filters.join(", ")}`, async () => {
        const samples = testSamples(width, height, channels);
        const page = decodePageImage(await handPng(samples, width, height, colourType, filters));
        expect(page).toMatchObject({ width, height, channels });
        const expected = samples.slice();
        if (channels === 4) {
          expected.set([255, 255, 255, 255], 0); // transparent: white
          for (let i = 4; i < 7; i++) expected[i] = Math.floor(((samples[i] as number) * 128 + 255 * 127 + 127) / 255);
          expected[7] = 255;
        }
        expect(page.pixels).toEqual(expected);
      });
    }
  }

  it("reads grey and grey + alpha pages as RGB", async () => {
    const grey = testSamples(width, height, 1);
    const page = decodePageImage(await handPng(grey, width, height, 0, [4, 1]));
    expect(page.channels).toBe(3);
    expect(page.pixels.filter((_, i) => i % 3 === 0)).toEqual(grey);
    const withAlpha = decodePageImage(await handPng(new Uint8Array(width * height * 2).fill(0), width, height, 4, [0]));
    expect(withAlpha.pixels.every((v) => v === 255)).toBe(true); // black, fully transparent: white
  });

  it("reads what photon writes, pixel for pixel", () => {
    const png = storedPage(300, 200);
    expect(decodePageImage(png).pixels).toEqual(rgbaOf(png).pixels);
  });

  it("refuses interlaced, 16-bit and palette PNGs, truncated and corrupt ones, with a reason", async () => {
    const png = await handPng(testSamples(width, height, 3), width, height, 2, [1]);
    const altered = (at: number, value: number) => png.map((byte, i) => (i === at ? value : byte));
    expect(() => decodePageImage(altered(28, 1))).toThrow(/interlaced/);
    expect(() => decodePageImage(altered(24, 16))).toThrow(/16-bit/);
    expect(() => decodePageImage(altered(25, 3))).toThrow(/palette/);
    expect(() => decodePageImage(png.subarray(0, png.length - 30))).toThrow(/truncated/);
    expect(() => decodePageImage(altered(50, png[50]! ^ 0xff))).toThrow(/corrupt|filter/);
    const wrongSize = png.slice();
    new DataView(wrongSize.buffer).setUint32(20, height + 1);
    expect(() => decodePageImage(wrongSize)).toThrow(/truncated/);
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

  it("rejects valid PNGs the Worker does not decode: interlaced, 16-bit, palette", () => {
    for (const [at, value] of [
      [28, 1],
      [24, 16],
      [25, 3],
    ]) {
      const other = png.slice();
      other[at as number] = value as number;
      expect(inspectPageImage(other)).toBeNull();
    }
  });
});

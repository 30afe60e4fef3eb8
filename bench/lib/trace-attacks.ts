// What a teacher may do to a page image before it leaks (issue 25): each attack takes an encoded
// image and gives one back. Image work by sharp (libvips); screenshots by Chromium showing the image
// as the reader lays it out (fit to width on the dark surround under a 56 px toolbar).
import { type Browser, chromium } from "playwright-core";
import sharp, { type Sharp } from "sharp";
import { PAPER } from "../../workers/stamp/mark.ts";

export type Attack = { name: string; run: (image: Buffer, random: () => number) => Promise<Buffer> };

const png = (s: Sharp) => s.png({ compressionLevel: 1 }).toBuffer();

/**
 * Where the page is in the image the last attack gave back (its rectangle in the image's pixels):
 * the bench asks how much of the page an attacked image still shows (a quarter of a page's blank
 * margin, or the top of a page whose text starts lower, shows none of it).
 */
export const geometry = { imageWidth: 0, imageHeight: 0, x: 0, y: 0, w: 0, h: 0, threshold: 255 };

export function resetGeometry(width: number, height: number): void {
  Object.assign(geometry, { imageWidth: width, imageHeight: height, x: 0, y: 0, w: width, h: height, threshold: 255 });
}

/** The part of the page the image shows, in fractions of the page (left, top, right, bottom). */
export function visiblePart(): [number, number, number, number] {
  const { imageWidth, imageHeight, x, y, w, h } = geometry;
  const clip = (v: number) => Math.max(0, Math.min(1, v));
  return [clip(-x / w), clip(-y / h), clip((imageWidth - x) / w), clip((imageHeight - y) / h)];
}

/**
 * The share of the page's ink in the part of the page an attacked image still shows: pixels not
 * paper-white, or after a threshold the pixels at or below its level (a cover's colour above the
 * level turns white with the paper).
 */
export function inkShare(
  page: { width: number; height: number; luma: Uint8Array },
  [left, top, right, bottom]: [number, number, number, number],
  level: number,
): number {
  const { width, height, luma } = page;
  const dark = Math.min(PAPER - 1, level);
  const [x0, x1, y0, y1] = [Math.round(left * width), Math.round(right * width), Math.round(top * height), Math.round(bottom * height)];
  let ink = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if ((luma[y * width + x] as number) <= dark) ink++;
  return ink / Math.max(1, (x1 - x0) * (y1 - y0));
}

export const threshold: Attack = {
  name: "threshold (any level)",
  // Every pixel lighter than T white, the rest black: T drawn from 40 to 230.
  run: async (image, random) => {
    const level = Math.round(40 + random() * 190);
    // What of the page a threshold keeps: the pixels at or below the level (the rest turns white).
    geometry.threshold = Math.min(geometry.threshold, level);
    return png(sharp(image).greyscale().threshold(level));
  },
};

export const jpeg40: Attack = { name: "JPEG q40", run: (image) => sharp(image).jpeg({ quality: 40 }).toBuffer() };
export const webp50: Attack = { name: "WebP q50", run: (image) => sharp(image).webp({ quality: 50 }).toBuffer() };

function scaleBy(factor: number): Attack {
  return {
    name: `scale ${factor * 100} %`,
    run: async (image) => {
      const { width = 1 } = await sharp(image).metadata();
      const to = Math.max(1, Math.round(width * factor));
      const k = to / width;
      const { imageWidth, imageHeight, x, y, w, h } = geometry;
      Object.assign(geometry, { imageWidth: imageWidth * k, imageHeight: imageHeight * k, x: x * k, y: y * k, w: w * k, h: h * k });
      return png(sharp(image).resize({ width: to }));
    },
  };
}
export const scale50 = scaleBy(0.5);
export const scale150 = scaleBy(1.5);

/** The quarter the last crop kept (0 top left, 1 top right, 2 bottom left, 3 bottom right): the bench asks whether any of the page is in it. */
export const lastCrop = { quarter: -1 };

export const cropQuarter: Attack = {
  name: "crop to a quarter",
  run: async (image, random) => {
    const { width = 2, height = 2 } = await sharp(image).metadata();
    const q = Math.floor(random() * 4);
    lastCrop.quarter = q;
    const w = Math.floor(width / 2);
    const h = Math.floor(height / 2);
    const [left, top] = [q % 2 ? width - w : 0, q >= 2 ? height - h : 0];
    Object.assign(geometry, { imageWidth: w, imageHeight: h, x: geometry.x - left, y: geometry.y - top });
    return png(sharp(image).extract({ left, top, width: w, height: h }));
  },
};

export const rotate2: Attack = {
  name: "rotate up to 2 degrees",
  // Turned by 0.5 to 2 degrees either way, the canvas grown to fit, corners white.
  run: async (image, random) => {
    const degrees = (0.5 + random() * 1.5) * (random() < 0.5 ? -1 : 1);
    return png(sharp(image).rotate(degrees, { background: "#ffffff" }));
  },
};

let browser: Promise<Browser> | undefined;
function launched(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  if (browser) await (await browser).close();
  browser = undefined;
}

function screenshotAt(deviceScaleFactor: number): Attack {
  return {
    name: `screenshot of the reader, DPR ${deviceScaleFactor}`,
    run: async (image) => {
      const { format, width = 1 } = await sharp(image).metadata();
      // The image laid out 1248 CSS px wide at (16, 64), in a 1280 x 800 viewport.
      const k = (1248 * deviceScaleFactor) / width;
      const { x, y, w, h } = geometry;
      Object.assign(geometry, {
        imageWidth: 1280 * deviceScaleFactor,
        imageHeight: 800 * deviceScaleFactor,
        x: 16 * deviceScaleFactor + x * k,
        y: 64 * deviceScaleFactor + y * k,
        w: w * k,
        h: h * k,
      });
      const context = await (await launched()).newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor });
      try {
        const page = await context.newPage();
        const src = `data:image/${format === "jpeg" ? "jpeg" : format};base64,${image.toString("base64")}`;
        await page.setContent(
          `<body style="margin:0;background:#0f172a"><div style="height:56px;background:#111827"></div>` +
            `<div style="padding:8px 16px"><img id="p" src="${src}" style="display:block;width:100%;height:auto"></div></body>`,
        );
        await page.waitForFunction(() => (document.getElementById("p") as HTMLImageElement | null)?.complete === true);
        return await page.screenshot({ type: "png" });
      } finally {
        await context.close();
      }
    },
  };
}
export const screenshot1 = screenshotAt(1);
export const screenshot2 = screenshotAt(2);

export const SINGLE_ATTACKS: Attack[] = [threshold, jpeg40, webp50, scale50, scale150, cropQuarter, rotate2, screenshot1, screenshot2];

/** Luma of any image sharp reads, as the trace receives it. */
export async function decodeGrey(image: Buffer): Promise<{ width: number; height: number; data: Uint8Array; channels: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    channels: info.channels,
  };
}

/**
 * A photo of the reader on a screen (the stretch goal), simulated: the DPR 1 screenshot as
 * the screen shows it (its black lifted to 28 and white dimmed to 228, a display gamma), seen by a
 * camera from slightly off-axis (a perspective: each corner of the screen moved by up to `tilt` of
 * the photo's size), a little out of focus, with the sensor's noise, light falling off to the
 * corners, and saved as a phone saves it (JPEG q85). No moire: that needs the screen's subpixels.
 * The trace models no perspective: this says how far a similarity registration gets.
 */
function photoOfScreen(tilt: number): Attack {
  return {
    name: `photo of the screen (simulated, corners moved up to ${tilt * 100} %)`,
    run: async (image, random) => {
      const shot = await screenshot1.run(image, random);
      const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const [sw, sh, c] = [info.width, info.height, info.channels];
      const [pw, ph] = [Math.round(sw * 1.25), Math.round(sh * 1.25)];
      const margin = 0.05;
      const jitter = () => (random() * 2 - 1) * tilt;
      const corners: Array<[number, number]> = [
        [margin, margin],
        [1 - margin, margin],
        [1 - margin, 1 - margin],
        [margin, 1 - margin],
      ].map(([x, y]) => [((x as number) + jitter()) * pw, ((y as number) + jitter()) * ph]);
      // Photo pixel -> screen pixel.
      const toScreen = homography(corners, [
        [0, 0],
        [sw, 0],
        [sw, sh],
        [0, sh],
      ]);
      const out = Buffer.alloc(pw * ph * 3);
      const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
      for (let y = 0; y < ph; y++) {
        for (let x = 0; x < pw; x++) {
          const [u, v] = toScreen(x + 0.5, y + 0.5);
          const r2 = ((x / pw - 0.5) ** 2 + (y / ph - 0.5) ** 2) / 0.5;
          const light = 1 - 0.15 * r2;
          for (let k = 0; k < 3; k++) {
            let value = 20; // the screen's bezel
            if (u >= 0 && v >= 0 && u < sw - 1 && v < sh - 1) {
              const [x0, y0] = [Math.floor(u - 0.5), Math.floor(v - 0.5)];
              const [fx, fy] = [u - 0.5 - x0, v - 0.5 - y0];
              const at = (xx: number, yy: number) =>
                data[(Math.max(0, Math.min(sh - 1, yy)) * sw + Math.max(0, Math.min(sw - 1, xx))) * c + k] as number;
              const s =
                (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
              value = 28 + 200 * (s / 255) ** 1.1;
            }
            out[(y * pw + x) * 3 + k] = Math.max(0, Math.min(255, Math.round(value * light + 3 * gauss())));
          }
        }
      }
      // Where the page is, roughly (the bench asks only whether the part shown is blank).
      const k = (pw * (1 - 2 * margin)) / sw;
      const { x, y, w, h } = geometry;
      Object.assign(geometry, { imageWidth: pw, imageHeight: ph, x: margin * pw + x * k, y: margin * ph + y * k, w: w * k, h: h * k });
      return sharp(out, { raw: { width: pw, height: ph, channels: 3 } })
        .blur(0.8)
        .jpeg({ quality: 85 })
        .toBuffer();
    },
  };
}

/** The projective map taking the four points `from` to the four points `to`. */
function homography(from: Array<[number, number]>, to: Array<[number, number]>): (x: number, y: number) => [number, number] {
  // h (8 unknowns, h8 = 1): u = (h0 x + h1 y + h2) / (h6 x + h7 y + 1), v = (h3 x + h4 y + h5) / (...).
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as [number, number];
    const [u, v] = to[i] as [number, number];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++)
      if (Math.abs((rows[r] as number[])[col] as number) > Math.abs((rows[pivot] as number[])[col] as number)) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const p = rows[col] as number[];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const row = rows[r] as number[];
      const f = (row[col] as number) / (p[col] as number);
      for (let k = col; k < 9; k++) row[k] = (row[k] as number) - f * (p[k] as number);
    }
  }
  const h = rows.map((row, i) => (row[8] as number) / (row[i] as number));
  const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [number, number, number, number, number, number, number, number];
  return (x, y) => {
    const d = h6 * x + h7 * y + 1;
    return [(h0 * x + h1 * y + h2) / d, (h3 * x + h4 * y + h5) / d];
  };
}

/** The stretch goal's attacks: measured and reported, with no target. */
export const PHOTO_ATTACKS: Attack[] = [photoOfScreen(0.01), photoOfScreen(0.03)];

// What a teacher may do to a page image before it leaks (issue 25): each attack takes an encoded
// image and gives one back. Image work by sharp (libvips); screenshots by Chromium showing the image
// as the reader lays it out (fit to width on the dark surround under a 56 px toolbar).
import { type Browser, chromium } from "playwright-core";
import sharp, { type Sharp } from "sharp";

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

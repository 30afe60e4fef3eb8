// The installable app's icons (docs/decisions/0049), drawn from the favicon's own shapes
// (public/favicon.svg) and rasterised with sharp: `node scripts/app-icons.ts` writes
// public/icons/icon-192.png, icon-512.png and icon-maskable-512.png. Run it again after changing
// the favicon; the PNGs are committed so the build needs no image tools.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

const root = join(import.meta.dirname, "..");
const out = join(root, "public", "icons");

/** The favicon's drawing (a 32-unit square): the rounded tile and the open book on it. */
const favicon = readFileSync(join(root, "public", "favicon.svg"), "utf8");
const tile = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
const glyph = favicon
  .replace(/^<svg[^>]*>/, "")
  .replace(/<\/svg>\s*$/, "")
  .replace(/<rect[^>]*\/>/, "");
if (!tile || !glyph.includes("<path")) throw new Error("public/favicon.svg is not the tile-and-book drawing this script expects");

/**
 * A maskable icon may be cut to any shape inside its central circle (80 % of the side), so the
 * tile fills the whole square and the book is shrunk to sit well inside that circle.
 */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${tile}"/><g transform="translate(16 16) scale(0.7) translate(-16 -17)">${glyph}</g></svg>`;

async function write(svg: string, size: number, name: string) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(out, name));
  console.log(`public/icons/${name} (${size}x${size})`);
}

mkdirSync(out, { recursive: true });
await write(favicon, 192, "icon-192.png");
await write(favicon, 512, "icon-512.png");
await write(maskable, 512, "icon-maskable-512.png");

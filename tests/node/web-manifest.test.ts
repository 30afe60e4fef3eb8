// The installable app's manifest (docs/decisions/0049): its colours are the app's Tailwind theme
// (indigo-600, slate-50) as sRGB hex, and each icon it lists is a PNG of the size it says in public/.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { APP_ICONS, BACKGROUND_COLOUR, THEME_COLOUR } from "../../workers/schools/web-manifest.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** Tailwind's own value of a colour token, `oklch(L% C H)`. */
function tailwindColour(token: string): [number, number, number] {
  const theme = readFileSync(join(createRequire(import.meta.url).resolve("tailwindcss/package.json"), "..", "theme.css"), "utf8");
  const found = new RegExp(`--color-${token}: oklch\\(([\\d.]+)% ([\\d.]+) ([\\d.]+)\\)`).exec(theme);
  if (!found) throw new Error(`Tailwind has no ${token}`);
  return [Number(found[1]) / 100, Number(found[2]), Number(found[3])];
}

/** OKLCH to sRGB hex (Björn Ottosson's matrices), as a browser would paint it. */
function hexOf([l, c, h]: [number, number, number]): string {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const L = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const M = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const S = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * L - 3.3077115913 * M + 0.2309699292 * S,
    -1.2684380046 * L + 2.6097574011 * M - 0.3413193965 * S,
    -0.0041960863 * L - 0.7034186147 * M + 1.707614701 * S,
  ];
  const channel = (x: number) => {
    const v = Math.min(1, Math.max(0, x));
    return Math.round((v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055) * 255);
  };
  return `#${linear.map((x) => channel(x).toString(16).padStart(2, "0")).join("")}`;
}

describe("the web app manifest", () => {
  it("takes its colours from the app's Tailwind theme", () => {
    expect(THEME_COLOUR).toBe(hexOf(tailwindColour("indigo-600")));
    expect(BACKGROUND_COLOUR).toBe(hexOf(tailwindColour("slate-50")));
  });

  it.each(APP_ICONS.map((icon) => [icon.src, icon.sizes] as const))("lists %s, a %s PNG in public/", async (src, sizes) => {
    const { format, width, height } = await sharp(join(ROOT, "public", src)).metadata();
    expect(`${format} ${width}x${height}`).toBe(`png ${sizes}`);
  });
});

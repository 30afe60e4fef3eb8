/** Drawing on a demo book's pages with pdf-lib (book-pdf.ts): the page's size and margins, the colours, and text that wraps or is clipped to a width. */
import { type PDFFont, type PDFPage, type RGB, rgb } from "pdf-lib";

export const W = 612;
export const H = 792;
export const M = 66;
export const CW = W - 2 * M;

export const WHITE = rgb(1, 1, 1);
export const INK = rgb(0.13, 0.13, 0.15);
export const GREY = rgb(0.45, 0.45, 0.5);
export const LIGHT = rgb(0.8, 0.8, 0.83);

export type Fonts = { sans: PDFFont; bold: PDFFont; serif: PDFFont };
export type Palette = { primary: RGB; secondary: RGB; accent: RGB; pale: RGB };
export type Box = { x: number; y: number; w: number; h: number };
export type Ctx = { page: PDFPage; fonts: Fonts; pal: Palette; rand: () => number; labels: string[] };

export function hex(h: string, towardsWhite = 0): RGB {
  const n = Number.parseInt(h.slice(1), 16);
  const c = (shift: number) => ((n >> shift) & 255) / 255;
  const t = (v: number) => v + (1 - v) * towardsWhite;
  return rgb(t(c(16)), t(c(8)), t(c(0)));
}

// Measuring is most of the cost of a 500-page book; the word banks are small, so cache per word.
const widths = new WeakMap<PDFFont, Map<string, number>>();
export function measure(font: PDFFont, word: string): number {
  const cache = widths.get(font) ?? new Map<string, number>();
  widths.set(font, cache);
  const w = cache.get(word) ?? font.widthOfTextAtSize(word, 1);
  cache.set(word, w);
  return w;
}

export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const space = measure(font, " ") * size;
  let line = "";
  let lineW = 0;
  for (const word of text.split(" ").filter(Boolean)) {
    const w = measure(font, word) * size;
    if (line && lineW + space + w > width) {
      lines.push(line);
      line = "";
    }
    lineW = line ? lineW + space + w : w;
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function clip(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}...`;
}

/** pdf-lib's SVG paths run y downwards from the origin, so flip page coordinates into it. */
export function polygon(page: PDFPage, xy: number[], opts: { color?: RGB; borderColor?: RGB; borderWidth?: number; opacity?: number }) {
  let d = "";
  for (let i = 0; i < xy.length; i += 2) d += `${i ? "L" : "M"}${xy[i]!.toFixed(2)} ${(-xy[i + 1]!).toFixed(2)} `;
  page.drawSvgPath(`${d}Z`, { x: 0, y: 0, ...opts });
}

// Demo book covers, rendered in Node with @napi-rs/canvas (the Worker cannot rasterise).

import { createRequire } from "node:module";
import { join } from "node:path";
import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";
import type { DemoBookInfo } from "../seed/book-pdf.ts";
import { hashString, seededRandom } from "../seed/book-text.ts";
import { bankFor } from "../seed/subject-banks.ts";

const W = 600;
const H = 900;
const M = 48;
const SANS = "LecternCoverSans";
const BOLD = "LecternCoverBold";

let fontsReady = false;
// No system fonts can be assumed, so borrow the Liberation fonts that pdfjs-dist ships.
function registerFonts() {
  if (fontsReady) return;
  const dir = join(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"), "..", "standard_fonts");
  const ok =
    GlobalFonts.registerFromPath(join(dir, "LiberationSans-Regular.ttf"), SANS) &&
    GlobalFonts.registerFromPath(join(dir, "LiberationSans-Bold.ttf"), BOLD);
  if (!ok) throw new Error(`Could not register cover fonts from ${dir}`);
  fontsReady = true;
}

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = (shift: number) => {
    const v = (n >> shift) & 255;
    return Math.round(amount < 0 ? v * (1 + amount) : v + (255 - v) * amount);
  };
  return `rgb(${ch(16)}, ${ch(8)}, ${ch(0)})`;
}

function wrap(ctx: SKRSContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Largest size at which the title fits in four lines (five at the smallest), ellipsised beyond that. */
function fitTitle(ctx: SKRSContext2D, title: string, width: number): { size: number; lines: string[] } {
  for (let size = 76; ; size -= 2) {
    ctx.font = `${size}px ${BOLD}`;
    const lines = wrap(ctx, title, width);
    if (lines.length <= 4 && lines.every((l) => ctx.measureText(l).width <= width)) return { size, lines };
    if (size <= 32) {
      const kept = lines.slice(0, 5).map((l) => ellipsis(ctx, l, width));
      if (lines.length > 5) kept[4] = ellipsis(ctx, `${kept[4]}...`, width);
      return { size, lines: kept };
    }
  }
}

function ellipsis(ctx: SKRSContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}...`).width > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}...`;
}

/** Shrinks a single line to fit rather than letting fillText squash the glyphs, then ellipsises. */
function fitLine(ctx: SKRSContext2D, text: string, family: string, size: number, width: number): string {
  let s = size;
  ctx.font = `${s}px ${family}`;
  while (s > size * 0.7 && ctx.measureText(text).width > width) ctx.font = `${--s}px ${family}`;
  return ellipsis(ctx, text, width);
}

/** Liberation Sans covers Latin, Greek and Cyrillic; anything else would draw as empty boxes. */
function printable(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[^\u0020-\u024f\u0370-\u04ff\u2000-\u20cf]/gu, "")
    .trim();
}

function decorate(ctx: SKRSContext2D, rand: () => number, colors: { secondary: string; accent: string }) {
  ctx.save();
  // Big soft discs bleed off the top-right edge, like a printed cover's artwork.
  for (let i = 0; i < 4; i++) {
    ctx.globalAlpha = 0.06 + rand() * 0.06;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.arc(W - rand() * 220, rand() * 300, 90 + rand() * 140, 0, Math.PI * 2);
    ctx.fill();
  }
  // A seeded cluster of flat shapes in the lower half: each book gets its own arrangement.
  const cell = 72;
  const cols = 6;
  const rows = 3;
  const x0 = W - M - cols * cell + 12;
  const y0 = 540;
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < cols; k++) {
      if (rand() < 0.25 + (cols - 1 - k) * 0.1) continue;
      const x = x0 + k * cell;
      const y = y0 + r * cell;
      ctx.globalAlpha = 0.55 + rand() * 0.45;
      ctx.fillStyle = rand() < 0.45 ? colors.accent : rand() < 0.6 ? colors.secondary : "#ffffff";
      ctx.beginPath();
      const kind = Math.floor(rand() * 4);
      if (kind === 0) ctx.arc(x + cell / 2, y + cell / 2, cell * 0.4, 0, Math.PI * 2);
      else if (kind === 1) ctx.rect(x + cell * 0.12, y + cell * 0.12, cell * 0.76, cell * 0.76);
      else if (kind === 2) {
        ctx.moveTo(x + cell * 0.1, y + cell * 0.9);
        ctx.lineTo(x + cell * 0.9, y + cell * 0.9);
        ctx.lineTo(x + cell / 2, y + cell * 0.1);
      } else {
        // Quarter disc, turned by a seeded multiple of 90 degrees.
        const q = Math.floor(rand() * 4);
        const cx = x + (q === 1 || q === 2 ? cell * 0.9 : cell * 0.1);
        const cy = y + (q >= 2 ? cell * 0.1 : cell * 0.9);
        ctx.moveTo(cx, cy);
        ctx.arc(cx, cy, cell * 0.8, (-Math.PI / 2) * (q + 1), (-Math.PI / 2) * q);
      }
      ctx.closePath();
      ctx.fill();
    }
  }
  ctx.globalAlpha = 0.9;
  ctx.strokeStyle = colors.accent;
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.arc(M + 40 + rand() * 60, 650 + rand() * 40, 58, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}

export async function renderCover(book: DemoBookInfo): Promise<{ bytes: Uint8Array; contentType: "image/webp" }> {
  registerFonts();
  const { primary, secondary, accent } = bankFor(book.subject).theme;
  const rand = seededRandom(hashString(`cover:${book.title}`));
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext("2d");

  const bg = ctx.createLinearGradient(0, 0, W * 0.4, H);
  bg.addColorStop(0, shade(primary, 0.12));
  bg.addColorStop(1, shade(primary, -0.45));
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, W, H);
  decorate(ctx, rand, { secondary: shade(secondary, 0.2), accent });
  // A darker strip at the left edge reads as the hinge of a printed book.
  ctx.fillStyle = "rgba(0, 0, 0, 0.18)";
  ctx.fillRect(0, 0, 16, H);
  ctx.fillStyle = "rgba(255, 255, 255, 0.12)";
  ctx.fillRect(16, 0, 2, H);

  const title = printable(book.title);
  const publisher = printable(book.publisher);
  ctx.textBaseline = "alphabetic";
  ctx.fillStyle = "#ffffff";
  ctx.fillText(fitLine(ctx, publisher.toUpperCase(), BOLD, 17, W - 2 * M), M, 64);
  ctx.fillStyle = accent;
  ctx.fillRect(M, 76, 44, 4);

  const { size, lines } = fitTitle(ctx, title, W - 2 * M);
  ctx.font = `${size}px ${BOLD}`;
  ctx.fillStyle = "#ffffff";
  ctx.shadowColor = "rgba(0, 0, 0, 0.25)";
  ctx.shadowOffsetY = 2;
  ctx.shadowBlur = 6;
  let y = 140 + size * 0.8;
  for (const line of lines) {
    ctx.fillText(line, M, y);
    y += size * 1.1;
  }
  ctx.shadowColor = "transparent";

  const authors = [book.author1, book.author2]
    .filter((a): a is string => Boolean(a))
    .map(printable)
    .join(" and ");
  ctx.font = `26px ${SANS}`;
  ctx.fillStyle = shade(secondary, 0.75);
  y += 12;
  const byLines = wrap(ctx, `by ${authors}`, W - 2 * M);
  for (const [i, line] of byLines.slice(0, 2).entries()) {
    ctx.fillText(ellipsis(ctx, i === 1 && byLines.length > 2 ? `${line}...` : line, W - 2 * M), M, y);
    y += 34;
  }

  const bandY = 780;
  ctx.fillStyle = accent;
  ctx.fillRect(0, bandY, W, 56);
  ctx.fillStyle = shade(primary, -0.55);
  let subjectWidth = W - 2 * M;
  if (book.gradeLevel !== null) {
    const grade = `Standard ${book.gradeLevel}`;
    ctx.font = `22px ${SANS}`;
    const gradeWidth = ctx.measureText(grade).width;
    ctx.fillText(grade, W - M - gradeWidth, bandY + 37);
    subjectWidth -= gradeWidth + 24;
  }
  ctx.fillText(fitLine(ctx, printable(book.subject ?? "General"), BOLD, 24, subjectWidth), M, bandY + 37);

  ctx.fillStyle = shade(primary, -0.6);
  ctx.fillRect(0, bandY + 56, W, H - bandY - 56);
  ctx.fillStyle = "#ffffff";
  const pub = fitLine(ctx, publisher, BOLD, 20, W - 2 * M);
  ctx.fillText(pub, (W - ctx.measureText(pub).width) / 2, H - 24);

  const webp = await canvas.encode("webp", 85);
  return { bytes: new Uint8Array(webp), contentType: "image/webp" };
}

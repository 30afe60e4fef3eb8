/**
 * Demo textbook PDFs. Runs in workerd as well as Node, hence pdf-lib and web APIs only.
 * Deterministic (fixed metadata, PRNG seeded from the title): the same book always yields the same
 * bytes, in Node and in workerd alike, so re-seeding never produces a different file.
 */
import { PDFDocument, type PDFFont, type PDFPage, type RGB, rgb, StandardFonts } from "pdf-lib";
import { bankFor, hashString, paragraph, pick, sanitize, seededRandom, titleCase } from "./book-text.ts";

export interface DemoBookInfo {
  title: string;
  author1: string;
  author2: string | null;
  subject: string | null;
  gradeLevel: number | null;
  description: string;
  isbn: string | null;
  publisher: string;
}

const W = 612;
const H = 792;
const M = 66;
const CW = W - 2 * M;
const BODY_TOP = H - 84;
const BODY_BOTTOM = 74;
const LEADING = 16;
const TEXT_SIZE = 12;
const FIG_H = 180;
// A fixed date keeps the bytes stable across runs.
const FIXED_DATE = new Date("2024-08-01T00:00:00Z");
const WHITE = rgb(1, 1, 1);
const INK = rgb(0.13, 0.13, 0.15);
const GREY = rgb(0.45, 0.45, 0.5);
const LIGHT = rgb(0.8, 0.8, 0.83);

type Fonts = { sans: PDFFont; bold: PDFFont; serif: PDFFont };
type Palette = { primary: RGB; secondary: RGB; accent: RGB; pale: RGB };
type Box = { x: number; y: number; w: number; h: number };
type Ctx = { page: PDFPage; fonts: Fonts; pal: Palette; rand: () => number; labels: string[] };

function hex(h: string, towardsWhite = 0): RGB {
  const n = Number.parseInt(h.slice(1), 16);
  const c = (shift: number) => ((n >> shift) & 255) / 255;
  const t = (v: number) => v + (1 - v) * towardsWhite;
  return rgb(t(c(16)), t(c(8)), t(c(0)));
}

// Measuring is most of the cost of a 500-page book; the word banks are small, so cache per word.
const widths = new WeakMap<PDFFont, Map<string, number>>();
function measure(font: PDFFont, word: string): number {
  const cache = widths.get(font) ?? new Map<string, number>();
  widths.set(font, cache);
  const w = cache.get(word) ?? font.widthOfTextAtSize(word, 1);
  cache.set(word, w);
  return w;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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

function clip(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}...`;
}

/** pdf-lib's SVG paths run y downwards from the origin, so flip page coordinates into it. */
function polygon(page: PDFPage, xy: number[], opts: { color?: RGB; borderColor?: RGB; borderWidth?: number; opacity?: number }) {
  let d = "";
  for (let i = 0; i < xy.length; i += 2) d += `${i ? "L" : "M"}${xy[i]!.toFixed(2)} ${(-xy[i + 1]!).toFixed(2)} `;
  page.drawSvgPath(`${d}Z`, { x: 0, y: 0, ...opts });
}

function authors(book: DemoBookInfo, separator: string): string {
  return [book.author1, book.author2].flatMap((a) => (a ? [sanitize(a)] : [])).join(separator);
}

function axes(c: Ctx, b: Box, steps: number) {
  for (let i = 1; i <= steps; i++) {
    const y = b.y + (b.h * i) / steps;
    c.page.drawLine({ start: { x: b.x, y }, end: { x: b.x + b.w, y }, thickness: 0.4, color: LIGHT, dashArray: [2, 2] });
    c.page.drawText(String((100 / steps) * i), { x: b.x - 16, y: y - 2.5, size: 7, font: c.fonts.sans, color: GREY });
  }
  c.page.drawLine({ start: { x: b.x, y: b.y }, end: { x: b.x + b.w, y: b.y }, thickness: 1, color: INK });
  c.page.drawLine({ start: { x: b.x, y: b.y }, end: { x: b.x, y: b.y + b.h }, thickness: 1, color: INK });
}

const FIGURES: { caption: string; draw: (c: Ctx, b: Box) => void }[] = [
  {
    caption: "A bar chart comparing results in {t}",
    draw(c, b) {
      const plot = { x: b.x + 24, y: b.y + 16, w: b.w - 36, h: b.h - 24 };
      axes(c, plot, 4);
      const n = 4 + Math.floor(c.rand() * 3);
      const slot = plot.w / n;
      for (let i = 0; i < n; i++) {
        const v = 15 + Math.round(c.rand() * 85);
        const x = plot.x + slot * i + slot * 0.2;
        const color = i % 2 ? c.pal.secondary : c.pal.primary;
        c.page.drawRectangle({ x, y: plot.y, width: slot * 0.6, height: (plot.h * v) / 100, color });
        c.page.drawText(String(v), { x: x + slot * 0.3 - 5, y: plot.y + (plot.h * v) / 100 + 3, size: 7, font: c.fonts.bold, color: INK });
        const label = c.labels[i % c.labels.length]!;
        const lw = c.fonts.sans.widthOfTextAtSize(label, 7.5);
        c.page.drawText(label, { x: x + slot * 0.3 - lw / 2, y: plot.y - 11, size: 7.5, font: c.fonts.sans, color: INK });
      }
    },
  },
  {
    caption: "A line graph of two groups over seven weeks of {t}",
    draw(c, b) {
      const plot = { x: b.x + 24, y: b.y + 16, w: b.w - 130, h: b.h - 24 };
      axes(c, plot, 5);
      [c.pal.primary, c.pal.secondary].forEach((color, s) => {
        let v = 20 + c.rand() * 30;
        let prev: { x: number; y: number } | null = null;
        for (let i = 0; i < 7; i++) {
          v = Math.min(98, Math.max(4, v + (c.rand() - 0.35) * 22));
          const pt = { x: plot.x + 12 + ((plot.w - 24) * i) / 6, y: plot.y + (plot.h * v) / 100 };
          if (prev) c.page.drawLine({ start: prev, end: pt, thickness: 1.6, color });
          c.page.drawCircle({ ...pt, size: 2.6, color, borderColor: WHITE, borderWidth: 0.8 });
          if (s === 0) c.page.drawText(`W${i + 1}`, { x: pt.x - 5, y: plot.y - 11, size: 7.5, font: c.fonts.sans, color: INK });
          prev = pt;
        }
        c.page.drawRectangle({ x: plot.x + plot.w + 20, y: plot.y + plot.h - 20 - s * 18, width: 10, height: 10, color });
        const name = `Group ${"AB"[s]}`;
        c.page.drawText(name, { x: plot.x + plot.w + 36, y: plot.y + plot.h - 18 - s * 18, size: 8.5, font: c.fonts.sans, color: INK });
      });
    },
  },
  {
    caption: "A circle diagram showing the parts of {t}",
    draw(c, b) {
      const r = b.h / 2 - 4;
      const cx = b.x + b.w * 0.3;
      const cy = b.y + b.h / 2;
      const values = Array.from({ length: 3 + Math.floor(c.rand() * 3) }, () => 1 + c.rand() * 3);
      const total = values.reduce((a, v) => a + v, 0);
      const colors = [c.pal.primary, c.pal.secondary, c.pal.accent, GREY, LIGHT];
      let angle = Math.PI / 2;
      values.forEach((v, i) => {
        const sweep = (v / total) * Math.PI * 2;
        const pts = [cx, cy];
        for (let a = 0; a <= 24; a++) {
          const t = angle - (sweep * a) / 24;
          pts.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
        }
        polygon(c.page, pts, { color: colors[i], borderColor: WHITE, borderWidth: 1.2 });
        angle -= sweep;
        const ly = cy + r - 12 - i * 20;
        c.page.drawRectangle({ x: b.x + b.w * 0.58, y: ly, width: 10, height: 10, color: colors[i] });
        const text = `${c.labels[i % c.labels.length]}: ${Math.round((v / total) * 100)}%`;
        c.page.drawText(text, { x: b.x + b.w * 0.58 + 16, y: ly + 2, size: 9, font: c.fonts.sans, color: INK });
      });
      c.page.drawCircle({ x: cx, y: cy, size: r * 0.35, color: c.pal.pale });
    },
  },
  {
    caption: "Shapes and measurements used in {t}",
    draw(c, b) {
      const s = Math.min(b.h - 20, b.w / 3 - 24);
      const y0 = b.y + (b.h - s) / 2;
      const fill = { color: c.pal.secondary, opacity: 0.3, borderColor: c.pal.primary, borderWidth: 1.5 };
      const x1 = b.x + 8;
      polygon(c.page, [x1, y0, x1 + s, y0, x1 + s * (0.2 + c.rand() * 0.6), y0 + s], fill);
      const x2 = b.x + b.w / 3 + 12;
      const rh = s * (0.5 + c.rand() * 0.4);
      c.page.drawRectangle({ x: x2, y: y0, width: s, height: rh, ...fill });
      c.page.drawLine({ start: { x: x2, y: y0 }, end: { x: x2 + s, y: y0 + rh }, thickness: 0.8, color: GREY, dashArray: [3, 2] });
      c.page.drawText(`${Math.round(s / 12)} cm`, { x: x2 + s / 2 - 10, y: y0 - 11, size: 8, font: c.fonts.sans, color: INK });
      const sides = 5 + Math.floor(c.rand() * 4);
      const cx = b.x + (b.w * 5) / 6;
      const cy = b.y + b.h / 2;
      const pts = Array.from({ length: sides }, (_, i) => Math.PI / 2 + (i * Math.PI * 2) / sides).flatMap((t) => [
        cx + (s / 2) * Math.cos(t),
        cy + (s / 2) * Math.sin(t),
      ]);
      c.page.drawCircle({ x: cx, y: cy, size: s / 2, borderColor: c.pal.accent, borderWidth: 1.2 });
      polygon(c.page, pts, fill);
      c.page.drawLine({ start: { x: cx, y: cy }, end: { x: cx + s / 2, y: cy }, thickness: 1, color: INK });
      c.page.drawText("r", { x: cx + s / 4 - 2, y: cy + 4, size: 9, font: c.fonts.serif, color: INK });
      ["A", "B", "C"].forEach((l, i) => {
        const [px, py] = i === 2 ? [x1 + s / 2, y0 + s + 4] : [x1 + i * s - 4, y0 - 11];
        c.page.drawText(l, { x: px, y: py, size: 9, font: c.fonts.bold, color: INK });
      });
    },
  },
  {
    caption: "A table summarising {t}",
    draw(c, b) {
      const cols = 4;
      const rows = 5;
      const cw = b.w / cols;
      const rh = b.h / rows;
      for (let r = 0; r < rows; r++) {
        const y = b.y + b.h - (r + 1) * rh;
        const color = r === 0 ? c.pal.primary : r % 2 ? WHITE : c.pal.pale;
        c.page.drawRectangle({ x: b.x, y, width: b.w, height: rh, color, borderColor: LIGHT, borderWidth: 0.5 });
        for (let k = 0; k < cols; k++) {
          const text =
            r === 0 ? (k ? `Trial ${k}` : "Item") : k ? String(Math.round(c.rand() * 90) + 10) : c.labels[(r - 1) % c.labels.length]!;
          const font = r === 0 || k === 0 ? c.fonts.bold : c.fonts.sans;
          c.page.drawText(text, { x: b.x + k * cw + 10, y: y + rh / 2 - 3.5, size: 10, font, color: r === 0 ? WHITE : INK });
        }
      }
    },
  },
  {
    caption: "A labelled diagram of {t}",
    draw(c, b) {
      const cx = b.x + b.w / 2;
      const cy = b.y + b.h / 2;
      const r = b.h / 2 - 8;
      const outline = { borderColor: c.pal.primary, borderWidth: 1.5 };
      c.page.drawEllipse({ x: cx, y: cy, xScale: r * 1.3, yScale: r, color: c.pal.secondary, opacity: 0.25, ...outline });
      c.page.drawCircle({ x: cx - r * 0.35, y: cy + r * 0.1, size: r * 0.38, color: c.pal.accent, opacity: 0.7 });
      c.page.drawCircle({ x: cx + r * 0.45, y: cy - r * 0.2, size: r * 0.25, color: c.pal.primary, opacity: 0.6 });
      const anchors = [-0.35, 0.1, 0.45, -0.2, 0, 0.8, -0.9, -0.5].flatMap((v, i, all) =>
        i % 2 ? [] : [[cx + v * r, cy + all[i + 1]! * r] as const],
      );
      // Labels go on the anchor's own side, ordered top to bottom, so leader lines never cross.
      let n = 0;
      for (const left of [true, false]) {
        const side = anchors.filter(([ax]) => ax < cx === left).sort((p, q) => q[1] - p[1]);
        side.forEach(([ax, ay], i) => {
          const lx = left ? b.x + 70 : b.x + b.w - 70;
          const ly = b.y + b.h - 28 - (i * (b.h - 40)) / Math.max(1, side.length - 1);
          c.page.drawLine({ start: { x: ax, y: ay }, end: { x: lx, y: ly + 3 }, thickness: 0.8, color: INK });
          c.page.drawCircle({ x: ax, y: ay, size: 2.5, color: INK });
          n++;
          const label = `${n}. ${c.labels[(n + 1) % c.labels.length]}`;
          const lw = c.fonts.bold.widthOfTextAtSize(label, 9);
          c.page.drawText(label, { x: left ? lx - lw - 4 : lx + 4, y: ly, size: 9, font: c.fonts.bold, color: INK });
        });
      }
    },
  },
];

function titlePage(doc: PDFDocument, book: DemoBookInfo, f: Fonts, pal: Palette, rand: () => number) {
  const page = doc.addPage([W, H]);
  const bandY = 430;
  page.drawRectangle({ x: 0, y: bandY, width: W, height: H - bandY, color: pal.primary });
  page.drawRectangle({ x: 0, y: bandY - 8, width: W, height: 8, color: pal.accent });
  for (let i = 0; i < 5; i++) {
    page.drawCircle({ x: W - 40 - rand() * 160, y: H - rand() * 200, size: 30 + rand() * 90, color: WHITE, opacity: 0.07 });
  }
  const title = sanitize(book.title);
  let size = 42;
  let lines = wrap(title, f.bold, size, CW);
  while (size > 20 && (lines.length > 4 || lines.some((l) => f.bold.widthOfTextAtSize(l, size) > CW))) {
    size -= 2;
    lines = wrap(title, f.bold, size, CW);
  }
  lines = lines.map((l) => clip(l, f.bold, size, CW));
  // Centre the title and byline together in the band, whatever the number of title lines.
  const blockBottom = bandY + (H - bandY - (lines.length * size * 1.15 + 40)) / 2;
  const by = `by ${authors(book, " and ")}`;
  page.drawText(clip(by, f.sans, 16, CW), { x: M, y: blockBottom, size: 16, font: f.sans, color: pal.pale });
  lines.forEach((line, i) => {
    page.drawText(line, { x: M, y: blockBottom + 44 + (lines.length - 1 - i) * size * 1.15, size, font: f.bold, color: WHITE });
  });
  const mark = sanitize(book.publisher).toUpperCase();
  page.drawText(clip(mark, f.bold, 10, CW), { x: M, y: H - 50, size: 10, font: f.bold, color: pal.pale });
  page.drawRectangle({ x: M, y: H - 58, width: 28, height: 2, color: pal.accent });
  if (book.subject)
    page.drawText(clip(sanitize(book.subject), f.bold, 18, CW), { x: M, y: bandY - 50, size: 18, font: f.bold, color: pal.primary });
  if (book.gradeLevel !== null) page.drawText(`Standard ${book.gradeLevel}`, { x: M, y: bandY - 72, size: 13, font: f.sans, color: GREY });
  // A seeded grid of shapes: an abstract motif that differs per book.
  const cols = 8;
  const cell = CW / cols;
  const colors = [pal.primary, pal.secondary, pal.accent];
  for (let r = 0; r < 3; r++) {
    for (let k = 0; k < cols; k++) {
      const x = M + k * cell;
      const y = 120 + r * cell;
      const color = pick(rand, colors);
      const opacity = 0.35 + rand() * 0.6;
      const kind = Math.floor(rand() * 4);
      const [x0, y0, x1, y1] = [x + cell * 0.08, y + cell * 0.08, x + cell * 0.92, y + cell * 0.92];
      if (kind === 0) page.drawCircle({ x: x + cell / 2, y: y + cell / 2, size: cell * 0.42, color, opacity });
      else if (kind === 1) page.drawRectangle({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, color, opacity });
      else polygon(page, [x0, y0, x1, y0, kind === 2 ? x + cell / 2 : x0, y1], { color, opacity });
    }
  }
  page.drawLine({ start: { x: M, y: 92 }, end: { x: W - M, y: 92 }, thickness: 0.8, color: LIGHT });
  const pub = clip(sanitize(book.publisher), f.bold, 14, CW);
  page.drawText(pub, { x: (W - f.bold.widthOfTextAtSize(pub, 14)) / 2, y: 68, size: 14, font: f.bold, color: INK });
  if (book.isbn) {
    const isbn = `ISBN ${sanitize(book.isbn)}`;
    page.drawText(isbn, { x: (W - f.sans.widthOfTextAtSize(isbn, 9)) / 2, y: 50, size: 9, font: f.sans, color: GREY });
  }
}

export async function generateBookPdf(book: DemoBookInfo, options: { pages?: number } = {}): Promise<Uint8Array> {
  const total = Math.max(1, Math.floor(options.pages ?? 24));
  const bank = bankFor(book.subject);
  const seed = hashString(book.title);
  const rand = seededRandom(seed);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const title = sanitize(book.title);
  doc.setTitle(title);
  doc.setAuthor(authors(book, ", "));
  doc.setSubject(sanitize(book.subject ?? "General"));
  doc.setCreator(sanitize(book.publisher));
  doc.setProducer("Lectern demo generator");
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const f: Fonts = {
    sans: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
  };
  const t = bank.theme;
  const pal: Palette = { primary: hex(t.primary), secondary: hex(t.secondary), accent: hex(t.accent), pale: hex(t.secondary, 0.88) };
  titlePage(doc, book, f, pal, rand);

  const bodyPages = total - 1;
  const chapters = Math.max(1, Math.round(bodyPages / 5));
  let chapter = -1;
  let figure = 0;
  for (let i = 0; i < bodyPages; i++) {
    const ch = Math.floor((i * chapters) / bodyPages);
    const opener = ch !== chapter;
    chapter = ch;
    figure = opener ? 1 : figure + 1;
    const round = Math.floor(ch / bank.topics.length);
    const topic = bank.topics[(ch + seed) % bank.topics.length]!;
    const heading = `${titleCase(topic)}${round ? `, Part ${round + 1}` : ""}`;
    const page = doc.addPage([W, H]);
    const c: Ctx = { page, fonts: f, pal, rand, labels: bank.labels };

    page.drawText(clip(title, f.sans, 8.5, CW * 0.55), { x: M, y: H - 46, size: 8.5, font: f.sans, color: GREY });
    const running = clip(`Chapter ${ch + 1}: ${heading}`, f.sans, 8.5, CW * 0.4);
    page.drawText(running, { x: W - M - f.sans.widthOfTextAtSize(running, 8.5), y: H - 46, size: 8.5, font: f.sans, color: GREY });
    page.drawLine({ start: { x: M, y: H - 54 }, end: { x: W - M, y: H - 54 }, thickness: 0.6, color: LIGHT });
    const footer = `Page ${i + 2} of ${total}`;
    page.drawLine({ start: { x: M, y: 56 }, end: { x: W - M, y: 56 }, thickness: 0.6, color: LIGHT });
    page.drawText(footer, { x: (W - f.sans.widthOfTextAtSize(footer, 9)) / 2, y: 38, size: 9, font: f.sans, color: GREY });

    const headLines = opener ? wrap(`Chapter ${ch + 1}: ${heading}`, f.bold, 20, CW - 16) : [];
    const headH = headLines.length ? headLines.length * 24 + 22 : 0;
    const used = new Set<string>();
    const paras = Array.from({ length: 4 }, () => paragraph(rand, bank, topic, used));
    // Overfill the last paragraph so that trimming below always leaves a full page.
    paras[3]!.push(...paragraph(rand, bank, topic, used));
    if (i === 0) paras[0] = [sanitize(book.description), ...paras[0]!.slice(0, 2)];
    const kind = FIGURES[(i * 5 + seed) % FIGURES.length]!;
    const caption = wrap(`Figure ${ch + 1}.${figure}: ${kind.caption.replaceAll("{t}", topic)}`, f.sans, 9, CW);
    const figH = FIG_H + 6 + caption.length * 13 + 12;
    const layout = () => paras.map((p) => wrap(p.join(" "), f.serif, TEXT_SIZE, CW));
    const height = (ls: string[][]) => headH + figH + ls.reduce((a, l) => a + l.length * LEADING + 8, 0);
    let wrapped = layout();
    // Trim by whole sentences, so the page fills up without ever overflowing mid-sentence.
    while (height(wrapped) > BODY_TOP - BODY_BOTTOM) {
      const last = paras[paras.length - 1]!;
      if (last.length > 2) last.pop();
      else if (paras.length > 2 || (paras.length > 1 && last.length < 2)) paras.pop();
      else if (last.length > 1) last.pop();
      else break;
      wrapped = layout();
    }
    // Only an absurdly long description gets here: cut lines rather than run off the page.
    while (height(wrapped) > BODY_TOP - BODY_BOTTOM && wrapped[wrapped.length - 1]!.length > 1) wrapped[wrapped.length - 1]!.pop();
    const figAfter = Math.min(paras.length, 1 + Math.floor(rand() * paras.length));

    let y = BODY_TOP;
    if (opener) {
      page.drawRectangle({ x: M, y: y - headLines.length * 24 + 2, width: 6, height: headLines.length * 24, color: pal.accent });
      headLines.forEach((line, k) => {
        page.drawText(line, { x: M + 16, y: y - 18 - k * 24, size: 20, font: f.bold, color: pal.primary });
      });
      y -= headH;
    }
    wrapped.forEach((lines, p) => {
      for (const line of lines) {
        y -= LEADING;
        page.drawText(line, { x: M, y, size: TEXT_SIZE, font: f.serif, color: INK });
      }
      y -= 8;
      if (p + 1 === figAfter) {
        y -= FIG_H + 6;
        page.drawRectangle({ x: M, y, width: CW, height: FIG_H, color: pal.pale, borderColor: LIGHT, borderWidth: 0.6 });
        kind.draw(c, { x: M + 18, y: y + 16, w: CW - 36, h: FIG_H - 32 });
        for (const line of caption) {
          y -= 13;
          page.drawText(line, { x: M, y, size: 9, font: f.sans, color: GREY });
        }
        y -= 12;
      }
    });
  }
  return doc.save();
}

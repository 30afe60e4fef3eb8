/**
 * Demo textbook PDFs. Runs in workerd as well as Node, hence pdf-lib and web APIs only.
 * Deterministic (fixed metadata, PRNG seeded from the title): the same book always yields the same
 * bytes, in Node and in workerd alike, so re-seeding never produces a different file.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { FIGURES } from "./book-figures.ts";
import { hashString, paragraph, pick, sanitize, seededRandom, titleCase } from "./book-text.ts";
import { type Ctx, CW, clip, type Fonts, GREY, H, hex, INK, LIGHT, M, type Palette, polygon, W, WHITE, wrap } from "./pdf-drawing.ts";
import { bankFor } from "./subject-banks.ts";

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

const BODY_TOP = H - 84;
const BODY_BOTTOM = 74;
const LEADING = 16;
const TEXT_SIZE = 12;
const FIG_H = 180;
// A fixed date keeps the bytes stable across runs.
const FIXED_DATE = new Date("2024-08-01T00:00:00Z");

function authors(book: DemoBookInfo, separator: string): string {
  return [book.author1, book.author2].flatMap((a) => (a ? [sanitize(a)] : [])).join(separator);
}

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

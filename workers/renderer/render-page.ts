/**
 * One page of an open PDFium document turned into what teachers read, the same objects the
 * browser's pdf.js renderer stored before (removed with issue 42): a PNG at each of
 * PAGE_WIDTHS, each rendered at its own width (a second render at 1024 px costs less than scaling
 * the 2048 px one down), and the page's text runs in PDF points from the top-left, `y` the top of
 * the run and `h` its font size above the baseline, as pdf.js placed them. And the outline.
 */
import { cleanExtractedText, MAX_TEXT_COORDINATE, TEXT_LIMITS } from "#shared/rules/extracted-text.ts";
import { MAX_PAGE_ASPECT, PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import type { OutlineItem, PageText, TextRun } from "../page-images/page-content.ts";
import type { Pdfium } from "./pdfium-api.ts";
import { PngBuilder } from "./png.ts";

const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const FPDFBITMAP_BGR = 2;

export interface RenderedPage {
  images: Map<number, Uint8Array>;
  text: PageText;
  /** Nothing drawn and no text: a damaged file often "renders" as white pages only. */
  blank: boolean;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The page's size in points as the reader shows it (its /Rotate applied). */
export function pageSize(m: Pdfium, page: number): { width: number; height: number } {
  return { width: m._FPDF_GetPageWidthF(page), height: m._FPDF_GetPageHeightF(page) };
}

/**
 * Pixels rendered per band: a page is drawn in horizontal bands of about this many bytes, so PDFium's
 * bitmap and the buffers it decodes images into stay small. Drawn whole, a 2048 px page with a
 * photograph took the wasm heap to 102 MB (freeculture.pdf's cover), close to an isolate's 128 MB
 * with the PNG's own buffers; in bands of 4 MB, 37 MB.
 */
const BAND_BYTES = 4 * 1024 * 1024;

function renderAt(m: Pdfium, page: number, size: { width: number; height: number }, width: number, widest: number) {
  // Very tall pages are limited to MAX_PAGE_ASPECT times the widest width, as the browser renderer did.
  const scale = Math.min(widest / size.width, (widest * MAX_PAGE_ASPECT) / size.height) * (width / widest);
  const w = Math.max(1, Math.round(size.width * scale));
  const h = Math.max(1, Math.round(size.height * scale));
  const png = new PngBuilder(w, h);
  const band = Math.max(1, Math.floor(BAND_BYTES / (w * 3)));
  for (let top = 0; top < h; top += band) {
    const rows = Math.min(band, h - top);
    const bitmap = m._FPDFBitmap_CreateEx(w, rows, FPDFBITMAP_BGR, 0, 0);
    if (!bitmap) throw new Error(`PDFium could not allocate a ${w} x ${rows} band of the page`);
    try {
      m._FPDFBitmap_FillRect(bitmap, 0, 0, w, rows, 0xffffffff);
      // The whole page's size, drawn from `top` up: PDFium draws only what falls in the band.
      m._FPDF_RenderPageBitmap(bitmap, page, 0, -top, w, h, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
      const stride = m._FPDFBitmap_GetStride(bitmap);
      const at = m._FPDFBitmap_GetBuffer(bitmap);
      // A view of the wasm heap, read before the bitmap is destroyed (nothing calls PDFium in between).
      png.addRows(m.HEAPU8.subarray(at, at + stride * rows), stride, rows);
    } finally {
      m._FPDFBitmap_Destroy(bitmap);
    }
  }
  return { png: png.finish(), blank: png.blank };
}

export function renderPage(m: Pdfium, page: number): RenderedPage {
  const size = pageSize(m, page);
  if (!(size.width > 0 && size.height > 0)) throw new Error("This page has no size");
  const widest = Math.max(...PAGE_WIDTHS);
  const images = new Map<number, Uint8Array>();
  let blank = false;
  for (const width of PAGE_WIDTHS) {
    const rendered = renderAt(m, page, size, width, widest);
    images.set(width, rendered.png);
    if (width === PAGE_WIDTHS[0]) blank = rendered.blank;
  }
  const text = pageText(m, page, size);
  return { images, text, blank: blank && text.runs.length === 0 };
}

interface Run {
  codes: number[];
  left: number;
  right: number;
  bottom: number;
  top: number;
  /** The first character's baseline and font size, in page space. */
  originX: number;
  originY: number;
  size: number;
}

/**
 * The page's text as runs: characters in PDFium's order, a new run where the line changes or a gap
 * opens (as pdf.js's items are pieces of lines). Positions go through FPDF_PageToDevice, so a
 * rotated page's text lies where the rotated page shows it.
 */
export function pageText(m: Pdfium, page: number, size: { width: number; height: number }): PageText {
  const textPage = m._FPDFText_LoadPage(page);
  const runs: TextRun[] = [];
  if (!textPage) return { width: round(size.width), height: round(size.height), runs };
  const scratch = m._malloc(48);
  const toDevice = (x: number, y: number): [number, number] => {
    m._FPDF_PageToDevice(page, 0, 0, Math.round(size.width * 16), Math.round(size.height * 16), 0, x, y, scratch + 32, scratch + 36);
    const [dx, dy] = new Int32Array(m.HEAPU8.buffer, scratch + 32, 2);
    return [dx! / 16, dy! / 16];
  };
  let run: Run | null = null;
  const flush = () => {
    const current = run;
    run = null;
    if (!current || runs.length >= TEXT_LIMITS.runsPerPage) return;
    const str = cleanExtractedText(String.fromCodePoint(...current.codes))
      .trim()
      .slice(0, TEXT_LIMITS.runLength);
    if (!str) return;
    // As pdf.js places a run: from its first character's origin on the baseline, `h` the font size above it.
    const [x1, y1] = toDevice(Math.min(current.left, current.originX), current.top);
    const [x2, y2] = toDevice(current.right, current.bottom);
    const [, baseline] = toDevice(current.originX, current.originY);
    const x = Math.min(x1, x2);
    const h = current.size > 0 ? current.size : Math.abs(y2 - y1);
    const candidate = { str, x: round(x), y: round(baseline - h), w: round(Math.abs(x2 - x1)), h: round(h) };
    if ([candidate.x, candidate.y, candidate.w, candidate.h].every((v) => Number.isFinite(v) && Math.abs(v) <= MAX_TEXT_COORDINATE))
      runs.push(candidate);
  };
  try {
    const count = m._FPDFText_CountChars(textPage);
    const box = new Float64Array(m.HEAPU8.buffer, scratch, 4);
    for (let i = 0; i < count; i++) {
      const code = m._FPDFText_GetUnicode(textPage, i);
      // Line ends PDFium generates (CR, LF) and its soft-hyphen marker (2) end a run.
      if (code === 10 || code === 13 || code === 2) {
        flush();
        continue;
      }
      if (!m._FPDFText_GetCharBox(textPage, i, scratch, scratch + 8, scratch + 16, scratch + 24)) continue;
      const heap = m.HEAPU8.buffer === box.buffer ? box : new Float64Array(m.HEAPU8.buffer, scratch, 4);
      const [left, right, bottom, top] = [heap[0]!, heap[1]!, heap[2]!, heap[3]!];
      if (code === 32 && right - left <= 0) {
        run?.codes.push(32);
        continue;
      }
      const height = top - bottom;
      if (
        run &&
        (Math.abs(bottom - run.bottom) > Math.max(height, run.top - run.bottom) * 0.5 ||
          left < run.left - 1 ||
          left - run.right > Math.max(height, 4) * 2)
      )
        flush();
      if (!run) {
        m._FPDFText_GetCharOrigin(textPage, i, scratch, scratch + 8);
        const origin = new Float64Array(m.HEAPU8.buffer, scratch, 2);
        run = {
          codes: [],
          left,
          right,
          bottom,
          top,
          originX: origin[0]!,
          originY: origin[1]!,
          size: m._FPDFText_GetFontSize(textPage, i),
        };
      }
      run.codes.push(code);
      run.left = Math.min(run.left, left);
      run.right = Math.max(run.right, right);
      run.bottom = Math.min(run.bottom, bottom);
      run.top = Math.max(run.top, top);
    }
    flush();
  } finally {
    m._free(scratch);
    m._FPDFText_ClosePage(textPage);
  }
  return { width: round(size.width), height: round(size.height), runs };
}

const MAX_OUTLINE_ITEMS = 2_000;
const MAX_OUTLINE_DEPTH = 6;

/** The PDF's outline (bookmarks) with each entry's page number, null where it points nowhere. */
export function extractOutline(m: Pdfium, doc: number, pageCount: number): OutlineItem[] {
  let budget = MAX_OUTLINE_ITEMS;
  const seen = new Set<number>();
  const titleBuffer = m._malloc(1024);
  const title = (bookmark: number) => {
    const bytes = Math.min(1024, m._FPDFBookmark_GetTitle(bookmark, titleBuffer, 1024));
    const text = new TextDecoder("utf-16le").decode(m.HEAPU8.slice(titleBuffer, titleBuffer + Math.max(0, bytes - 2)));
    return cleanExtractedText(text).trim().slice(0, 500) || "Untitled";
  };
  const page = (bookmark: number) => {
    let dest = m._FPDFBookmark_GetDest(doc, bookmark);
    if (!dest) {
      const action = m._FPDFBookmark_GetAction(bookmark);
      dest = action ? m._FPDFAction_GetDest(doc, action) : 0;
    }
    const index = dest ? m._FPDFDest_GetDestPageIndex(doc, dest) : -1;
    return index >= 0 && index < pageCount ? index + 1 : null;
  };
  const walk = (parent: number, depth: number): OutlineItem[] => {
    const items: OutlineItem[] = [];
    // A looping outline (a sibling pointing back) is cut where it repeats.
    for (let bookmark = m._FPDFBookmark_GetFirstChild(doc, parent); bookmark && budget > 0; ) {
      if (seen.has(bookmark)) break;
      seen.add(bookmark);
      budget--;
      items.push({
        title: title(bookmark),
        page: page(bookmark),
        items: depth < MAX_OUTLINE_DEPTH ? walk(bookmark, depth + 1) : [],
      });
      bookmark = m._FPDFBookmark_GetNextSibling(doc, bookmark);
    }
    return items;
  };
  try {
    return walk(0, 1);
  } finally {
    m._free(titleBuffer);
  }
}

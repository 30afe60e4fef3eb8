/**
 * Turns an opened PDF into what teachers read: each page as images at PAGE_WIDTHS and its text
 * with positions, then every page's plain text and the outline. The same code runs in the admin's
 * browser (app/lib/pages/browser-pages.client.ts) and under Node for `npm run pages` and the seed
 * (scripts/lib/node-pages.ts); they differ only in the canvas they lend (`RenderKit`) and where the
 * results go (`PageSink`). Pages already stored (`done`) are skipped: a job that stopped resumes.
 */
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";
import type { OutlineItem, PageText, TextRun } from "../../../workers/page-images/page-content.ts";
import { cleanExtractedText, MAX_TEXT_COORDINATE, TEXT_LIMITS } from "../rules/extracted-text.ts";
import { MAX_PAGE_ASPECT, PAGE_WIDTHS, STORED_PAGE_QUALITY, STORED_PAGE_TYPE } from "../rules/page-format.ts";

export interface RenderKit<Canvas> {
  createCanvas(width: number, height: number): Canvas;
  /** The canvas's 2D context, for drawImage when scaling down. */
  context(canvas: Canvas): CanvasRenderingContext2D;
  encode(canvas: Canvas, type: string, quality: number | undefined): Promise<Uint8Array | Blob>;
}

export interface PageSink {
  putPage(n: number, images: Map<number, Uint8Array | Blob>, text: PageText): Promise<void>;
  failPage(n: number, failure: { width: number; height: number; error: string }): Promise<void>;
  complete(input: { outline: OutlineItem[]; text: string[] }): Promise<void>;
}

export interface PrepareProgress {
  done: number;
  failed: { n: number; error: string }[];
  total: number;
}

/** The text runs of a page, positioned in PDF points from the page's top-left corner. */
export async function pageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: TextRun[] = [];
  for (const item of content.items) {
    // More runs than the server takes (a fuzzed page can hold any number): the page keeps the first.
    if (runs.length === TEXT_LIMITS.runsPerPage) break;
    // A damaged PDF's text holds NUL, ESC, ...: cleaned here (and on arrival), never a reason to refuse the book.
    if (!("str" in item)) continue;
    const str = cleanExtractedText(item.str);
    if (!str.trim()) continue;
    const [a, b, c, d, e, f] = item.transform as number[];
    const [x, baseline] = viewport.convertToViewportPoint(e!, f!) as [number, number];
    const height = Math.hypot(c!, d!) || Math.hypot(a!, b!);
    const run = {
      str: str.slice(0, TEXT_LIMITS.runLength),
      x: round(x),
      y: round(baseline - height),
      w: round(Math.max(0, item.width)),
      h: round(height),
    };
    // A damaged PDF's matrix can place a run at NaN or far off the page: it cannot be laid over the page, so it is left out.
    if ([run.x, run.y, run.w, run.h].every((value) => Number.isFinite(value) && Math.abs(value) <= MAX_TEXT_COORDINATE)) runs.push(run);
  }
  return { width: round(viewport.width), height: round(viewport.height), runs };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A page's plain text in reading order as pdf.js gives it: what search inside the book reads. */
export function plainText(text: PageText): string {
  let out = "";
  let lastY: number | null = null;
  for (const run of text.runs) {
    if (lastY !== null) out += Math.abs(run.y - lastY) > run.h / 2 ? "\n" : " ";
    out += run.str;
    lastY = run.y;
  }
  return out
    .replace(/[ \t]+/g, " ")
    .trim()
    .slice(0, TEXT_LIMITS.plainTextPerPage);
}

/**
 * Renders page `n` once at the widest width (so text is supersampled) and scales it down for the
 * others. Very tall pages are limited to MAX_PAGE_ASPECT times the width.
 */
export async function renderPage<Canvas>(
  page: PDFPageProxy,
  kit: RenderKit<Canvas>,
): Promise<{ images: Map<number, Uint8Array | Blob>; blank: boolean }> {
  const base = page.getViewport({ scale: 1 });
  const widest = Math.max(...PAGE_WIDTHS);
  const scale = Math.min(widest / base.width, (widest * MAX_PAGE_ASPECT) / base.height);
  const viewport = page.getViewport({ scale });
  const full = kit.createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  const context = kit.context(full);
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, viewport.width, viewport.height);
  await page.render({ canvas: full as unknown as HTMLCanvasElement, canvasContext: context, viewport, background: "#ffffff" }).promise;
  const images = new Map<number, Uint8Array | Blob>();
  let blank = false;
  for (const width of PAGE_WIDTHS) {
    const ratio = width / widest;
    if (ratio === 1) {
      images.set(width, await kit.encode(full, STORED_PAGE_TYPE, STORED_PAGE_QUALITY));
      continue;
    }
    const small = kit.createCanvas(Math.max(1, Math.round(viewport.width * ratio)), Math.max(1, Math.round(viewport.height * ratio)));
    const smallContext = kit.context(small);
    smallContext.imageSmoothingEnabled = true;
    smallContext.imageSmoothingQuality = "high";
    smallContext.drawImage(
      full as unknown as CanvasImageSource,
      0,
      0,
      Math.round(viewport.width * ratio),
      Math.round(viewport.height * ratio),
    );
    if (width === PAGE_WIDTHS[0]) blank = isBlank(smallContext, Math.round(viewport.width * ratio), Math.round(viewport.height * ratio));
    images.set(width, await kit.encode(small, STORED_PAGE_TYPE, STORED_PAGE_QUALITY));
  }
  return { images, blank };
}

/** Whether nothing at all was drawn: every pixel still (almost) the white we filled with. */
function isBlank(context: CanvasRenderingContext2D, width: number, height: number): boolean {
  const { data } = context.getImageData(0, 0, width, height);
  for (let i = 0; i < data.length; i += 4) {
    if ((data[i] as number) < 250 || (data[i + 1] as number) < 250 || (data[i + 2] as number) < 250) return false;
  }
  return true;
}

export const BLANK_DOCUMENT_ERROR = "Every page of this PDF is blank: the file is probably damaged.";

/** The PDF's outline with each entry's page number (null when its destination cannot be resolved). */
export async function extractOutline(doc: PDFDocumentProxy): Promise<OutlineItem[]> {
  const outline = await doc.getOutline().catch(() => null);
  if (!outline?.length) return [];
  let budget = 2_000;
  const walk = async (items: typeof outline, depth: number): Promise<OutlineItem[]> => {
    const out: OutlineItem[] = [];
    for (const item of items) {
      if (budget-- <= 0) break;
      out.push({
        title:
          cleanExtractedText(String(item.title ?? ""))
            .trim()
            .slice(0, 500) || "Untitled",
        page: await destinationPage(doc, item.dest),
        items: depth < 6 && item.items?.length ? await walk(item.items, depth + 1) : [],
      });
    }
    return out;
  };
  return walk(outline, 1);
}

async function destinationPage(doc: PDFDocumentProxy, dest: unknown): Promise<number | null> {
  try {
    const explicit = typeof dest === "string" ? await doc.getDestination(dest) : (dest as unknown[] | null);
    const ref = explicit?.[0];
    if (ref === undefined || ref === null) return null;
    const index = typeof ref === "number" ? ref : await doc.getPageIndex(ref as Parameters<PDFDocumentProxy["getPageIndex"]>[0]);
    return index + 1;
  } catch {
    return null;
  }
}

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (cleanExtractedText(message).trim() || "pdf.js could not render this page").slice(0, 300);
}

/**
 * Prepares every page not in `done`, in order, then completes the set with every page's text
 * (pages done earlier are read again for their text only, which is quick) and the outline.
 * `unreadable` pages (entries of a damaged page tree, from ./open-document.ts) are reported as
 * failed with their reason, without asking pdf.js for them.
 */
export async function preparePages<Canvas>(options: {
  doc: PDFDocumentProxy;
  done: Set<number>;
  unreadable?: Map<number, string>;
  kit: RenderKit<Canvas>;
  sink: PageSink;
  onProgress?: (progress: PrepareProgress) => void;
  signal?: AbortSignal;
}): Promise<PrepareProgress> {
  const { doc, done, unreadable, kit, sink, onProgress, signal } = options;
  const progress: PrepareProgress = { done: done.size, failed: [], total: doc.numPages };
  const texts: string[] = [];
  const sizes = new Map<number, { width: number; height: number }>();
  let blankPages = 0;
  onProgress?.({ ...progress });
  for (let n = 1; n <= doc.numPages; n++) {
    signal?.throwIfAborted();
    let page: PDFPageProxy | null = null;
    let size = { width: 612, height: 792 };
    try {
      const reason = unreadable?.get(n);
      if (reason !== undefined) throw new Error(reason);
      page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      size = { width: round(base.width), height: round(base.height) };
      const text = await pageText(page).catch(() => ({ ...size, runs: [] }));
      texts.push(plainText(text));
      if (done.has(n)) continue;
      const { images, blank } = await renderPage(page, kit);
      signal?.throwIfAborted();
      await sink.putPage(n, images, text);
      sizes.set(n, size);
      if (blank && !text.runs.length) blankPages++;
      progress.done++;
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof SinkError) throw error;
      if (texts.length < n) texts.push("");
      if (done.has(n)) continue;
      const failure = { ...size, error: describeFailure(error) };
      await sink.failPage(n, failure);
      progress.failed.push({ n, error: failure.error });
    } finally {
      page?.cleanup();
    }
    onProgress?.({ ...progress, failed: [...progress.failed] });
  }
  // A damaged file often "renders" as nothing but white: when every page is blank, report them all
  // as failed, so the set is refused instead of giving teachers empty pages (and a white cover).
  if (!done.size && blankPages > 0 && blankPages === doc.numPages) {
    for (const [n, size] of sizes) await sink.failPage(n, { ...size, error: BLANK_DOCUMENT_ERROR });
    progress.failed = [...sizes.keys()].map((n) => ({ n, error: BLANK_DOCUMENT_ERROR }));
    progress.done = 0;
  }
  await sink.complete({ outline: await extractOutline(doc), text: texts });
  return progress;
}

/** A failure to store results (network, server): stops the job rather than marking pages failed. */
export class SinkError extends Error {
  readonly status: number;
  constructor(message: string, status = 0) {
    super(message);
    this.status = status;
  }
}

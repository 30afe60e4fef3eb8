// The reader bench's books: the generated 100 MB, 500-page book and every PDF in ../shared/pdfs,
// stored in a local state and assigned to one school, with their pages prepared as `npm run pages`
// prepares them (scripts/lib/node-pages.ts), and what that cost: render time and R2 bytes per page.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import { ROOT } from "../../scripts/lib/env.ts";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { prepareMissingPages } from "../../scripts/lib/node-pages.ts";
import { localPageStore } from "../../scripts/lib/page-stores.ts";
import { generateHeavyPdf } from "./big-pdf.ts";

export const HEAVY = { pages: 500, targetBytes: 100 * 1024 * 1024 };
export const SHARED_PDFS = join(ROOT, "../shared/pdfs");
// Render times survive here: a book rendered once is stored from the page cache on later runs.
const RENDER_LOG = join(ROOT, ".wrangler/bench-reader-renders.json");

export interface BenchBook {
  id: number;
  title: string;
  size: number;
  heavy: boolean;
  pageCount: number | null;
  pages: PagesReport;
}

export interface PagesReport {
  /** The preparation's error, or pages that failed, when the book's pages are not all there. */
  error: string | null;
  failed: number;
  /** Seconds per page while rendering (one render thread; two run side by side), null if never seen. */
  renderSecondsPerPage: number | null;
  /** When those seconds were measured: this run, or the run that filled the page cache. */
  renderedAt: string | null;
  fromCache: boolean;
  /** Mean bytes in R2 per page image, by width. */
  r2BytesPerPage: Record<number, number>;
  prepareSeconds: number;
}

type RenderLog = Record<string, { pages: number; secondsPerPage: number; date: string }>;

async function countPages(bytes: Uint8Array): Promise<number | null> {
  try {
    return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true })).getPageCount();
  } catch {
    return null;
  }
}

/** Mean R2 bytes of a book's page images at each width, from the bucket's own listing. */
async function pageImageBytes(bucket: R2Bucket, bookId: number): Promise<Record<number, number>> {
  const totals = new Map<number, { bytes: number; count: number }>();
  let cursor: string | undefined;
  do {
    const listing = await bucket.list({ prefix: `pages/${bookId}/`, cursor, limit: 1000 });
    for (const object of listing.objects) {
      const width = Number(/\/\d+-(\d+)\.\w+$/.exec(object.key)?.[1]);
      if (!width) continue;
      const total = totals.get(width) ?? { bytes: 0, count: 0 };
      totals.set(width, { bytes: total.bytes + object.size, count: total.count + 1 });
    }
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return Object.fromEntries(PAGE_WIDTHS.map((w) => [w, Math.round((totals.get(w)?.bytes ?? 0) / (totals.get(w)?.count || 1))]));
}

/**
 * Stores the heavy book and the shared PDFs as books of `slug`, then prepares their pages on the
 * Node renderer (both render threads), timing each book.
 */
export async function addReaderBooks(persistTo: string, slug: string, log: (line: string) => void): Promise<BenchBook[]> {
  const sources: { title: string; key: string; bytes: Uint8Array; heavy: boolean }[] = [];
  const started = performance.now();
  const heavy = await generateHeavyPdf(HEAVY);
  log(
    `generated the ${HEAVY.pages}-page book (${(heavy.byteLength / 2 ** 20).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
  sources.push({ title: `Heavy book (${HEAVY.pages} pages)`, key: "bench/heavy.pdf", bytes: heavy, heavy: true });
  const files = existsSync(SHARED_PDFS) ? readdirSync(SHARED_PDFS).filter((f) => f.toLowerCase().endsWith(".pdf")) : [];
  if (!files.length) log(`no PDFs in ${SHARED_PDFS}: measuring the heavy book only`);
  for (const file of files.sort())
    sources.push({ title: file, key: `bench/shared/${file}`, bytes: new Uint8Array(readFileSync(join(SHARED_PDFS, file))), heavy: false });

  return withLocalState(persistTo, async ({ DB, BOOKS }) => {
    const school = await DB.prepare("SELECT id FROM schools WHERE slug = ?").bind(slug).first<{ id: number }>();
    if (!school) throw new Error(`the seed has no school ${slug}`);
    const books: (BenchBook & { hash: string })[] = [];
    for (const source of sources) {
      await BOOKS.put(source.key, source.bytes, { httpMetadata: { contentType: "application/pdf" } });
      const pageCount = await countPages(source.bytes);
      const row = await DB.prepare(
        "INSERT INTO books (title, author1, cover_key, pdf_key, pdf_size, page_count) VALUES (?, 'Lectern bench', NULL, ?, ?, ?) RETURNING id",
      )
        .bind(source.title, source.key, source.bytes.byteLength, pageCount)
        .first<{ id: number }>();
      await DB.prepare("INSERT INTO book_access (school_id, book_id) VALUES (?, ?)").bind(school.id, row!.id).run();
      const hash = createHash("sha256").update(source.bytes).digest("hex").slice(0, 32);
      books.push({ id: row!.id, title: source.title, size: source.bytes.byteLength, heavy: source.heavy, pageCount, hash, pages: null! });
    }

    log(`preparing the pages of ${books.length} book(s) (rendered once, then from .wrangler/page-cache)`);
    const reports = await prepareMissingPages(localPageStore({ DB, BOOKS }), { log });
    const renders: RenderLog = existsSync(RENDER_LOG) ? JSON.parse(readFileSync(RENDER_LOG, "utf8")) : {};
    for (const book of books) {
      const report = reports.find((r) => r.bookId === book.id);
      const rendered = report && report.rendered > 0 && !report.error;
      if (rendered)
        renders[book.hash] = { pages: report.rendered, secondsPerPage: report.seconds / report.rendered, date: new Date().toISOString() };
      const known = renders[book.hash];
      book.pages = {
        error: report?.error ?? null,
        failed: report?.failed.length ?? 0,
        renderSecondsPerPage: known ? +known.secondsPerPage.toFixed(3) : null,
        renderedAt: rendered ? "this run" : (known?.date ?? null),
        fromCache: !rendered,
        r2BytesPerPage: await pageImageBytes(BOOKS, book.id),
        prepareSeconds: report?.seconds ?? 0,
      };
    }
    writeFileSync(RENDER_LOG, `${JSON.stringify(renders, null, 2)}\n`);
    return books.map(({ hash: _, ...book }) => book);
  });
}

// Page preparation under Node (npm run pages, the seed): PDFium with the platform renderer's page code
// (workers/renderer/render-page.ts) on worker threads (render-worker.ts), writing to a PageStore (page-stores.ts): the local state directly,
// or the running app through the admin page-set API.
// Rendered pages are also kept in a local cache keyed by the PDF's hash, so a fresh local state
// (the e2e suite seeds one every run) does not render the same demo books again.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { PAGE_WIDTHS, STORED_PAGE_EXTENSION } from "#shared/rules/page-format.ts";
import type { CompletePageSet, PageText } from "../../workers/page-images/page-content.ts";
import { ROOT } from "./env.ts";
import type { BookRef, Outcome, PageStore } from "./page-stores.ts";
import type { FromWorker, ToWorker } from "./render-worker.ts";

const CACHE = join(ROOT, ".wrangler/page-cache");
// Bump when the rendering changes, so cached pages are rendered again.
const CACHE_VERSION = "4";

export interface PrepareReport {
  bookId: number;
  title: string;
  pages: number;
  rendered: number;
  failed: { n: number; error: string }[];
  seconds: number;
  error?: string;
}

/** Cached books of an earlier rendering (another CACHE_VERSION) are never read again. */
function dropStaleCache() {
  if (!existsSync(CACHE)) return;
  for (const name of readdirSync(CACHE))
    if (!name.endsWith(`-v${CACHE_VERSION}`)) rmSync(join(CACHE, name), { recursive: true, force: true });
}

function cacheDir(hash: string) {
  return join(CACHE, `${hash}-v${CACHE_VERSION}`);
}

/** One render thread: a book at a time, results answered one message at a time. */
class RenderThread {
  readonly worker = new Worker(new URL("./render-worker.ts", import.meta.url));
  private listener: ((message: FromWorker) => void) | null = null;

  constructor() {
    this.worker.on("message", (message: FromWorker) => this.listener?.(message));
    this.worker.on("error", (error) => this.listener?.({ type: "error", message: error.message }));
  }

  /** Sends `message` and hands every answer to `onMessage` until it returns a value. */
  exchange<T>(message: ToWorker, onMessage: (message: FromWorker) => Promise<T | undefined> | T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      this.listener = (answer) => {
        Promise.resolve(answer)
          .then(onMessage)
          .then((value) => {
            if (value !== undefined) {
              this.listener = null;
              resolve(value);
            }
          }, reject);
      };
      this.worker.postMessage(message);
    });
  }

  ack(seq: number, error?: { error: string; status?: number }) {
    this.worker.postMessage({ type: "ack", seq, ...(error ? { error: error.error, status: error.status } : {}) } satisfies ToWorker);
  }

  async close() {
    this.worker.postMessage({ type: "close" } satisfies ToWorker);
    await this.worker.terminate();
  }
}

/** Prepares one book's pages: resumes its preparing set, or renders its own PDF into a new one. */
export async function prepareBook(
  store: PageStore,
  book: BookRef,
  thread: RenderThread,
  log: (line: string) => void = () => {},
): Promise<PrepareReport> {
  const started = Date.now();
  const report: PrepareReport = { bookId: book.id, title: book.title, pages: 0, rendered: 0, failed: [], seconds: 0 };
  const finish = () => ({ ...report, seconds: (Date.now() - started) / 1000 });
  try {
    const data = await store.readPdf(book);
    const hash = createHash("sha256").update(data).digest("hex").slice(0, 32);
    const opened = await thread.exchange({ type: "open", data }, (message) => {
      if (message.type === "error") throw new Error(message.message);
      return message.type === "opened" ? message.pageCount : undefined;
    });
    report.pages = opened;
    const set = await store.openSet(book, opened);
    if (!set.ok) return { ...finish(), error: set.error };
    const done = new Set(set.done);
    const dir = cacheDir(hash);
    // A book rendered before (same PDF bytes) is stored from the local cache without rendering.
    const cached = readCachedBook(dir, opened);
    if (cached) {
      for (const [n, page] of cached.pages) {
        if (done.has(n)) continue;
        const stored = await store.putPage(book, set.setId, n, page);
        if (!stored.ok) return { ...finish(), error: stored.error };
      }
      const completed = await store.complete(book, set.setId, cached.complete);
      if (!completed.ok) return { ...finish(), error: completed.error };
      return finish();
    }
    const failed = await thread.exchange({ type: "render", done: [...done] }, async (message) => {
      if (message.type === "error") throw new Error(message.message);
      if (message.type === "finished") return message.failed;
      let result: Outcome = { ok: true };
      if (message.type === "put") {
        const images = new Map(message.images);
        writeCached(dir, message.n, images, message.text);
        result = await store.putPage(book, set.setId, message.n, { images, text: message.text });
        if (result.ok && ++report.rendered % 50 === 0) log(`  book ${book.id}: ${report.rendered} pages rendered`);
      } else if (message.type === "fail") {
        result = await store.failPage(book, set.setId, message.n, message.failure);
      } else if (message.type === "complete") {
        const completed = await store.complete(book, set.setId, message.input);
        // Only a book that rendered whole, with no failed page, is cached as a whole.
        if (completed.ok && !completed.failed.length) writeFileSync(join(dir, "complete.json"), JSON.stringify(message.input));
        result = completed.ok ? { ok: true } : completed;
      }
      if ("seq" in message) thread.ack(message.seq, result.ok ? undefined : result);
      return undefined;
    });
    report.failed = failed;
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  }
  return finish();
}

type CachedPage = { images: Map<number, Uint8Array>; text: PageText };

/** Every page of a book rendered before, and what completed it; null unless all of it is cached. */
function readCachedBook(dir: string, pageCount: number): { pages: Map<number, CachedPage>; complete: CompletePageSet } | null {
  const completeFile = join(dir, "complete.json");
  if (!existsSync(completeFile)) return null;
  const pages = new Map<number, CachedPage>();
  for (let n = 1; n <= pageCount; n++) {
    const textFile = join(dir, `${n}.json`);
    if (!existsSync(textFile)) return null;
    const images = new Map<number, Uint8Array>();
    for (const width of PAGE_WIDTHS) {
      const file = join(dir, `${n}-${width}.${STORED_PAGE_EXTENSION}`);
      if (!existsSync(file)) return null;
      images.set(width, new Uint8Array(readFileSync(file)));
    }
    pages.set(n, { images, text: JSON.parse(readFileSync(textFile, "utf8")) as PageText });
  }
  return { pages, complete: JSON.parse(readFileSync(completeFile, "utf8")) as CompletePageSet };
}

function writeCached(dir: string, n: number, images: Map<number, Uint8Array>, text: PageText) {
  mkdirSync(dir, { recursive: true });
  for (const [width, bytes] of images) writeFileSync(join(dir, `${n}-${width}.${STORED_PAGE_EXTENSION}`), bytes);
  // The text goes last: its presence marks a complete cache entry.
  writeFileSync(join(dir, `${n}.json`), JSON.stringify(text));
}

/** Prepares every book whose pages are missing (or the one given), on up to two render threads. */
export async function prepareMissingPages(
  store: PageStore,
  options: { bookId?: number; log?: (line: string) => void } = {},
): Promise<PrepareReport[]> {
  const log = options.log ?? (() => {});
  const queue = await store.booksNeedingPages(options.bookId);
  if (!queue.length) return [];
  dropStaleCache();
  const reports: PrepareReport[] = [];
  const threads = Array.from(
    { length: Math.min(queue.length, Math.max(1, Math.min(2, availableParallelism()))) },
    () => new RenderThread(),
  );
  try {
    await Promise.all(
      threads.map(async (thread) => {
        for (let book = queue.shift(); book; book = queue.shift()) {
          const report = await prepareBook(store, book, thread, log);
          reports.push(report);
          const failed = report.failed.length ? `, ${report.failed.length} failed (${report.failed.map((f) => f.n).join(", ")})` : "";
          log(
            report.error
              ? `  book ${book.id} "${book.title}": not prepared: ${report.error}`
              : `  book ${book.id} "${book.title}": ${report.pages} pages (${report.rendered} rendered${failed}) in ${report.seconds.toFixed(1)} s`,
          );
        }
      }),
    );
  } finally {
    await Promise.all(threads.map((thread) => thread.close()));
  }
  return reports.sort((a, b) => a.bookId - b.bookId);
}

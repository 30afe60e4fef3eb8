/**
 * The renderer's side of the page jobs (workers/page-images/preparation.ts): a delivery claims its
 * row, does the job, and marks it done. Every write is idempotent, so a job done twice (a message
 * sent again after a restart) stores nothing twice: a page is its R2 keys and its row per set and
 * number, as the browser renderer stored them before.
 *
 * A page that throws is marked failed with its reason and the range goes on. A page that takes the
 * renderer down (a trap, the isolate's CPU or memory limit) leaves its row claimed: the job is sent
 * again when its lease runs out, and from the second delivery on the page being rendered is written
 * down first, so the third delivery gives that page up and goes on. A range is given up whole after
 * MAX_TRIES deliveries.
 */
import { and, eq, sql } from "drizzle-orm";
import { chunks } from "#shared/chunks.ts";
import type { Db } from "../db/client.ts";
import { books, type PageSet, pageJobs, pageSetPages, pageSets } from "../db/schema.ts";
import { storePage, storePageFailure } from "../page-images/page-sets.ts";
import { FINISH, LEASE_MS, type PageJobMessage, pageRanges, sendJobs } from "../page-images/preparation.ts";
import { finishSet, refuseSet } from "./finish.ts";
import { type Found, type RendererEnv, setAndBook } from "./job-context.ts";
import {
  DAMAGED_MESSAGE,
  openableWhole,
  openPdf,
  type RangeDocument,
  UNREADABLE_PAGE_MESSAGE,
  UnopenablePdf,
  UnreadablePage,
} from "./pdf-ranges.ts";
import { discardEngine, type Engine, isEngineFault, pdfiumEngine } from "./pdfium.ts";
import { pageSize, type RenderedPage, renderPage } from "./render-page.ts";

/** Deliveries of a range before its remaining pages are given up. */
export const MAX_TRIES = 5;
/** From this delivery on, the page that was being rendered when the last one died is given up. */
const GIVE_UP_PAGE_AT = 3;

/** One job at a time per isolate: the engine holds one document, and its range reader one callback target. */
let running: Promise<unknown> = Promise.resolve();
export function exclusive<T>(job: () => Promise<T>): Promise<T> {
  const next = running.then(job, job);
  running = next.catch(() => undefined);
  return next;
}

export async function runJob(env: RendererEnv, message: PageJobMessage, now = Date.now()): Promise<void> {
  if (message.first === FINISH) return finishSet(env, message.setId);
  const claimed = await claim(env.db, message, now);
  if (!claimed) return;
  const found = await setAndBook(env.db, message.setId);
  if (found?.set.status !== "preparing") return;
  if (message.first === 0) return planSet(env, found);
  return prepareRange(env, found, claimed);
}

interface Claimed {
  first: number;
  last: number;
  tries: number;
  at: number | null;
}

/** Takes the job for this delivery, unless it is done, gone, or held by a delivery still within its lease. */
async function claim(db: Db, message: PageJobMessage, now: number): Promise<Claimed | null> {
  const [row] = await db
    .update(pageJobs)
    .set({ tries: sql`${pageJobs.tries} + 1`, leasedUntil: now + LEASE_MS })
    .where(
      and(
        eq(pageJobs.setId, message.setId),
        eq(pageJobs.first, message.first),
        eq(pageJobs.state, "queued"),
        sql`(${pageJobs.leasedUntil} IS NULL OR ${pageJobs.leasedUntil} < ${now})`,
      ),
    )
    .returning({ first: pageJobs.first, last: pageJobs.last, tries: pageJobs.tries, at: pageJobs.at });
  return row ?? null;
}

async function markDone(db: Db, setId: string, first: number, blankPages = 0): Promise<void> {
  await db
    .update(pageJobs)
    .set({ state: "done", leasedUntil: null, at: null, blankPages })
    .where(and(eq(pageJobs.setId, setId), eq(pageJobs.first, first)));
}

/** Opens the PDF, counts its pages, and writes and sends one job per range; a PDF that cannot be opened is refused. */
async function planSet(env: RendererEnv, { set, book }: Found): Promise<void> {
  let pageCount: number;
  try {
    const engine = await pdfiumEngine();
    const document = await openPdf(engine, env.bucket, set.pdfKey);
    pageCount = document.pageCount;
    document.close();
  } catch (error) {
    if (isEngineFault(error)) discardEngine();
    if (!(error instanceof UnopenablePdf) && !isEngineFault(error)) throw error;
    return refuseSet(env, set, book, error instanceof UnopenablePdf ? error.message : DAMAGED_MESSAGE);
  }
  if (pageCount < 1) return refuseSet(env, set, book, DAMAGED_MESSAGE);
  const ranges = pageRanges(pageCount);
  const now = Date.now();
  const rows = ranges.map((range) => ({ setId: set.id, ...range, sentAt: now }));
  const statements = [
    env.db
      .update(pageSets)
      .set({ pageCount })
      .where(and(eq(pageSets.id, set.id), eq(pageSets.status, "preparing"))),
    // 7 bound values a row (drizzle binds state, tries and blank_pages' defaults too): D1 takes at most 100 a statement.
    ...chunks(rows, 14).map((part) => env.db.insert(pageJobs).values(part).onConflictDoNothing()),
    env.db
      .update(pageJobs)
      .set({ state: "done", leasedUntil: null })
      .where(and(eq(pageJobs.setId, set.id), eq(pageJobs.first, 0))),
  ];
  for (const part of chunks(statements, 100)) await env.db.batch(part as [(typeof part)[number], ...typeof part]);
  await sendJobs(
    env.queue,
    ranges.map((range) => ({ setId: set.id, first: range.first })),
  );
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.replace(/\s+/g, " ").trim() || "PDFium could not render this page").slice(0, 300);
}

async function prepareRange(env: RendererEnv, { set, book }: Found, job: Claimed): Promise<void> {
  const { db, bucket } = env;
  const pageCount = set.pageCount ?? 0;
  const last = Math.min(job.last, pageCount);
  const existing = await db
    .select({ n: pageSetPages.n })
    .from(pageSetPages)
    .where(and(eq(pageSetPages.setId, set.id), sql`${pageSetPages.n} BETWEEN ${job.first} AND ${last}`));
  const done = new Set(existing.map((row) => row.n));
  const fail = async (n: number, error: string, size = { width: 612, height: 792 }) => {
    const stored = await storePageFailure(db, set, n, { ...size, error });
    if (!stored.ok) throw new SetGone();
    done.add(n);
  };
  try {
    if (job.tries >= GIVE_UP_PAGE_AT && job.at !== null && !done.has(job.at)) {
      await fail(job.at, `This page stopped the renderer ${job.tries - 1} times.`);
    }
    if (job.tries > MAX_TRIES) {
      for (let n = job.first; n <= last; n++) if (!done.has(n)) await fail(n, `The renderer failed on these pages ${MAX_TRIES} times.`);
    }
    let blank = 0;
    let engine: Engine | null = null;
    let document: RangeDocument | null = null;
    let mode: "ranges" | "whole" = "ranges";
    // A book's first PDF is named on the book once a page is stored: teachers read while the rest is prepared.
    let exposed = book.pageSetId !== null;
    try {
      for (let n = job.first; n <= last; n++) {
        if (done.has(n)) continue;
        if (job.tries >= 2)
          await db
            .update(pageJobs)
            .set({ at: n })
            .where(and(eq(pageJobs.setId, set.id), eq(pageJobs.first, job.first)));
        engine ??= await pdfiumEngine();
        try {
          document ??= await openPdf(engine, bucket, set.pdfKey, mode);
        } catch (error) {
          if (isEngineFault(error)) discardEngine();
          // The plan opened this file: a failure now is the store's, to be tried again by the queue.
          if (!(error instanceof UnopenablePdf)) throw error;
          for (let k = n; k <= last; k++) if (!done.has(k)) await fail(k, error.message);
          break;
        }
        const result = await renderOne(engine, document, n);
        if ("fault" in result) {
          // The module is unusable after a trap: a fresh engine and document for the pages after it.
          discardEngine();
          engine = null;
          document = null;
        } else if ("reopen" in result) {
          document?.close();
          document = null;
          // A page the availability API cannot find (a damaged page tree) may be found by PDFium's
          // full parser: the rest of the job reads the file whole, when it is small enough, from this page.
          if (mode === "ranges" && (await openableWhole(bucket, set.pdfKey))) {
            mode = "whole";
            n--;
            continue;
          }
        }
        if ("rendered" in result) {
          const stored = await storePage(db, bucket, set, n, { images: result.rendered.images, text: result.rendered.text });
          if (!stored.ok) {
            if (stored.failure.kind === "not-found" || stored.failure.kind === "conflict") throw new SetGone();
            await fail(n, stored.failure.error, { width: result.rendered.text.width, height: result.rendered.text.height });
            continue;
          }
          done.add(n);
          if (result.rendered.blank) blank++;
          if (!exposed) exposed = await readableWhilePrepared(db, set);
        } else {
          await fail(n, result.error, result.size);
        }
      }
    } finally {
      if (document && engine) document.close();
    }
    await markDone(db, set.id, job.first, blank);
  } catch (error) {
    if (error instanceof SetGone) return; // cancelled or replaced: nothing more to do
    throw error;
  }
  const [{ queued } = { queued: 1 }] = await db
    .select({ queued: sql<number>`count(*)` })
    .from(pageJobs)
    .where(and(eq(pageJobs.setId, set.id), eq(pageJobs.state, "queued")));
  if (queued === 0) await sendJobs(env.queue, [{ setId: set.id, first: FINISH }]);
}

class SetGone extends Error {}

/**
 * Names a set still being prepared on a book that has no pages yet, so teachers can read the pages
 * stored so far (the reader waits for the rest: page-reading.ts). A book with pages keeps reading
 * them until the new set is complete. Raises the catalogue version (its trigger on books).
 */
async function readableWhilePrepared(db: Db, set: PageSet): Promise<true> {
  await db
    .update(books)
    .set({ pageSetId: set.id, pageCount: set.pageCount })
    .where(
      and(
        eq(books.id, set.bookId),
        sql`${books.pageSetId} IS NULL`,
        sql`EXISTS (SELECT 1 FROM page_sets WHERE id = ${set.id} AND status = 'preparing')`,
      ),
    );
  return true;
}

function safeSize(m: Engine["pdfium"], page: number) {
  try {
    const size = pageSize(m, page);
    return size.width > 0 && size.height > 0 ? size : undefined;
  } catch {
    return undefined;
  }
}

type PageOutcome = { rendered: RenderedPage } | { error: string; size?: { width: number; height: number }; fault?: true; reopen?: true };

/** Page `n` rendered, or why not. An error reading the file from R2 is thrown: the queue tries the job again. */
async function renderOne(engine: Engine, document: RangeDocument, n: number): Promise<PageOutcome> {
  const m = engine.pdfium;
  let page: number;
  try {
    page = await document.loadPage(n - 1);
  } catch (error) {
    // The availability API gave up on this page: its state is not to be trusted for the next ones.
    if (error instanceof UnreadablePage) return { error: error.message, reopen: true };
    if (error instanceof UnopenablePdf) return { error: error.message };
    if (isEngineFault(error)) return { error: describe(error), fault: true };
    throw error;
  }
  if (!page) return { error: UNREADABLE_PAGE_MESSAGE };
  try {
    const rendered = renderPage(m, page);
    m._FPDF_ClosePage(page);
    return { rendered };
  } catch (error) {
    if (isEngineFault(error)) return { error: describe(error), fault: true };
    const size = safeSize(m, page);
    m._FPDF_ClosePage(page);
    return { error: describe(error), size };
  }
}

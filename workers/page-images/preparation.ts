/**
 * Preparing a book's pages on the platform (docs/decisions/0038): every PDF that arrives gets a page
 * set, and the set's work goes to the renderer Worker through the `PAGE_JOBS` Queue, one message per
 * job. D1 holds the jobs (`page_jobs`) and is the source of truth: a message lost (the local queue is
 * kept in memory; a consumer killed mid-job) is sent again by `resendStalled`, which the minute cron
 * runs. This side only writes rows and sends; the rendering is in workers/renderer/.
 *
 * Jobs of a set: the plan (`first = 0`: open the PDF, count its pages, write one row per range),
 * the page ranges (the first few pages alone, so a teacher's first page comes quickly; then
 * RANGE_PAGES each), and the finish (`first = FINISH`, no row: every page's text for search, the
 * outline, and the set made the book's).
 */
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, type PageSet, pageJobs, pageSetPages, pageSets, preparationNotices } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { findPreparingSet, newSetId } from "./page-sets.ts";

export interface PageJobMessage {
  setId: string;
  /** 0: the plan; FINISH: complete the set; else the first page of a range. */
  first: number;
}

export const FINISH = -1;
/** The first range: a teacher's first page is ready after these, not after a whole range. */
export const FIRST_RANGE_PAGES = 3;
/** Pages per message after the first: a document opened per message bounds the renderer's memory (decision 38, section 5). */
export const RANGE_PAGES = 10;
/** How long a delivery holds its job; past it, a job still queued is sent again. */
export const LEASE_MS = 5 * 60_000;
/** A job sent but never claimed for this long is sent again (the message was lost with a restart). */
export const RESEND_AFTER_MS = 2 * 60_000;
/** Sends per Queue `sendBatch` (the Queues limit is 100 messages). */
const SEND_BATCH = 100;

export type PageJobQueue = Pick<Queue<PageJobMessage>, "send" | "sendBatch">;

/** The page ranges of a book of `pageCount` pages, in the order they are prepared. */
export function pageRanges(pageCount: number): { first: number; last: number }[] {
  const ranges: { first: number; last: number }[] = [];
  for (let first = 1; first <= pageCount; ) {
    const last = Math.min(pageCount, first === 1 ? FIRST_RANGE_PAGES : first + RANGE_PAGES - 1);
    ranges.push({ first, last });
    first = last + 1;
  }
  return ranges;
}

export async function sendJobs(queue: PageJobQueue, messages: PageJobMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const })));
  }
}

/** Starts the platform's work on a set that has just been opened: its plan job, recorded and sent. */
export async function startPreparation(db: Db, queue: PageJobQueue, set: Pick<PageSet, "id">, now = Date.now()): Promise<void> {
  await db.insert(pageJobs).values({ setId: set.id, first: 0, last: 0, sentAt: now }).onConflictDoNothing();
  await sendJobs(queue, [{ setId: set.id, first: 0 }]);
}

/**
 * Sends again what a restart or a crash lost: jobs still queued whose lease ran out or that were
 * never claimed; sets being prepared that have no job (opened before the platform prepared pages,
 * or whose plan row was never written); and sets whose every job is done but that were not
 * finished. Cheap when there is nothing to do: three indexed reads. Returns how many were sent.
 */
export async function resendStalled(db: Db, queue: PageJobQueue, now = Date.now(), limit = 500): Promise<number> {
  const stale = await db
    .select({ setId: pageJobs.setId, first: pageJobs.first })
    .from(pageJobs)
    .where(
      and(
        eq(pageJobs.state, "queued"),
        sql`(${pageJobs.leasedUntil} < ${now} OR (${pageJobs.leasedUntil} IS NULL AND ${pageJobs.sentAt} < ${now - RESEND_AFTER_MS}))`,
      ),
    )
    .limit(limit);
  const orphans = await db.all<{ id: string }>(sql`
    SELECT s.id FROM page_sets s
    WHERE s.status = 'preparing' AND s.created_at < ${now - RESEND_AFTER_MS}
      AND NOT EXISTS (SELECT 1 FROM page_jobs j WHERE j.set_id = s.id)
    LIMIT ${limit}`);
  const unfinished = await db.all<{ id: string }>(sql`
    SELECT j.set_id AS id FROM page_jobs j JOIN page_sets s ON s.id = j.set_id
    WHERE s.status = 'preparing'
    GROUP BY j.set_id
    HAVING SUM(j.state = 'queued') = 0 AND MAX(COALESCE(j.leased_until, j.sent_at)) < ${now - RESEND_AFTER_MS}
    LIMIT ${limit}`);
  const messages: PageJobMessage[] = [
    ...stale,
    ...orphans.map((row) => ({ setId: row.id, first: 0 })),
    ...unfinished.map((row) => ({ setId: row.id, first: FINISH })),
  ];
  if (!messages.length) return 0;
  const statements = [
    ...stale.map((job) =>
      db
        .update(pageJobs)
        .set({ sentAt: now, leasedUntil: null })
        .where(and(eq(pageJobs.setId, job.setId), eq(pageJobs.first, job.first), eq(pageJobs.state, "queued"))),
    ),
    ...orphans.map((row) => db.insert(pageJobs).values({ setId: row.id, first: 0, last: 0, sentAt: now }).onConflictDoNothing()),
    // A finish sent again is marked on the plan row, so it is not sent every minute while it runs.
    ...unfinished.map((row) =>
      db
        .update(pageJobs)
        .set({ sentAt: now, leasedUntil: null })
        .where(and(eq(pageJobs.setId, row.id), eq(pageJobs.first, 0))),
    ),
  ];
  for (let i = 0; i < statements.length; i += 50) {
    const part = statements.slice(i, i + 50);
    await db.batch(part as [(typeof part)[number], ...typeof part]);
  }
  await sendJobs(queue, messages);
  return messages.length;
}

/**
 * "Try again" for a page that failed while its set is still being prepared: the failure goes and
 * the page's range is queued again (the range skips the pages it stored before). Once the set is the
 * book's it never changes (page-set-cache.ts): failed pages of a ready book are tried again by
 * preparing the book again (`prepareAgain`), teachers keeping the current pages meanwhile.
 */
export async function retryFailedPage(db: Db, queue: PageJobQueue, set: PageSet, n: number, now = Date.now()): Promise<Outcome<null>> {
  if (set.status !== "preparing") return failure("conflict", "These pages are complete: prepare the book again to try its failed pages");
  const [range] = await db
    .select({ first: pageJobs.first })
    .from(pageJobs)
    .where(and(eq(pageJobs.setId, set.id), sql`${pageJobs.first} > 0 AND ${pageJobs.first} <= ${n} AND ${pageJobs.last} >= ${n}`))
    .limit(1);
  if (!range) return failure("not-found", `Page ${n} is not one of this book's pages`);
  const [removed] = await db
    .delete(pageSetPages)
    .where(and(eq(pageSetPages.setId, set.id), eq(pageSetPages.n, n), isNotNull(pageSetPages.error)))
    .returning({ n: pageSetPages.n });
  if (!removed) return failure("conflict", `Page ${n} did not fail`);
  await db
    .update(pageJobs)
    .set({ state: "queued", tries: 0, at: null, leasedUntil: null, sentAt: now })
    .where(and(eq(pageJobs.setId, set.id), eq(pageJobs.first, range.first)));
  await sendJobs(queue, [{ setId: set.id, first: range.first }]);
  return done(null);
}

/**
 * Prepares a book's pages again from its own PDF (a book from before the platform prepared pages,
 * or one whose failed pages are to be tried again): a new set, which becomes the book's when ready.
 * A set already being prepared is left to finish (and answered).
 */
export async function prepareAgain(
  db: Db,
  queue: PageJobQueue,
  book: Pick<Book, "id" | "pdfKey" | "pdfSize">,
  startedBy: number | null,
  now = Date.now(),
): Promise<Outcome<PageSet>> {
  if (!book.pdfKey || !book.pdfSize) return failure("not-found", "This book has no PDF to prepare");
  const preparing = await findPreparingSet(db, book.id);
  if (preparing) return failure("conflict", "This book's pages are already being prepared");
  const [set] = await db
    .insert(pageSets)
    .values({ id: newSetId(), bookId: book.id, pdfKey: book.pdfKey, pdfSize: book.pdfSize, startedBy })
    .returning();
  await startPreparation(db, queue, set!, now);
  return done(set!);
}

/** How long the outcome of a book's preparation stays in the console (preparation_notices; preparation-status.ts shows 30 days). */
const NOTICE_KEPT_MS = 30 * 86_400_000;

/** Outcomes older than the console shows go (the hourly cron). */
export async function forgetOldNotices(db: Db, now = Date.now()): Promise<void> {
  await db.delete(preparationNotices).where(lt(preparationNotices.createdAt, now - NOTICE_KEPT_MS));
}

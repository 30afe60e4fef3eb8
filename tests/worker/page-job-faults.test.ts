// Page preparation on the platform when things go wrong (issue 42, item 5; docs/decisions/0038):
// refused files, a page that cannot be read, a page that keeps stopping the renderer, messages lost
// with a restart, a duplicate delivery, a cancelled book, and two books at once.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterEach, describe, expect, it } from "vitest";
import { books, pageJobs, pageSetPages, pageSets, preparationNotices } from "../../workers/db/schema.ts";
import { pageImageKey } from "../../workers/page-images/page-keys.ts";
import { FINISH, forgetOldNotices, pageRanges, RESEND_AFTER_MS, resendStalled } from "../../workers/page-images/preparation.ts";
import { exclusive, runJob } from "../../workers/renderer/jobs.ts";
import { PASSWORD_MESSAGE } from "../../workers/renderer/pdf-ranges.ts";
import { client, createBook, createSchool, db, page, signedInAdmin } from "./helpers.ts";
import { brokenPagePdf, passwordPdf, readyBook, until, uploadThroughApi, wordsPdf } from "./page-job-fixtures.ts";
import { holdPageJobs, keptCount, releasePageJobs, takeKept } from "./page-job-hold.ts";

afterEach(releasePageJobs);

const bookRow = async (id: number) => (await db().select().from(books).where(eq(books.id, id)))[0];
const noticeOf = (bookId: number) =>
  until(
    `a notice for book ${bookId}`,
    async () => (await db().select().from(preparationNotices).where(eq(preparationNotices.bookId, bookId)))[0],
  );
const pagesOf = (setId: string) => db().select().from(pageSetPages).where(eq(pageSetPages.setId, setId)).orderBy(pageSetPages.n);
const rendererEnv = () => ({ db: db(), bucket: env.BOOKS, queue: env.PAGE_JOBS });
const words = (n: number) => Array.from({ length: n }, (_, i) => `Page${i + 1}`);

/**
 * A new book whose PDF of `pages` one-word pages an admin uploads with the page queue held, returned
 * once the plan's message is kept (and not yet run): the admin's cookie, the book and its page set.
 */
async function uploadedWithThePlanHeld(title: string, pages: number) {
  const { cookie } = await signedInAdmin();
  const book = await createBook({ title }, [], { pdf: false });
  holdPageJobs();
  const { pageSet } = await uploadThroughApi(cookie, book.id, await wordsPdf(words(pages)));
  await until("the plan's message", async () => keptCount(pageSet.id) === 1);
  return { cookie, book, pageSet };
}

describe("files the renderer refuses", () => {
  it("a password-protected PDF is refused with its reason and the book keeps what it had", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Locked" }, [], { pdf: false });
    const uploaded = await uploadThroughApi(cookie, book.id, await passwordPdf());
    expect((await noticeOf(book.id)).message).toBe(PASSWORD_MESSAGE);
    expect(await db().select().from(pageSets).where(eq(pageSets.id, uploaded.pageSet.id))).toEqual([]);
    expect(await bookRow(book.id)).toMatchObject({ pageSetId: null, pdfKey: null });
  });

  it("a file that is not a PDF inside is refused; a book added with it goes too", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Not Really A PDF", provisional: true }, [], { pdf: false });
    const bytes = new TextEncoder().encode(`%PDF-1.7\n${"garbage ".repeat(200)}\n%%EOF\n`);
    await uploadThroughApi(cookie, book.id, bytes);
    const notice = await noticeOf(book.id);
    expect(notice).toMatchObject({ outcome: "refused", title: "Not Really A PDF" });
    expect(notice.message).toMatch(/cannot be opened as a PDF .* The book was not added either\.$/);
    expect(await bookRow(book.id)).toBeUndefined();
    // The admin arriving at the book's page from Add Books after the refusal is told why.
    const bookPage = await page(`/admin/book/${book.id}`, { cookie });
    expect(bookPage.status).toBe(404);
    expect(await bookPage.text()).toContain("This book was not added: This file cannot be opened as a PDF (it may be damaged).");
  });
});

describe("a PDF whose every page is blank", () => {
  it("is refused once its pages are done, and a book added with it goes, although its first page was readable meanwhile", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "All Blank", provisional: true }, [], { pdf: false });
    const pdf = await PDFDocument.create();
    pdf.addPage([400, 300]);
    pdf.addPage([400, 300]);
    await uploadThroughApi(cookie, book.id, (await pdf.save()) as Uint8Array<ArrayBuffer>);
    const notice = await noticeOf(book.id);
    expect(notice).toMatchObject({ outcome: "refused" });
    expect(notice.message).toMatch(
      /^None of the 2 pages of this PDF could be rendered, so it was not added\. Every page of this PDF is blank/,
    );
    expect(notice.message).toMatch(/The book was not added either\.$/);
    expect(await bookRow(book.id)).toBeUndefined();
  });
});

describe("pages that fail", () => {
  it("a page-tree entry that is not a page fails under its own number; the others are read", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "One Bad Page" }, [], { pdf: false });
    await uploadThroughApi(cookie, book.id, await brokenPagePdf(words(4), 2));
    const ready = await readyBook(book.id);
    const rows = await pagesOf(ready!.pageSetId!);
    expect(rows.map((row) => [row.n, row.error === null])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, true],
    ]);
    expect(rows[1]!.error).toBe("PDFium could not read this page (it may be damaged).");
    expect(await noticeOf(book.id)).toMatchObject({ outcome: "ready", pageCount: 4, failedPages: 1 });
  });

  it("a page that stopped the renderer twice is given up on the third delivery, and the rest of its range goes on", async () => {
    // The plan runs; its range's first two deliveries "died" on page 2: tries 2, the page written down.
    const { book, pageSet } = await uploadedWithThePlanHeld("Crashing Page", 3);
    expect(takeKept(pageSet.id)).toEqual([{ setId: pageSet.id, first: 0 }]);
    await exclusive(() => runJob(rendererEnv(), { setId: pageSet.id, first: 0 }));
    await until("the range's message", async () => keptCount(pageSet.id) === 1);
    takeKept(pageSet.id);
    await db()
      .update(pageJobs)
      .set({ tries: 2, at: 2, leasedUntil: Date.now() - 1 })
      .where(and(eq(pageJobs.setId, pageSet.id), eq(pageJobs.first, 1)));
    expect(await resendStalled(db(), env.PAGE_JOBS)).toBeGreaterThanOrEqual(1);
    await until("the range sent again", async () => keptCount(pageSet.id) === 1);
    await releasePageJobs();
    const ready = await readyBook(book.id);
    const rows = await pagesOf(ready!.pageSetId!);
    expect(rows.map((row) => row.error)).toEqual([null, "This page stopped the renderer 2 times.", null]);
  });
});

describe("work lost or sent twice", () => {
  it("messages lost with a restart are sent again from D1, and the book is prepared once", async () => {
    const { book, pageSet } = await uploadedWithThePlanHeld("Lost In A Restart", 15);
    takeKept(pageSet.id); // the plan's message is lost
    await releasePageJobs();
    const planRow = () =>
      db()
        .select()
        .from(pageJobs)
        .where(and(eq(pageJobs.setId, pageSet.id), eq(pageJobs.first, 0)));
    const [sent] = await planRow();
    await resendStalled(db(), env.PAGE_JOBS, Date.now()); // not stale yet: left alone
    expect((await planRow())[0]!.sentAt).toBe(sent!.sentAt);
    const later = Date.now() + RESEND_AFTER_MS + 1000;
    expect(await resendStalled(db(), env.PAGE_JOBS, later)).toBeGreaterThanOrEqual(1);
    expect((await planRow())[0]!.sentAt).toBe(later);
    await until("the ranges", async () => (await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id))).length === 4);
    const ready = await readyBook(book.id);
    expect((await pagesOf(ready!.pageSetId!)).map((row) => row.n)).toEqual(words(15).map((_, i) => i + 1));
    const jobs = await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id)).orderBy(pageJobs.first);
    expect(jobs.map((job) => [job.first, job.last, job.state, job.tries])).toEqual([
      [0, 0, "done", 1],
      [1, 3, "done", 1],
      [4, 13, "done", 1],
      [14, 15, "done", 1],
    ]);
  });

  it("a duplicate of a job being worked on, or done, does nothing; a set finished twice is finished once", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Sent Twice" }, [], { pdf: false });
    const { pageSet } = await uploadThroughApi(cookie, book.id, await wordsPdf(words(2)));
    await readyBook(book.id);
    await env.PAGE_JOBS.sendBatch([
      { body: { setId: pageSet.id, first: 1 } },
      { body: { setId: pageSet.id, first: 0 } },
      { body: { setId: pageSet.id, first: FINISH } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const jobs = await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id));
    expect(jobs.map((job) => job.tries)).toEqual([1, 1]);
    expect(await db().select().from(preparationNotices).where(eq(preparationNotices.bookId, book.id))).toHaveLength(1);
  });
});

describe("the order of the work", () => {
  it("the first pages come first: a range of 3, then ranges of 10", async () => {
    expect(pageRanges(25)).toEqual([
      { first: 1, last: 3 },
      { first: 4, last: 13 },
      { first: 14, last: 23 },
      { first: 24, last: 25 },
    ]);
    const { pageSet } = await uploadedWithThePlanHeld("First Pages First", 25);
    const plan = takeKept(pageSet.id);
    holdPageJobs();
    // The plan, run as the queue would: the ranges it sends are kept, in the order they were sent.
    for (const message of plan) await exclusive(() => runJob(rendererEnv(), message));
    expect(await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id))).toHaveLength(5);
    await until("the ranges' messages", async () => keptCount(pageSet.id) === 4);
    expect(takeKept(pageSet.id).map((message) => message.first)).toEqual([1, 4, 14, 24]);
  });

  it("a long book's plan writes every range (D1 takes at most 100 bound values a statement)", async () => {
    const { cookie, book, pageSet } = await uploadedWithThePlanHeld("A Long Book", 400);
    for (const message of takeKept(pageSet.id)) await exclusive(() => runJob(rendererEnv(), message));
    const jobs = await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id));
    expect(jobs).toHaveLength(1 + 1 + Math.ceil((400 - 3) / 10));
    await until("the ranges' messages", async () => keptCount(pageSet.id) === jobs.length - 1);
    takeKept(pageSet.id);
    expect(
      (
        await client({ cookie }).api.books[":id"]["page-sets"][":setId"].$delete({
          param: { id: String(book.id), setId: String(pageSet.id) },
        })
      ).status,
    ).toBe(204);
  });

  it("two books at once are both prepared", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const first = await createBook({ title: "Twin One" }, [school.id], { pdf: false });
    const second = await createBook({ title: "Twin Two" }, [school.id], { pdf: false });
    await Promise.all([
      uploadThroughApi(cookie, first.id, await wordsPdf(words(6))),
      uploadThroughApi(cookie, second.id, await wordsPdf(words(5))),
    ]);
    const [a, b] = await Promise.all([readyBook(first.id), readyBook(second.id)]);
    expect([a!.pageCount, b!.pageCount]).toEqual([6, 5]);
    for (const [id, set, n] of [[first.id, a!.pageSetId!, 6] as const, [second.id, b!.pageSetId!, 5] as const]) {
      expect(await env.BOOKS.head(pageImageKey(id, set, n, 2048, "png"))).not.toBeNull();
    }
  });
});

describe("a cancelled book", () => {
  it("stops: no page is stored after the cancel, and the book keeps no set", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Cancelled" }, [], { pdf: false });
    holdPageJobs();
    const { pageSet } = await uploadThroughApi(cookie, book.id, await wordsPdf(words(8)));
    const cancelled = await client({ cookie }).api.books[":id"]["page-sets"][":setId"].$delete({
      param: { id: String(book.id), setId: String(pageSet.id) },
    });
    expect(cancelled.status).toBe(204);
    await releasePageJobs();
    expect(await db().select().from(pageSetPages).where(eq(pageSetPages.setId, pageSet.id))).toEqual([]);
    expect(await db().select().from(pageJobs).where(eq(pageJobs.setId, pageSet.id))).toEqual([]);
    expect((await env.BOOKS.list({ prefix: `pages/${book.id}/` })).objects).toEqual([]);
    expect(await bookRow(book.id)).toMatchObject({ pageSetId: null });
  });
});

describe("the outcomes kept for the console", () => {
  it("are kept 30 days: the hourly cron forgets older ones", async () => {
    const now = Date.now();
    const day = 86_400_000;
    const [old, recent] = await db()
      .insert(preparationNotices)
      .values([
        { title: "Old Outcome", outcome: "ready", createdAt: now - 31 * day },
        { title: "Recent Outcome", outcome: "ready", createdAt: now - 29 * day },
      ])
      .returning({ id: preparationNotices.id });
    await forgetOldNotices(db(), now);
    const left = (await db().select({ id: preparationNotices.id }).from(preparationNotices)).map((row) => row.id);
    expect(left).toContain(recent!.id);
    expect(left).not.toContain(old!.id);
  });
});

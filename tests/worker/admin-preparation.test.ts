// The console's view and steering of the platform's page preparation (docs/decisions/0039), as the
// browser and a script with curl send it: the live list, a book's panel, "Try again", "Prepare
// again", Cancel and the uploader's notices. The routes send to a queue that records what it is
// given, in place of the real one, so no renderer touches the sets these tests make.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { type Book, books, pageJobs, pageSetPages, pageSets, preparationNotices } from "../../workers/db/schema.ts";
import { createUploadedPageSet, storePage, storePageFailure } from "../../workers/page-images/page-sets.ts";
import type { PageJobMessage } from "../../workers/page-images/preparation.ts";
import { api, client, createBook, createSchool, db, errorBody, errorOf, okBody, page, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { pageImages, pageText, preparedBook } from "./page-fixtures.ts";

const sent: PageJobMessage[] = [];
const PAGE_JOBS = {
  async send(body: PageJobMessage) {
    sent.push(body);
  },
  async sendBatch(messages: Iterable<MessageSendRequest<PageJobMessage>>) {
    for (const message of messages) sent.push(message.body);
  },
} as unknown as Queue<PageJobMessage>;
/** What the routes sent since the last call. */
const takeSent = () => sent.splice(0);

beforeEach(() => {
  takeSent();
});

const JPX = "Invalid JPX stream";

/** A book whose new 5-page PDF is half prepared: page 1 stored, page 2 failed, pages 4-5 still queued. */
async function halfPrepared(title: string, adminId: number | null) {
  const book = await createBook({ title });
  const key = `test/${crypto.randomUUID()}/new.pdf`;
  await env.BOOKS.put(key, new TextEncoder().encode("%PDF-1.7 new upload"));
  const set = await createUploadedPageSet(db(), env.BOOKS, book, { key, size: 19, pageCount: 5 }, adminId);
  const sentAt = Date.now();
  await db()
    .insert(pageJobs)
    .values([
      { setId: set.id, first: 0, last: 0, state: "done", sentAt },
      { setId: set.id, first: 1, last: 3, state: "done", sentAt },
      { setId: set.id, first: 4, last: 5, sentAt },
    ]);
  expect((await storePage(db(), env.BOOKS, set, 1, { images: pageImages(), text: pageText("one") })).ok).toBe(true);
  expect((await storePageFailure(db(), set, 2, { width: 612, height: 792, error: JPX })).ok).toBe(true);
  return { book, set, key };
}

const pageSetsOf = (cookie: string | null) => client({ cookie, env: { PAGE_JOBS } }).api.books[":id"]["page-sets"];
const ofBook = (id: number) => ({ param: { id: String(id) } });
/** A set of the book (`DELETE` cancels it), typed. */
const pageSet = (cookie: string, bookId: number, setId: string) =>
  pageSetsOf(cookie)[":setId"].$delete({ param: { id: String(bookId), setId } });
/** Try again for a failed page, typed. */
const retryPage = (cookie: string | null, bookId: number, setId: string, n: string | number) =>
  pageSetsOf(cookie)[":setId"].pages[":n"].retry.$post({ param: { id: String(bookId), setId, n: String(n) } });

async function notice(values: Partial<typeof preparationNotices.$inferInsert> & { title: string }) {
  const [row] = await db()
    .insert(preparationNotices)
    .values({ outcome: "ready", pageCount: 10, ...values })
    .returning();
  return row!;
}

describe("the console's live list of books being prepared", () => {
  it("lists each book with pages done of pages, its failures and who started it; the recent outcomes, the admin's own first", async () => {
    const { cookie, admin } = await signedInAdmin();
    const other = await signedInAdmin();
    const { book, set } = await halfPrepared("Tide Tables", admin.id);
    const old = await notice({ title: "Long Ago", adminId: admin.id, createdAt: Date.now() - 31 * 24 * 60 * 60_000 });
    const theirs = await notice({ title: "Their Book", adminId: other.admin.id, failedPages: 2 });
    const mine = await notice({
      title: "My Refused Book",
      adminId: admin.id,
      outcome: "refused",
      message: "This PDF is password-protected.",
    });

    const board = await okBody(client({ cookie }).api.books.preparation.status.$get());
    const row = board.preparing.find((entry) => entry.bookId === book.id);
    expect(row).toMatchObject({
      setId: set.id,
      title: "Tide Tables",
      pageCount: 5,
      done: 1,
      failedCount: 1,
      failures: [{ n: 2, error: JPX }],
      startedBy: admin.name,
      newPdf: true,
      hasReadyPages: false,
    });
    const ids = board.notices.map((n) => n.id);
    expect(ids).not.toContain(old.id);
    expect(ids.indexOf(mine.id)).toBeLessThan(ids.indexOf(theirs.id));
    expect(board.notices.find((n) => n.id === mine.id)).toMatchObject({
      mine: true,
      outcome: "refused",
      message: "This PDF is password-protected.",
    });
    expect(board.notices.find((n) => n.id === theirs.id)).toMatchObject({ mine: false, by: other.admin.name, failedPages: 2 });
  });

  it("is for admins only: no cookie and a teacher's are 401, as a script's would be", async () => {
    const teacher = await signedInTeacher(await createSchool());
    for (const cookie of [null, teacher.cookie]) {
      const preparation = client({ cookie }).api.books.preparation;
      expect((await preparation.status.$get()).status).toBe(401);
      expect((await preparation.notices.$get({ query: {} })).status).toBe(401);
    }
  });

  it("reads the list and the outcomes in one round trip to D1", async () => {
    const { cookie, admin } = await signedInAdmin();
    await halfPrepared("Counted", admin.id);
    const trips: string[][] = [];
    const DB = new Proxy(env.DB, {
      get(target, key) {
        if (key === "batch")
          return (statements: D1PreparedStatement[]) => {
            trips.push(statements.map(() => "batch"));
            return target.batch(statements);
          };
        if (key === "prepare")
          return (query: string) => {
            if (/page_sets|preparation_notices/.test(query)) trips.push([query]);
            return target.prepare(query);
          };
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const response = await client({ cookie, env: { DB } }).api.books.preparation.status.$get();
    expect(response.status).toBe(200);
    // Two statements prepared for the one batch, sent once.
    expect(trips.filter((trip) => trip[0] === "batch")).toEqual([["batch", "batch"]]);
  });
});

describe("a book's panel: GET /api/books/:id/page-sets", () => {
  it("shows the set being prepared with its pages, failures, start and uploader; the ready set and the latest outcome", async () => {
    const { cookie, admin } = await signedInAdmin();
    const { book, set } = await halfPrepared("Panel Book", admin.id);
    const status = await okBody(pageSetsOf(cookie).$get({ param: { id: String(book.id) } }));
    expect(status.ready).toBeNull();
    expect(status.hasPdf).toBe(true);
    expect(status.preparing).toMatchObject({
      id: set.id,
      pageCount: 5,
      done: [1],
      failed: [{ n: 2, error: JPX }],
      startedBy: admin.name,
      newPdf: true,
    });

    const school = await createSchool();
    const ready = await preparedBook("Ready Book", [school.id], ["one", "two"]);
    await notice({
      title: "Ready Book",
      bookId: ready.book.id,
      adminId: admin.id,
      outcome: "refused",
      message: "A newer upload was damaged.",
    });
    const readyStatus = await okBody(pageSetsOf(cookie).$get({ param: { id: String(ready.book.id) } }));
    expect(readyStatus).toMatchObject({
      ready: { id: ready.setId, status: "ready", pageCount: 2, done: [1, 2], failed: [] },
      preparing: null,
      latest: { outcome: "refused", message: "A newer upload was damaged." },
    });
  });

  it("says why a book added with a refused PDF is gone", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Gone Book" });
    await db().delete(books).where(eq(books.id, book.id));
    await notice({
      title: "Gone Book",
      bookId: book.id,
      outcome: "refused",
      message: "This file cannot be opened as a PDF (it may be damaged).",
    });
    const response = await pageSetsOf(cookie).$get(ofBook(book.id));
    expect(response.status).toBe(404);
    expect(await errorBody(response)).toEqual({
      error: "This book was not added: This file cannot be opened as a PDF (it may be damaged).",
      bookRemoved: true,
    });
    expect(await errorOf(pageSetsOf(cookie).$get(ofBook(999999)))).toBe("Book not found");
  });
});

describe("Try again: POST /api/books/:id/page-sets/:setId/pages/:n/retry", () => {
  it("queues a failed page's range again, and refuses what cannot be retried", async () => {
    const { cookie, admin } = await signedInAdmin();
    const { book, set } = await halfPrepared("Retry Book", admin.id);
    const retry = (n: string | number, bookId = book.id, setId = set.id, who: string | null = cookie) => retryPage(who, bookId, setId, n);
    // Not failed (stored, or not reached yet): 409, nothing sent.
    expect((await retry(1)).status).toBe(409);
    expect((await retry(4)).status).toBe(409);
    // Not a page number, or past the end: 400.
    for (const n of ["0", "abc", "1.5", "6"]) expect((await retry(n)).status).toBe(400);
    // Another book's set, or none: 404.
    const other = await createBook({ title: "Other Book" });
    expect((await retry(2, other.id)).status).toBe(404);
    expect((await retry(2, book.id, "0123456789abcdef01234567")).status).toBe(404);
    expect((await retry(2, book.id, "not-a-set")).status).toBe(404);
    // Not an admin: 401.
    const teacher = await signedInTeacher(await createSchool());
    expect((await retry(2, book.id, set.id, teacher.cookie)).status).toBe(401);
    expect((await retry(2, book.id, set.id, null)).status).toBe(401);
    expect(takeSent()).toEqual([]);

    // A script's bare POST, as curl sends it (the route reads no body: the typed call sends none).
    const retried = await retry(2);
    expect(retried.status).toBe(202);
    expect(await okBody(retried)).toEqual({ n: 2 });
    expect(
      await db()
        .select()
        .from(pageSetPages)
        .where(and(eq(pageSetPages.setId, set.id), eq(pageSetPages.n, 2))),
    ).toEqual([]);
    const [range] = await db()
      .select()
      .from(pageJobs)
      .where(and(eq(pageJobs.setId, set.id), eq(pageJobs.first, 1)));
    expect(range).toMatchObject({ state: "queued", tries: 0 });
    expect(takeSent()).toEqual([{ setId: set.id, first: 1 }]);
    // Once retried it has not failed any more.
    expect((await retry(2)).status).toBe(409);
  });

  it("refuses a ready set's page: the book is prepared again instead", async () => {
    const { cookie } = await signedInAdmin();
    const { book, setId } = await preparedBook("Ready Retry", [], ["one", "two"]);
    const refused = await retryPage(cookie, book.id, setId, 1);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toBe("These pages are complete: prepare the book again to try its failed pages");
  });
});

describe("Prepare again: POST /api/books/:id/page-sets", () => {
  it("starts a new set from the book's own PDF, sent to the queue; teachers keep the ready pages", async () => {
    const { cookie, admin } = await signedInAdmin();
    const { book, setId } = await preparedBook("Again Book", [], ["one", "two"]);
    // A script's bare POST (no body, no Content-Type), as curl -X POST sends it: raw (the typed client sends a JSON body).
    const started = await api(`/api/books/${book.id}/page-sets`, { cookie, method: "POST", env: { PAGE_JOBS } });
    expect(started.status).toBe(202);
    const body = (await started.json()) as { id: string };
    expect(body).toMatchObject({ status: "preparing", pageCount: null, done: [], failed: [] });
    const [set] = await db().select().from(pageSets).where(eq(pageSets.id, body.id));
    expect(set).toMatchObject({ bookId: book.id, status: "preparing", pdfKey: book.pdfKey, startedBy: admin.id });
    expect(takeSent()).toEqual([{ setId: body.id, first: 0 }]);
    const [row] = await db().select().from(books).where(eq(books.id, book.id));
    expect(row!.pageSetId).toBe(setId);

    // One at a time: the browser's typed call with an empty body is refused while the first runs.
    const again = await pageSetsOf(cookie).$post({ param: { id: String(book.id) }, json: {} });
    expect(again.status).toBe(409);
    expect(takeSent()).toEqual([]);
    const status = await okBody(pageSetsOf(cookie).$get({ param: { id: String(book.id) } }));
    expect(status.preparing).toMatchObject({ id: body.id, newPdf: false, startedBy: admin.name });
  });

  it("is refused for a book without a PDF, another's cookie, or a page count that is not one", async () => {
    const { cookie } = await signedInAdmin();
    const bare = await createBook({ title: "No PDF" }, [], { pdf: false });
    // Bare POSTs, as a script sends them: raw (the typed client sends a JSON body).
    expect((await api(`/api/books/${bare.id}/page-sets`, { cookie, method: "POST", env: { PAGE_JOBS } })).status).toBe(404);
    expect((await api("/api/books/999999/page-sets", { cookie, method: "POST", env: { PAGE_JOBS } })).status).toBe(404);
    const book = await createBook({ title: "Has PDF" });
    const teacher = await signedInTeacher(await createSchool());
    expect((await api(`/api/books/${book.id}/page-sets`, { cookie: teacher.cookie, method: "POST", env: { PAGE_JOBS } })).status).toBe(401);
    // A page count of the wrong type, which the typed client would not send: raw.
    expect((await api(`/api/books/${book.id}/page-sets`, { cookie, body: { pageCount: "many" }, env: { PAGE_JOBS } })).status).toBe(400);
    expect(takeSent()).toEqual([]);
    expect(await db().select().from(pageSets).where(eq(pageSets.bookId, book.id))).toEqual([]);
  });
});

describe("Cancel: DELETE /api/books/:id/page-sets/:setId", () => {
  it("drops the set, its jobs and its uploaded PDF; the book is as it was", async () => {
    const { cookie, admin } = await signedInAdmin();
    const { book, set, key } = await halfPrepared("Cancelled Book", admin.id);
    const other = await createBook({ title: "Not Its Book" });
    expect((await pageSet(cookie, other.id, set.id)).status).toBe(404);
    const teacher = await signedInTeacher(await createSchool());
    expect((await pageSet(teacher.cookie, book.id, set.id)).status).toBe(401);

    expect((await pageSet(cookie, book.id, set.id)).status).toBe(204);
    expect(await db().select().from(pageSets).where(eq(pageSets.id, set.id))).toEqual([]);
    expect(await db().select().from(pageJobs).where(eq(pageJobs.setId, set.id))).toEqual([]);
    expect(await env.BOOKS.head(key)).toBeNull();
    const [row] = await db().select().from(books).where(eq(books.id, book.id));
    expect(row).toMatchObject({ pdfKey: book.pdfKey, pageSetId: null } satisfies Partial<Book>);
    expect(await env.BOOKS.head(book.pdfKey!)).not.toBeNull();
    // A ready set is the book's: replacing the PDF replaces it.
    const ready = await preparedBook("Ready Cancel", [], ["one"]);
    expect((await pageSet(cookie, ready.book.id, ready.setId)).status).toBe(409);
  });
});

describe("the uploader's notices: GET /api/books/preparation/notices", () => {
  it("answers the admin's own outcomes, after the one dismissed last; at first those of the last day", async () => {
    const { cookie, admin } = await signedInAdmin();
    const other = await signedInAdmin();
    const yesterday = await notice({ title: "Two Days Ago", adminId: admin.id, createdAt: Date.now() - 2 * 24 * 60 * 60_000 });
    const first = await notice({ title: "First Book", adminId: admin.id, pageCount: 352, failedPages: 2 });
    await notice({ title: "Someone Else's", adminId: other.admin.id });
    const second = await notice({ title: "Second Book", adminId: admin.id, outcome: "refused", message: "Password-protected." });
    const notices = client({ cookie }).api.books.preparation.notices;

    const firstLook = await okBody(notices.$get({ query: {} }));
    expect(firstLook.notices.map((n) => n.id)).toEqual([second.id, first.id]);
    expect(firstLook.notices[1]).toMatchObject({ title: "First Book", outcome: "ready", pageCount: 352, failedPages: 2, mine: true });
    const after = await okBody(notices.$get({ query: { after: String(first.id) } }));
    expect(after.notices.map((n) => n.id)).toEqual([second.id]);
    // A dismissed marker from before a notice older than a day still shows it (within 30 days).
    const since = await okBody(notices.$get({ query: { after: String(yesterday.id - 1) } }));
    expect(since.notices.map((n) => n.id)).toEqual([second.id, first.id, yesterday.id]);
    expect((await notices.$get({ query: { after: "x" } })).status).toBe(400);
  });
});

describe("the console's pages", () => {
  it("paints the Preparation page and a book's progress into the first HTML, for admins only", async () => {
    const { cookie, admin } = await signedInAdmin();
    const { book } = await halfPrepared("Painted Preparation", admin.id);
    const board = await page("/admin/preparation", { cookie });
    expect(board.status).toBe(200);
    const html = await board.text();
    expect(html).toContain("Painted Preparation");
    expect(html).toContain("Preparing pages: 2 of 5");
    expect(html).toContain("Page <!-- -->2<!-- -->: <!-- -->Invalid JPX stream");
    const bookPage = await (await page(`/admin/book/${book.id}`, { cookie })).text();
    expect(bookPage).toContain("You can close this page: the pages are prepared on the server.");
    expect(bookPage).toContain('aria-label="Try page 2 again"');
    const signedOut = await page("/admin/preparation");
    expect(signedOut.status).toBe(302);
  });
});

// Teachers read a book while the platform prepares it (issue 42, item 3): its first pages are
// readable as soon as they are stored; a page to come answers "being prepared" (409, Retry-After),
// spends nothing, and is read once it is stored. A book with pages keeps them until a new PDF is done.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { books } from "../../workers/db/schema.ts";
import { exclusive, runJob } from "../../workers/renderer/jobs.ts";
import { api, client, createBook, createSchool, db, okBody, pagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { readyBook, until, uploadThroughApi, wordsPdf } from "./page-job-fixtures.ts";
import { holdPageJobs, keptCount, releasePageJobs, takeKept } from "./page-job-hold.ts";

afterEach(releasePageJobs);

const rendererEnv = () => ({ db: db(), bucket: env.BOOKS, queue: env.PAGE_JOBS });
const words = (n: number) => Array.from({ length: n }, (_, i) => `Page${i + 1}`);
/** The book's page list, as the reader asks for it. */
const pageList = (cookie: string, bookId: number) =>
  okBody(client({ cookie }).api.books[":id"].pages.$get({ param: { id: String(bookId) } }));
// The page image's `w` is read by the route itself, not declared to Hono, so the typed client cannot
// send it: those calls stay raw.

/** Uploads the book with the queue held, then runs its plan and its first range only (pages 1-3). */
async function firstPagesOnly(cookie: string, bookId: number, pages: number) {
  holdPageJobs();
  const { pageSet } = await uploadThroughApi(cookie, bookId, await wordsPdf(words(pages)));
  await until("the plan's message", async () => keptCount(pageSet.id) === 1);
  for (const message of takeKept(pageSet.id)) await exclusive(() => runJob(rendererEnv(), message));
  await until("the ranges' messages", async () => keptCount(pageSet.id) >= 1);
  const [first, ...rest] = takeKept(pageSet.id);
  expect(first).toEqual({ setId: pageSet.id, first: 1 });
  await exclusive(() => runJob(rendererEnv(), first!));
  return { setId: pageSet.id, rest };
}

describe("a book read while it is prepared", () => {
  it("page 1 is read at once; page 5 is being prepared, costs nothing, and is read when stored", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: "Read While Prepared" }, [school.id], { pdf: false });
    const teacher = await signedInTeacher(school);
    const { setId, rest } = await firstPagesOnly(cookie, book.id, 15);
    expect((await db().select().from(books).where(eq(books.id, book.id)))[0]).toMatchObject({ pageSetId: setId, pageCount: 15 });

    const list = await pageList(teacher.cookie, book.id);
    expect(list.pageCount).toBe(15);
    expect(list.pages.filter((page) => !page.preparing).map((page) => page.n)).toEqual([1, 2, 3]);
    expect(list.pages.filter((page) => page.preparing)).toHaveLength(12);

    expect((await api(`/api/books/${book.id}/pages/1?w=1024`, { cookie: teacher.cookie })).status).toBe(200);
    const waiting = await api(`/api/books/${book.id}/pages/5?w=1024`, { cookie: teacher.cookie });
    expect(waiting.status).toBe(409);
    expect(waiting.headers.get("Retry-After")).toBe("5");
    expect(await waiting.json()).toMatchObject({
      status: "page-preparing",
      error: "This page is still being prepared. It will appear in a moment.",
    });
    expect(await pagesSpent(school, teacher.teacher.id, book.id)).toBe(1);
    expect((await api(`/api/books/${book.id}/pages/16?w=1024`, { cookie: teacher.cookie })).status).toBe(404);

    // The rest of the book: the queue lets go of the ranges, and the finish follows.
    for (const message of rest) await exclusive(() => runJob(rendererEnv(), message));
    await releasePageJobs();
    await until("the set ready", async () => (await pageList(teacher.cookie, book.id)).pages.every((page) => !page.preparing));
    expect((await api(`/api/books/${book.id}/pages/5?w=1024`, { cookie: teacher.cookie })).status).toBe(200);
    expect(await pagesSpent(school, teacher.teacher.id, book.id)).toBe(2);
  });

  it("a book that has pages keeps them while a new PDF is prepared", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: "Replaced While Read" }, [school.id], { pdf: false });
    await uploadThroughApi(cookie, book.id, await wordsPdf(words(2)));
    const first = (await readyBook(book.id)).pageSetId;
    const { setId } = await firstPagesOnly(cookie, book.id, 15);
    expect(setId).not.toBe(first);
    expect((await db().select().from(books).where(eq(books.id, book.id)))[0]).toMatchObject({ pageSetId: first, pageCount: 2 });
  });

  it("a book cancelled while read is no longer readable", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: "Cancelled While Read" }, [school.id], { pdf: false });
    const teacher = await signedInTeacher(school);
    const { setId } = await firstPagesOnly(cookie, book.id, 15);
    expect((await api(`/api/books/${book.id}/pages/1?w=1024`, { cookie: teacher.cookie })).status).toBe(200);
    const cancelled = await client({ cookie }).api.books[":id"]["page-sets"][":setId"].$delete({
      param: { id: String(book.id), setId: String(setId) },
    });
    expect(cancelled.status).toBe(204);
    expect((await db().select().from(books).where(eq(books.id, book.id)))[0]).toMatchObject({ pageSetId: null, pageCount: null });
    expect((await api(`/api/books/${book.id}/pages/1?w=1024`, { cookie: teacher.cookie })).status).toBe(404);
  });
});

import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import { bookAccess } from "../../workers/db/schema.ts";
import { completePageSet } from "../../workers/page-images/complete-set.ts";
import { openPageSet, storePage, storePageFailure } from "../../workers/page-images/page-sets.ts";
import { pageBudget } from "../../workers/reading/page-budget.ts";
import { api, client, createBook, createSchool, db, setPagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { PAGE, pageImages, pageText, preparedBook } from "./page-fixtures.ts";

// A page view (a page image or its text) is answered before the request context checks any session
// (workers/http/request-context.ts, the hot path): whatever the view would refuse a signed-in
// teacher, a made-up cookie is told only that it is not signed in, exactly as a request without one
// is, so it learns nothing of which books a school has (docs/decisions/0036).

const TEXTS = ["One.", "Two.", "Three."];
let school: Awaited<ReturnType<typeof createSchool>>;
let other: Awaited<ReturnType<typeof createSchool>>;
/** A real teacher of the school, who gets each refusal for what it is. */
let reader: Awaited<ReturnType<typeof signedInTeacher>>;
let disabled: Awaited<ReturnType<typeof signedInTeacher>>;
const books = {} as Record<
  "readable" | "others" | "ended" | "scheduled" | "preparing" | "noPdf" | "oneSeat" | "spent" | "failedPage",
  number
>;

/** A cookie of the right shape for the school, whose token no one was ever given. */
const madeUp = (schoolId: number) => `__Host-lectern_teacher=${schoolId}.${crypto.randomUUID().replaceAll("-", "")}abcdefghij`;

async function setLicence(bookId: number, values: Partial<typeof bookAccess.$inferInsert>) {
  await db()
    .update(bookAccess)
    .set(values)
    .where(and(eq(bookAccess.schoolId, school.id), eq(bookAccess.bookId, bookId)));
}

/** A prepared book of the school whose page 2 could not be rendered. */
async function bookWithFailedPage(): Promise<number> {
  const book = await createBook({ title: "Torn Page" }, [school.id]);
  const opened = await openPageSet(db(), book, 3);
  if (!opened.ok) throw new Error(opened.failure.error);
  for (const n of [1, 3]) await storePage(db(), env.BOOKS, opened.value, n, { images: pageImages(), text: pageText(TEXTS[n - 1]!) });
  await storePageFailure(db(), opened.value, 2, { ...PAGE, error: "The renderer gave up" });
  const completed = await completePageSet(db(), env.BOOKS, null, book, opened.value, { outline: [], text: TEXTS });
  if (!completed.ok) throw new Error(completed.failure.error);
  return book.id;
}

beforeAll(async () => {
  school = await createSchool({ teacherLimit: 10 });
  other = await createSchool();
  reader = await signedInTeacher(school, "Real Reader");
  disabled = await signedInTeacher(school, "Disabled Reader");
  const today = dayOf(Date.now());
  const prepared = async (title: string, schoolIds = [school.id]) => (await preparedBook(title, schoolIds, TEXTS)).book.id;
  books.readable = await prepared("Readable");
  books.others = await prepared("Another School's", [other.id]);
  books.ended = await prepared("Ended");
  await setLicence(books.ended, { startsOn: addDays(today, -30), endsOn: addDays(today, -1) });
  books.scheduled = await prepared("Not Yet");
  await setLicence(books.scheduled, { startsOn: addDays(today, 1) });
  books.preparing = (await createBook({ title: "Being Prepared" }, [school.id])).id;
  books.noPdf = (await createBook({ title: "No PDF" }, [school.id], { pdf: false })).id;
  books.oneSeat = await prepared("One Seat");
  await setLicence(books.oneSeat, { seats: 1 });
  const holder = await signedInTeacher(school, "Seat Holder");
  expect((await client(holder).api.books[":id"].pages[":n"].$get({ param: { id: String(books.oneSeat), n: "1" } })).status).toBe(200);
  books.spent = await prepared("Budget Spent");
  await setPagesSpent(school, reader.teacher.id, books.spent, "h", pageBudget(TEXTS.length).hour.limit);
  books.failedPage = await bookWithFailedPage();
  const admin = await signedInAdmin();
  const disabling = await client(admin).api.schools[":id"].teachers[":teacherId"].disable.$post({
    param: { id: String(school.id), teacherId: String(disabled.teacher.id) },
  });
  expect(disabling.status).toBe(200);
});

/** Each refusal a page view makes: the URL, whose real cookie gets it, and what they are told. */
function refusals() {
  const at = (bookId: number | string, rest = "pages/1") => `https://lectern.test/api/books/${bookId}/${rest}`;
  return [
    { kind: "no such book", url: at(books.readable + 1_000_000), status: 404, error: "Book not found" },
    { kind: "a malformed book id", url: at("x1"), status: 404, error: "Book not found" },
    { kind: "another school's book", url: at(books.others), status: 404, error: "Book not found" },
    { kind: "a licence ended", url: at(books.ended), status: 403, body: { status: "licence-ended" } },
    { kind: "a licence not begun", url: at(books.scheduled), status: 404, error: "Book not found" },
    { kind: "pages being prepared", url: at(books.preparing), status: 409, body: { status: "preparing" } },
    { kind: "no PDF", url: at(books.noPdf), status: 404, body: { status: "no-pdf" } },
    { kind: "no seat free", url: at(books.oneSeat), status: 409, body: { status: "no-seat" } },
    { kind: "the budget spent", url: at(books.spent), status: 429 },
    { kind: "a page out of range", url: at(books.readable, "pages/99"), status: 404, error: "This book has 3 pages" },
    { kind: "page 0", url: at(books.readable, "pages/0"), status: 400 },
    { kind: "a malformed page number", url: at(books.readable, "pages/two"), status: 400 },
    { kind: "a width too wide", url: at(books.readable, "pages/1?w=99999"), status: 400 },
    { kind: "a page that failed", url: at(books.failedPage, "pages/2"), status: 404, body: { status: "failed" } },
    { kind: "the text of a page out of range", url: at(books.readable, "pages/99/text"), status: 404 },
    { kind: "the text of another school's book", url: at(books.others, "pages/1/text"), status: 404 },
    { kind: "the text of an ended licence", url: at(books.ended, "pages/1/text"), status: 403 },
    { kind: "the text with the budget spent", url: at(books.spent, "pages/1/text"), status: 429 },
    {
      kind: "another school's host",
      url: `https://${other.slug}.lectern.test/api/books/${books.readable}/pages/1`,
      status: 404,
      error: "School not found",
    },
    { kind: "a disabled teacher", url: at(books.readable), status: 401, body: { disabled: true }, cookie: () => disabled.cookie },
  ];
}

/** What a caller can tell two answers apart by: the status, the body, and the headers that vary by case. */
async function seen(response: Pick<Response, "status" | "text" | "headers">) {
  return {
    status: response.status,
    body: await response.text(),
    cacheControl: response.headers.get("Cache-Control"),
    retryAfter: response.headers.get("Retry-After"),
    contentType: response.headers.get("Content-Type"),
  };
}

describe("a page view's refusals", () => {
  it("each is what a signed-in teacher of the school is told (so the cases below are real)", async () => {
    for (const refusal of refusals()) {
      // Raw: malformed ids and page numbers, a width, another school's host: what the typed client cannot send.
      const response = await api(refusal.url, { cookie: refusal.cookie?.() ?? reader.cookie });
      expect(response.status, refusal.kind).toBe(refusal.status);
      const body = (await response.json()) as { error: string };
      if (refusal.error) expect(body.error, refusal.kind).toBe(refusal.error);
      if (refusal.body) expect(body, refusal.kind).toMatchObject(refusal.body);
    }
  });

  it("a made-up cookie gets 'Not signed in' for every one, exactly as a request without a cookie", async () => {
    for (const refusal of refusals()) {
      const withoutCookie = await seen(await api(refusal.url));
      expect(withoutCookie, refusal.kind).toMatchObject({
        status: 401,
        body: JSON.stringify({ error: "Not signed in" }),
        retryAfter: null,
      });
      for (const cookie of [madeUp(school.id), madeUp(other.id)]) {
        expect(await seen(await api(refusal.url, { cookie })), `${refusal.kind}, ${cookie}`).toEqual(withoutCookie);
      }
    }
  });

  it("a made-up cookie is not signed in for a readable page either, and a real teacher reads it", async () => {
    const text = (cookie?: string) =>
      client({ cookie }).api.books[":id"].pages[":n"].text.$get({ param: { id: String(books.readable), n: "1" } });
    expect(await seen(await text(madeUp(school.id)))).toEqual(await seen(await text()));
    expect((await text(reader.cookie)).status).toBe(200);
  });
});

// Work done offline and sent later (issue 45 item 4, docs/decisions/0051), as the reader's outbox or a
// script sends it: a create's client id is its idempotency key (the same id twice makes one annotation,
// and another teacher's id reads or overwrites nothing), the later edit wins (an older change or
// deletion is 409 with the annotation as kept), edit times are bounded, and a reading position sent
// late does not replace a later one. A replayed highlight's words still cost a page of the budget.

import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { pageBudget } from "../../workers/reading/page-budget.ts";
import { api, client, createSchool, errorBody, flushUsage, okBody, pagesSpent, setPagesSpent, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const TEXTS = ["Chapter one: the leaf and the light it drinks.", "Roots drink water.", "Index."];

let school: Awaited<ReturnType<typeof createSchool>>;
let bookId: number;
let otherBookId: number;

beforeAll(async () => {
  school = await createSchool({ name: "Offline Academy" });
  bookId = (await preparedBook("Leaves Offline", [school.id], TEXTS)).book.id;
  otherBookId = (await preparedBook("Roots Offline", [school.id], TEXTS)).book.id;
});

const url = (path = "", book = bookId) => `/api/books/${book}/annotations${path}`;
const annotations = (cookie: string) => client({ cookie }).api.books[":id"].annotations;
type CreateBody = InferRequestType<ReturnType<typeof annotations>["$post"]>["json"];
type PatchBody = InferRequestType<ReturnType<typeof annotations>[":annotationId"]["$patch"]>["json"];
const ofBook = (book = bookId) => ({ param: { id: String(book) } });
const post = (cookie: string, json: CreateBody, book = bookId) => annotations(cookie).$post({ ...ofBook(book), json });
const patch = (cookie: string, id: number, json: PatchBody) =>
  annotations(cookie)[":annotationId"].$patch({ param: { id: String(bookId), annotationId: String(id) }, json });
// The edit time of a deletion rides in the query, which the typed client does not declare: raw, as a script sends it.
const del = (cookie: string, id: number, editedAt?: number | string) =>
  api(url(`/${id}${editedAt === undefined ? "" : `?editedAt=${editedAt}`}`), { cookie, method: "DELETE" });
const listed = (cookie: string, book = bookId) => okBody(annotations(cookie).$get(ofBook(book)));
const MINUTE = 60_000;

describe("a create's client id", () => {
  it("made twice (the first answer was lost) answers the first annotation: 201, then 200 replayed, one annotation", async () => {
    const { cookie } = await signedInTeacher(school);
    const clientId = crypto.randomUUID();
    const first = await post(cookie, { kind: "note", page: 2, note: "Written on the bus", clientId });
    expect(first.status).toBe(201);
    const made = await okBody(first);
    const again = await post(cookie, { kind: "note", page: 2, note: "Written on the bus", clientId });
    expect(again.status).toBe(200);
    expect(await okBody(again)).toMatchObject({ replayed: true, annotation: { id: made.annotation.id, note: "Written on the bus" } });
    expect((await listed(cookie)).annotations).toHaveLength(1);
  });

  it("replays a highlight's words only as a read: a page of the budget, withheld once the budget is spent", async () => {
    const { cookie, teacher } = await signedInTeacher(school);
    const clientId = crypto.randomUUID();
    const body: CreateBody = { kind: "highlight", page: 1, start: { run: 0, offset: 13 }, end: { run: 0, offset: 21 }, clientId };
    expect((await okBody(post(cookie, body))).annotation).toMatchObject({ text: "the leaf" });
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(1);
    const again = await post(cookie, body);
    expect(await okBody(again)).toMatchObject({ replayed: true, annotation: { text: "the leaf" } });
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(2);
    await setPagesSpent(school, teacher.id, bookId, "h", pageBudget(TEXTS.length).hour.limit);
    const spent = await okBody(post(cookie, body));
    expect(spent).toMatchObject({ replayed: true, annotation: { text: null } });
    expect("textWithheld" in spent && spent.textWithheld).toEqual(expect.stringContaining("limit"));
    expect((await listed(cookie)).annotations).toHaveLength(1);
  });

  it("of another teacher's annotation reads and overwrites nothing: it makes the caller's own", async () => {
    const owner = await signedInTeacher(school, "Olive Owner");
    const other = await signedInTeacher(school, "Oscar Other");
    const clientId = crypto.randomUUID();
    const mine = await okBody(post(owner.cookie, { kind: "note", page: 1, note: "Private plan", clientId }));
    const theirs = await post(other.cookie, { kind: "note", page: 1, note: "Trying", clientId });
    expect(theirs.status).toBe(201);
    const body = await okBody(theirs);
    expect(body.annotation.id).not.toBe(mine.annotation.id);
    expect(JSON.stringify(body)).not.toContain("Private plan");
    expect((await listed(owner.cookie)).annotations).toMatchObject([{ id: mine.annotation.id, note: "Private plan" }]);
    expect((await listed(other.cookie)).annotations).toMatchObject([{ note: "Trying" }]);
  });

  it("is refused when it is not a UUID (400), and when the teacher used it in another book (409)", async () => {
    const { cookie } = await signedInTeacher(school);
    const bad = await post(cookie, { kind: "note", page: 1, note: "x", clientId: "not-a-uuid" });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).error).toBe("The client id must be a UUID");
    const clientId = crypto.randomUUID();
    expect((await post(cookie, { kind: "note", page: 1, note: "x", clientId })).status).toBe(201);
    const elsewhere = await post(cookie, { kind: "note", page: 1, note: "x", clientId }, otherBookId);
    expect(elsewhere.status).toBe(409);
    expect((await listed(cookie, otherBookId)).annotations).toEqual([]);
  });
});

describe("the later edit wins", () => {
  it("an offline change older than the annotation's last change is not applied: 409 edited-elsewhere with the kept one", async () => {
    const { cookie } = await signedInTeacher(school);
    const { annotation } = await okBody(post(cookie, { kind: "note", page: 1, note: "First" }));
    const id = annotation.id as number;
    const now = Date.now();
    expect((await patch(cookie, id, { note: "Changed on the laptop", editedAt: now })).status).toBe(200);
    const late = await patch(cookie, id, { note: "Changed on the phone, offline, earlier", editedAt: now - 5 * MINUTE });
    expect(late.status).toBe(409);
    expect(await errorBody(late)).toMatchObject({
      status: "edited-elsewhere",
      error: "This was changed on another device after your offline change; the newer change was kept.",
      annotation: { id, note: "Changed on the laptop" },
    });
    expect((await listed(cookie)).annotations).toMatchObject([{ id, note: "Changed on the laptop" }]);
    // A later offline change (sent after the laptop's) is applied.
    const later = await patch(cookie, id, { note: "Later, offline", editedAt: Date.now() });
    expect(later.status).toBe(200);
    expect((await listed(cookie)).annotations).toMatchObject([{ id, note: "Later, offline" }]);
  });

  it("an offline deletion older than the last change keeps the annotation (409); a later one deletes it", async () => {
    const { cookie } = await signedInTeacher(school);
    const { annotation } = await okBody(post(cookie, { kind: "bookmark", page: 3, label: "Quiz" }));
    const id = annotation.id as number;
    const early = await del(cookie, id, Date.now() - 10 * MINUTE);
    expect(early.status).toBe(409);
    expect(await errorBody(early)).toMatchObject({ status: "edited-elsewhere", annotation: { id, label: "Quiz" } });
    expect((await listed(cookie)).annotations).toHaveLength(1);
    expect((await del(cookie, id, Date.now())).status).toBe(204);
    expect((await listed(cookie)).annotations).toEqual([]);
  });

  it("refuses an edit time in the future (beyond two minutes), older than any offline copy, or not a number: 400", async () => {
    const { cookie } = await signedInTeacher(school);
    const { annotation } = await okBody(post(cookie, { kind: "note", page: 1, note: "Kept" }));
    const id = annotation.id as number;
    const future = await patch(cookie, id, { note: "From the future", editedAt: Date.now() + 10 * MINUTE });
    expect(future.status).toBe(400);
    expect(await errorBody(future)).toMatchObject({
      field: "editedAt",
      error: "The edit time is in the future: check this device's clock.",
    });
    const ancient = await patch(cookie, id, { note: "Backdated", editedAt: Date.now() - 200 * 24 * 60 * MINUTE });
    expect(ancient.status).toBe(400);
    expect((await del(cookie, id, Date.now() + 10 * MINUTE)).status).toBe(400);
    expect((await del(cookie, id, "soon")).status).toBe(400);
    // A time as text, which the typed client would not send: raw.
    expect((await api(url(`/${id}`), { cookie, method: "PATCH", body: { note: "x", editedAt: "1" } })).status).toBe(400);
    // Within the skew, a clock a minute ahead is fine (and stored as now, so it cannot block the next edit).
    expect((await patch(cookie, id, { note: "A minute ahead", editedAt: Date.now() + MINUTE })).status).toBe(200);
    expect((await patch(cookie, id, { note: "Right after" })).status).toBe(200);
    expect((await listed(cookie)).annotations).toMatchObject([{ id, note: "Right after" }]);
  });
});

describe("a reading position sent late", () => {
  const progress = (cookie: string) => client({ cookie }).api["reading-progress"][":bookId"];
  const put = (cookie: string, json: { page: number; editedAt?: number }) =>
    progress(cookie).$put({ param: { bookId: String(bookId) }, json });
  const resume = async (cookie: string) => okBody(progress(cookie).$get({ param: { bookId: String(bookId) } }));

  it("does not replace a later one, in the object or, once flushed, in D1; a later one is kept", async () => {
    const { cookie } = await signedInTeacher(school);
    expect((await put(cookie, { page: 3, editedAt: Date.now() })).status).toBe(204);
    const stale = await put(cookie, { page: 1, editedAt: Date.now() - 5 * MINUTE });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual({ applied: false });
    expect(await resume(cookie)).toEqual({ page: 3 });
    await flushUsage(school.id);
    expect((await put(cookie, { page: 2, editedAt: Date.now() - 4 * MINUTE })).status).toBe(200);
    expect(await resume(cookie)).toEqual({ page: 3 });
    expect((await put(cookie, { page: 2, editedAt: Date.now() })).status).toBe(204);
    expect(await resume(cookie)).toEqual({ page: 2 });
  });

  it("refuses an edit time in the future or too old (400)", async () => {
    const { cookie } = await signedInTeacher(school);
    expect((await put(cookie, { page: 2, editedAt: Date.now() + 10 * MINUTE })).status).toBe(400);
    expect((await put(cookie, { page: 2, editedAt: Date.now() - 200 * 24 * 60 * MINUTE })).status).toBe(400);
    expect(await resume(cookie)).toEqual({ page: 1 });
  });
});

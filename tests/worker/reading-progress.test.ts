import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { recentReading, unflushedProgress } from "../../workers/reading/progress.ts";
import { api, client, createBook, createSchool, db, flushUsage, okBody, page, signedInTeacher } from "./helpers.ts";

let cookie: string;
let teacherId: number;
let schoolId: number;
let bookId: number;
let otherBookId: number;

beforeAll(async () => {
  const school = await createSchool();
  schoolId = school.id;
  const signedIn = await signedInTeacher(school);
  cookie = signedIn.cookie;
  teacherId = signedIn.teacher.id;
  bookId = (await createBook({ title: "Progress Book", pageCount: 40 }, [school.id])).id;
  otherBookId = (await createBook({ title: "Someone Else's Book", pageCount: 40 }, [(await createSchool()).id])).id;
});

const put = (id: number, page: number, call: { cookie?: string; origin?: string } = { cookie: "" }) =>
  client(call).api["reading-progress"][":bookId"].$put({ param: { bookId: String(id) }, json: { page } });

/** Where the signed-in teacher is in a book, as the reader asks to resume. */
const progress = (id: number) => client({ cookie }).api["reading-progress"][":bookId"].$get({ param: { bookId: String(id) } });

describe("reading progress", () => {
  it("starts at page 1, saves the last page, and keeps one row per teacher and book", async () => {
    expect(await okBody(progress(bookId))).toEqual({ page: 1 });
    expect((await put(bookId, 7, { cookie })).status).toBe(204);
    expect((await put(bookId, 12, { cookie })).status).toBe(204);
    expect(await okBody(progress(bookId))).toEqual({ page: 12 });
    // Until the school's object flushes, the page is there, not in D1: the dashboard lays it over D1's rows.
    const who = { schoolId, teacherId };
    expect(await recentReading(db(), teacherId, schoolId)).toEqual([]);
    const expected = [expect.objectContaining({ bookId, title: "Progress Book", page: 12, pageCount: 40 })];
    expect(await recentReading(db(), teacherId, schoolId, await unflushedProgress(env, who))).toEqual(expected);
    await flushUsage(schoolId);
    expect(await recentReading(db(), teacherId, schoolId)).toEqual(expected);
    expect(await unflushedProgress(env, who)).toEqual([]);
    expect(await okBody(progress(bookId))).toEqual({ page: 12 });
    // A newer save in the object wins over D1's row, in the resume and in the row.
    expect((await put(bookId, 15, { cookie })).status).toBe(204);
    expect(await okBody(progress(bookId))).toEqual({ page: 15 });
    expect(await recentReading(db(), teacherId, schoolId, await unflushedProgress(env, who))).toEqual([
      expect.objectContaining({ bookId, page: 15 }),
    ]);
  });

  it("shows the book just opened in 'Continue reading' on the dashboard before any flush", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const book = (await createBook({ title: "Fresh Read", pageCount: 40 }, [school.id])).id;
    expect((await put(book, 9, { cookie: reader.cookie })).status).toBe(204);
    const dashboard = await page(`/schools/${school.slug}/dashboard`, { cookie: reader.cookie });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("Continue reading");
    expect(html).toContain("Fresh Read");
  });

  it("refuses pages outside the book, and books outside the school", async () => {
    expect((await put(bookId, 41, { cookie })).status).toBe(400);
    expect((await put(bookId, 0, { cookie })).status).toBe(400);
    // Raw: a page of the wrong type, which the typed client would not send.
    expect((await api(`/api/reading-progress/${bookId}`, { method: "PUT", body: { page: "3" }, cookie })).status).toBe(400);
    expect((await put(otherBookId, 3, { cookie })).status).toBe(404);
    expect((await progress(otherBookId)).status).toBe(404);
  });

  it("needs a session and our own origin", async () => {
    expect((await put(bookId, 3)).status).toBe(401);
    expect((await put(bookId, 3, { cookie, origin: "https://evil.example" })).status).toBe(403);
  });
});

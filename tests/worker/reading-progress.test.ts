import { beforeAll, describe, expect, it } from "vitest";
import { recentReading } from "../../workers/reading/progress.ts";
import { api, createBook, createSchool, db, signedInTeacher } from "./helpers.ts";

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

const put = (id: number, page: unknown, call: { cookie?: string } = { cookie: "" }) =>
  api(`/api/reading-progress/${id}`, { method: "PUT", body: { page }, cookie: call.cookie });

describe("reading progress", () => {
  it("starts at page 1, saves the last page, and keeps one row per teacher and book", async () => {
    expect(await (await api(`/api/reading-progress/${bookId}`, { cookie })).json()).toEqual({ page: 1 });
    expect((await put(bookId, 7, { cookie })).status).toBe(204);
    expect((await put(bookId, 12, { cookie })).status).toBe(204);
    expect(await (await api(`/api/reading-progress/${bookId}`, { cookie })).json()).toEqual({ page: 12 });
    expect(await recentReading(db(), teacherId, schoolId)).toEqual([
      expect.objectContaining({ bookId, title: "Progress Book", page: 12, pageCount: 40 }),
    ]);
  });

  it("refuses pages outside the book, and books outside the school", async () => {
    expect((await put(bookId, 41, { cookie })).status).toBe(400);
    expect((await put(bookId, 0, { cookie })).status).toBe(400);
    expect((await put(bookId, "3", { cookie })).status).toBe(400);
    expect((await put(otherBookId, 3, { cookie })).status).toBe(404);
    expect((await api(`/api/reading-progress/${otherBookId}`, { cookie })).status).toBe(404);
  });

  it("needs a session and our own origin", async () => {
    expect((await put(bookId, 3)).status).toBe(401);
    expect(
      (await api(`/api/reading-progress/${bookId}`, { method: "PUT", body: { page: 3 }, cookie, origin: "https://evil.example" })).status,
    ).toBe(403);
  });
});

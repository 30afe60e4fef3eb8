import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { pageImageKey } from "../../workers/page-images/page-keys.ts";
import { pageBudget } from "../../workers/reading/page-budget.ts";
import { api, client, createBook, createSchool, db, flushUsage, okBody, setPagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const TEXTS = ["The photosynthesis chapter begins here.", "Chlorophyll absorbs light; Photosynthesis makes sugar.", "An index page."];

let school: Awaited<ReturnType<typeof createSchool>>;
let bookId: number;
let setId: string;
let teacher: Awaited<ReturnType<typeof signedInTeacher>>;

beforeAll(async () => {
  school = await createSchool({ name: "Hillside Academy" });
  const prepared = await preparedBook("Biology Basics", [school.id], TEXTS, [{ title: "Chapter 1", page: 2, items: [] }]);
  bookId = prepared.book.id;
  setId = prepared.setId;
  teacher = await signedInTeacher(school, "Dana Whitfield");
});

/** The book's reading routes as `cookie` calls them, typed. */
const books = (cookie?: string | null) => client({ cookie }).api.books[":id"];
const pagesOf = (cookie: string | null, id: number | string = bookId) => books(cookie).pages.$get({ param: { id: String(id) } });
const pageOf = (cookie: string, n: number | string, id: number | string = bookId) =>
  books(cookie).pages[":n"].$get({ param: { id: String(id), n: String(n) } });
const textOf = (cookie: string, n: number) => books(cookie).pages[":n"].text.$get({ param: { id: String(bookId), n: String(n) } });
const search = (cookie: string, q: string) => books(cookie).search.$get({ param: { id: String(bookId) }, query: { q } });

const bytesOf = async (response: Pick<Response, "arrayBuffer">) => new Uint8Array(await response.arrayBuffer());
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

describe("GET /api/books/:id/pages", () => {
  it("lists the pages for a teacher of the school, private and uncached", async () => {
    const response = await pagesOf(teacher.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await okBody(response)).toEqual({
      pageCount: 3,
      widths: [1024, 2048],
      hasOutline: true,
      pages: [1, 2, 3].map((n) => ({ n, width: 612, height: 120 })),
    });
  });

  it("answers 401 without a session and 404 for another school's teacher or a malformed id", async () => {
    expect((await pagesOf(null)).status).toBe(401);
    const stranger = await signedInTeacher(await createSchool());
    const refused = await pagesOf(stranger.cookie);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "Book not found" });
    // Malformed ids written into the path as they stand (the typed client would encode some): raw.
    for (const id of ["0", "-1", "1.5", "abc", "%2027", "0x1b", "99999999999999"]) {
      expect((await api(`/api/books/${id}/pages`, { cookie: teacher.cookie })).status).toBe(404);
    }
  });

  it("says a book is still being prepared (409) and a book without a PDF has none (404)", async () => {
    const waiting = await createBook({ title: "Not yet" }, [school.id]);
    const preparing = await pagesOf(teacher.cookie, waiting.id);
    expect(preparing.status).toBe(409);
    expect(await preparing.json()).toMatchObject({ status: "preparing" });
    expect((await pageOf(teacher.cookie, 1, waiting.id)).status).toBe(409);
    const none = await createBook({ title: "No file" }, [school.id], { pdf: false });
    const missing = await pagesOf(teacher.cookie, none.id);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "This book does not have a PDF file available" });
  });
});

describe("GET /api/books/:id/pages/:n", () => {
  it("stamps each teacher's copy: two teachers get different bytes, an admin the stored page", async () => {
    const other = await signedInTeacher(school, "Robin Okafor");
    const first = await pageOf(teacher.cookie, 2);
    const second = await pageOf(other.cookie, 2);
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^image\/(webp|png)$/);
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      expect(response.headers.get("Content-Disposition")).toBeNull();
    }
    const [a, b] = [await bytesOf(first), await bytesOf(second)];
    expect(same(a, b)).toBe(false);

    const stored = new Uint8Array(await (await env.BOOKS.get(pageImageKey(bookId, setId, 2, 1024, "png")))!.arrayBuffer());
    expect(same(a, stored)).toBe(false);
    const { cookie } = await signedInAdmin();
    // The width (w) is not declared to the typed client: raw, here and below.
    const admin = await api(`/api/books/${bookId}/pages/2?w=1024`, { cookie });
    expect(admin.status).toBe(200);
    expect(same(await bytesOf(admin), stored)).toBe(true);
  });

  it("serves the stored width that fits what was asked for", async () => {
    const { cookie } = await signedInAdmin();
    const wide = new Uint8Array(await (await env.BOOKS.get(pageImageKey(bookId, setId, 1, 2048, "png")))!.arrayBuffer());
    expect(same(await bytesOf(await api(`/api/books/${bookId}/pages/1?w=1600`, { cookie })), wide)).toBe(true);
    expect(same(await bytesOf(await api(`/api/books/${bookId}/pages/1?w=4096`, { cookie })), wide)).toBe(true);
  });

  it("answers 400 for malformed page numbers and widths, 404 out of range, never 500", async () => {
    // Malformed page numbers and widths as written into the URL: raw.
    for (const n of ["0", "-1", "1.5", "abc", "1e3", "%201", "+1", "01", "9999999"]) {
      const response = await api(`/api/books/${bookId}/pages/${n}`, { cookie: teacher.cookie });
      expect(response.status, n).toBe(400);
    }
    for (const w of ["abc", "0", "-5", "99999", "1024.5", "", "4097"]) {
      const response = await api(`/api/books/${bookId}/pages/1?w=${w}`, { cookie: teacher.cookie });
      expect(response.status, `w=${w}`).toBe(400);
    }
    for (const n of ["4", "999999"]) {
      const response = await pageOf(teacher.cookie, n);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    }
    const stranger = await signedInTeacher(await createSchool());
    const other = await pageOf(stranger.cookie, 1);
    expect(other.status).toBe(404);
    expect(other.headers.get("Content-Type")).toMatch(/^application\/json/);
  });

  it("counts every page served in the day's rollup", async () => {
    const reader = await signedInTeacher(school);
    for (const n of [1, 2, 2]) expect((await pageOf(reader.cookie, n)).status).toBe(200);
    // The school's object counts them; its flush (the alarm's, here on demand) writes the rollup.
    expect(await db().select().from(readingDaily).where(eq(readingDaily.teacherId, reader.teacher.id))).toEqual([]);
    await flushUsage(school.id);
    const rows = await db().select().from(readingDaily).where(eq(readingDaily.teacherId, reader.teacher.id));
    expect(rows).toEqual([
      expect.objectContaining({
        day: new Date().toISOString().slice(0, 10),
        schoolId: school.id,
        bookId,
        teacherId: reader.teacher.id,
        pages: 3,
      }),
    ]);
  });
});

describe("the reading budget", () => {
  it("is per teacher, not per session: a second sign-in does not reset it", async () => {
    const reader = await signedInTeacher(school);
    const { limit } = pageBudget(3).hour;
    // One page short of the hourly limit, as if this teacher had read that much already.
    await setPagesSpent(school, reader.teacher.id, bookId, "h", limit - 1);
    expect((await pageOf(reader.cookie, 1)).status).toBe(200);

    const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
    const second = await openTeacherSession(env, school, reader.teacher, null);
    const refused = await pageOf(`__Host-lectern_teacher=${second}`, 2);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^You have reached the reading limit for this book/),
    });
    expect((await textOf(reader.cookie, 1)).status).toBe(429);
    expect((await search(reader.cookie, "light")).status).toBe(429);
    // Another teacher, and the same teacher's other books, are not affected.
    expect((await pageOf(teacher.cookie, 1)).status).toBe(200);
  });

  it("lets a teacher read the whole book twice an hour", () => {
    expect(pageBudget(500).hour.limit).toBe(2000);
    expect(pageBudget(3).hour.limit).toBe(200);
    expect(pageBudget(500).day.limit).toBeGreaterThan(pageBudget(500).hour.limit);
  });
});

describe("text, outline and search", () => {
  it("gives a page's text runs with positions", async () => {
    const response = await textOf(teacher.cookie, 2);
    expect(response.status).toBe(200);
    expect(await okBody(response)).toEqual({ n: 2, width: 612, height: 120, runs: [{ str: TEXTS[1], x: 72, y: 40, w: 300, h: 12 }] });
    expect((await textOf(teacher.cookie, 9)).status).toBe(404);
  });

  it("gives the outline", async () => {
    const response = books(teacher.cookie).outline.$get({ param: { id: String(bookId) } });
    expect(await okBody(response)).toEqual({ outline: [{ title: "Chapter 1", page: 2, items: [] }] });
  });

  it("finds the pages that hold a word, ignoring case, with the matches marked", async () => {
    const response = await search(teacher.cookie, "PHOTOSYNTHESIS");
    expect(response.status).toBe(200);
    const body = await okBody(response);
    expect(body.total).toBe(2);
    expect(body.results.map((r) => r.n)).toEqual([1, 2]);
    const [start, end] = body.results[1]!.highlights[0]!;
    expect(body.results[1]!.snippet.slice(start, end)).toBe("Photosynthesis");
    expect((await search(teacher.cookie, "")).status).toBe(400);
    expect((await search(teacher.cookie, "x".repeat(101))).status).toBe(400);
    const stranger = await signedInTeacher(await createSchool());
    expect((await search(stranger.cookie, "light")).status).toBe(404);
  });
});

import { env } from "cloudflare:test";
import { and, desc, eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminBook } from "../../workers/books/detail.ts";
import { auditLog, bookAccess, books, readingProgress, schools, uploads } from "../../workers/db/schema.ts";
import { api, client, createBook, createSchool, db, errorBody, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let cookie: string;

beforeAll(async () => {
  admin = await signedInAdmin();
  cookie = admin.cookie;
});

/** The typed client, as the signed-in admin. */
const asAdmin = () => client({ cookie });
type ListQuery = InferRequestType<ReturnType<typeof asAdmin>["api"]["books"]["$get"]>["query"];
/** GET /api/books, typed. */
const listBooks = async (query: ListQuery) => okBody(asAdmin().api.books.$get({ query }));
/** GET /api/books/search (the picker), typed. */
const pick = async (query: string) => okBody(asAdmin().api.books.search.$get({ query: { query } }));
type BookBody = InferRequestType<ReturnType<typeof asAdmin>["api"]["books"]["$post"]>["json"];
/** POST /api/books, typed. */
const postBook = (json: BookBody) => asAdmin().api.books.$post({ json });
/** GET, PUT and DELETE /api/books/:id, typed. */
const oneBook = (id: number) => ({ param: { id: String(id) } });

async function auditFor(entityType: string, entityId: string | number) {
  return db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, String(entityId))))
    .orderBy(desc(auditLog.id));
}

const VALID = { title: "Rivers of the World", author1: "Ada Brook" };

describe("admin books: who may call", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/books"],
    ["GET", "/api/books/search?query=river"],
    ["GET", "/api/books/access?schoolId=1"],
    ["POST", "/api/books", VALID],
    ["GET", "/api/books/1"],
    ["PUT", "/api/books/1", { title: "X" }],
    ["DELETE", "/api/books/1"],
    ["POST", "/api/books/1/assign-all-schools", {}],
    ["POST", "/api/books/access", { schoolIds: [1], bookIds: [1] }],
    ["DELETE", "/api/books/access/1/1"],
    ["POST", "/api/books/1/upload/pdf", { size: 10 }],
  ];

  it("answers 401 without a session and with a teacher's", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    for (const [method, path, body] of routes) {
      // One loop over a table of routes (paths as strings): raw calls.
      for (const who of [null, teacher.cookie]) {
        const response = await api(path, { method, body, cookie: who });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(await response.json()).toEqual({ error: "Admin sign-in required" });
      }
    }
    expect(await db().select().from(books).where(eq(books.title, VALID.title))).toEqual([]);
  });

  it("refuses a write from another origin", async () => {
    const response = await client({ cookie, origin: "https://evil.test" }).api.books.$post({ json: VALID });
    expect(response.status).toBe(403);
  });

  it("leaves the teacher's cover endpoint working, and the PDF closed to teachers", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const book = await createBook({ title: "Shared Shelf" }, [school.id]);
    const cover = await client(teacher).api.books[":id"].thumbnail.$get({ param: { id: String(book.id) }, query: {} });
    expect(cover.status).toBe(200);
    expect(cover.headers.get("Content-Type")).toBe("image/png");
    // The reader's own headers, which the typed client does not send: raw.
    const pdf = await api(`/api/books/${book.id}/pdf`, {
      cookie: teacher.cookie,
      headers: { "Sec-Fetch-Dest": "empty", "X-Lectern-Reader": "1", Range: "bytes=0-4" },
    });
    expect(pdf.status).toBe(403);
    expect(new TextDecoder().decode(await pdf.arrayBuffer())).not.toContain("%PDF-");
  });
});

describe("POST /api/books validation", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...VALID, isbn: "978-0-306-40615-8" }, "isbn", "This ISBN's check digit is wrong"],
    [{ ...VALID, isbn: "0-8044-2957-1" }, "isbn", "This ISBN's check digit is wrong"],
    [{ ...VALID, isbn: "12345" }, "isbn", "Enter a 10- or 13-digit ISBN"],
    [{ ...VALID, isbn: "978-0-306-4061A-7" }, "isbn", "Enter a 10- or 13-digit ISBN"],
    [{ ...VALID, gradeLevel: 13 }, "gradeLevel", "Grade must be 1 to 12"],
    [{ ...VALID, title: "   " }, "title", "Enter a title"],
    [{ title: "No Author" }, "author1", "Enter the first author"],
  ];

  it.each(cases)("refuses %j: a sentence, and the field apart from it", async (body, field, error) => {
    // Among these bodies is one without its first author, which the typed client would not send: raw.
    const response = await api("/api/books", { body, cookie });
    expect(response.status).toBe(400);
    const refused = await errorBody(response);
    expect(refused.error).toContain(error);
    expect(refused.error).not.toContain(":");
    expect(refused.field).toBe(field);
  });

  it("refuses grades 0 and 2.5", async () => {
    for (const gradeLevel of [0, 2.5, "3"]) {
      // A grade as text, which the typed client would not send: raw.
      const response = await api("/api/books", { body: { ...VALID, gradeLevel }, cookie });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).field).toBe("gradeLevel");
    }
  });

  it("takes ISBN-10 (with X) and ISBN-13, stored as typed but trimmed", async () => {
    for (const isbn of ["0-8044-2957-X", "  978-0-306-40615-7 ", "9780306406157"]) {
      const response = await postBook({ ...VALID, isbn, gradeLevel: 12 });
      expect(response.status).toBe(201);
      expect((await okBody(response)).book).toMatchObject({ isbn: isbn.trim(), gradeLevel: 12 });
    }
  });
});

describe("book CRUD", () => {
  it("creates, reads, updates and deletes, with an audit row for each write", async () => {
    const created = await postBook({
      title: " Deep Oceans ",
      author1: "Mara Finn",
      author2: "",
      description: "Tides.",
      isbn: "978-0-306-40615-7",
      gradeLevel: 5,
      subject: "Science",
    });
    expect(created.status).toBe(201);
    const { book } = await okBody(created);
    expect(book).toMatchObject({
      title: "Deep Oceans",
      author1: "Mara Finn",
      author2: null,
      description: "Tides.",
      gradeLevel: 5,
      subject: "Science",
      thumbnailPath: null,
      pdfPath: null,
      pdfSize: null,
      pageCount: null,
      updatedAt: null,
      schoolCount: 0,
    });
    const [createAudit] = await auditFor("book", book.id);
    expect(createAudit).toMatchObject({ action: "book.create", adminId: admin.admin.id, adminEmail: admin.admin.email });
    expect(createAudit!.after).toMatchObject({ id: book.id, title: "Deep Oceans" });

    const school = await createSchool({ name: "Aardvark Academy" });
    await db().insert(bookAccess).values({ schoolId: school.id, bookId: book.id });
    const read = asAdmin().api.books[":id"].$get(oneBook(book.id));
    expect(await okBody(read)).toEqual({
      book: { ...book, schoolCount: 1, schools: [{ id: school.id, schoolName: "Aardvark Academy", slug: school.slug }] },
    });

    const update = (json: InferRequestType<ReturnType<typeof asAdmin>["api"]["books"][":id"]["$put"]>["json"]) =>
      asAdmin().api.books[":id"].$put({ ...oneBook(book.id), json });
    const updated = await update({ subject: "Geography", gradeLevel: null, isbn: "" });
    expect(updated.status).toBe(200);
    const after = (await okBody(updated)).book;
    expect(after).toMatchObject({ title: "Deep Oceans", subject: "Geography", gradeLevel: null, isbn: null, schoolCount: 1 });
    expect(after.updatedAt).toBeGreaterThan(0);
    const [updateAudit] = await auditFor("book", book.id);
    expect(updateAudit).toMatchObject({ action: "book.update" });
    expect(updateAudit!.before).toMatchObject({ subject: "Science", gradeLevel: 5 });
    expect(updateAudit!.after).toMatchObject({ subject: "Geography", gradeLevel: null });

    const badUpdate = await update({ isbn: "0-8044-2957-1" });
    expect(await badUpdate.json()).toEqual({ error: "This ISBN's check digit is wrong", field: "isbn" });
    expect((await update({})).status).toBe(400);

    const deleted = asAdmin().api.books[":id"].$delete(oneBook(book.id));
    expect(await okBody(deleted)).toEqual({ ok: true });
    expect(await db().select().from(books).where(eq(books.id, book.id))).toEqual([]);
    const [deleteAudit] = await auditFor("book", book.id);
    expect(deleteAudit).toMatchObject({ action: "book.delete" });
    expect(deleteAudit!.before).toMatchObject({ id: book.id, subject: "Geography" });
  });

  it("answers 404 for a book that is not there", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/books/999999"],
      ["GET", "/api/books/abc"],
      ["PUT", "/api/books/999999", { title: "x" }],
      ["DELETE", "/api/books/999999"],
      ["POST", "/api/books/999999/assign-all-schools"],
    ] as const) {
      // One loop over a table of routes (paths as strings): raw calls.
      const response = await api(path, { method, body, cookie });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({ error: "Book not found" });
    }
  });

  it("delete removes assignments, progress, upload rows, in-flight uploads and the R2 objects", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school);
    const book = await createBook({ title: "Doomed Volume" }, [school.id]);
    await db().insert(readingProgress).values({ teacherId: teacher.id, bookId: book.id, page: 4, updatedAt: Date.now() });
    const started = await okBody(asAdmin().api.books[":id"].upload.pdf.$post({ param: { id: String(book.id) }, json: { size: 1000 } }));
    const [upload] = await db().select().from(uploads).where(eq(uploads.id, started.uploadId));
    expect(upload).toBeDefined();

    expect((await asAdmin().api.books[":id"].$delete(oneBook(book.id))).status).toBe(200);
    expect(await db().select().from(bookAccess).where(eq(bookAccess.bookId, book.id))).toEqual([]);
    expect(await db().select().from(readingProgress).where(eq(readingProgress.bookId, book.id))).toEqual([]);
    expect(await db().select().from(uploads).where(eq(uploads.bookId, book.id))).toEqual([]);
    expect(await env.BOOKS.head(book.coverKey!)).toBeNull();
    expect(await env.BOOKS.head(book.pdfKey!)).toBeNull();
    // The multipart upload was aborted: it takes no more parts.
    const multipart = env.BOOKS.resumeMultipartUpload(upload!.objectKey, upload!.r2UploadId);
    await expect(multipart.uploadPart(1, new Uint8Array(1000))).rejects.toThrow();
    expect((await env.BOOKS.list({ prefix: `books/${book.id}/` })).objects).toEqual([]);
  });
});

describe("GET /api/books and /api/books/search", () => {
  const token = `qz${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;
  const COUNT = 300;
  let ids: number[];

  beforeAll(async () => {
    const rows = Array.from({ length: COUNT }, (_, i) => ({
      title: `${token} Volume ${String((i * 7) % COUNT).padStart(3, "0")}`,
      author1: `Writer ${i}`,
      grade: i % 13 === 0 ? null : (i % 12) + 1,
      createdAt: 1_700_000_000_000 + ((i * 37) % COUNT) * 1000,
    }));
    await env.DB.prepare(
      `INSERT INTO books (title, author1, grade_level, created_at)
       SELECT json_extract(value, '$.title'), json_extract(value, '$.author1'), json_extract(value, '$.grade'), json_extract(value, '$.createdAt')
       FROM json_each(?)`,
    )
      .bind(JSON.stringify(rows))
      .run();
    ids = (await db().select({ id: books.id }).from(books).where(eq(books.author1, "Writer 0"))).map((row) => row.id);
  });

  it("pages a search by title", async () => {
    const first = await listBooks({ query: token, sort: "title", pageSize: "25" });
    expect(first).toMatchObject({ total: COUNT, page: 1, pageSize: 25 });
    expect(first.books.map((b) => b.title)).toEqual(Array.from({ length: 25 }, (_, i) => `${token} Volume ${String(i).padStart(3, "0")}`));
    const third = await listBooks({ query: token, sort: "title", page: "3", pageSize: "25" });
    expect(third.books[0]!.title).toBe(`${token} Volume 050`);
    const last = await listBooks({ query: token, sort: "title", dir: "desc", page: "12", pageSize: "25" });
    expect(last.books.map((b) => b.title).at(-1)).toBe(`${token} Volume 000`);
    expect((await listBooks({ query: token, page: "13", pageSize: "25" })).books).toEqual([]);
  });

  it("sorts by creation time and by grade", async () => {
    const newest = await listBooks({ query: token, sort: "createdAt", dir: "desc", pageSize: "100" });
    const times = newest.books.map((b) => b.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(1_700_000_000_000 + (COUNT - 1) * 1000);

    const all: AdminBook[] = [];
    for (let page = 1; page <= 3; page++)
      all.push(...(await listBooks({ query: token, sort: "grade", page: String(page), pageSize: "100" })).books);
    expect(new Set(all.map((b) => b.id)).size).toBe(COUNT);
    const grades = all.map((b) => b.gradeLevel);
    const graded = grades.filter((g): g is number => g !== null);
    expect(graded).toEqual([...graded].sort((a, b) => a - b));
    expect(grades.slice(graded.length).every((g) => g === null)).toBe(true);
  });

  it("lists the whole catalogue in title order with a total and school counts", async () => {
    const school1 = await createSchool();
    const school2 = await createSchool();
    await db()
      .insert(bookAccess)
      .values([school1, school2].map((school) => ({ schoolId: school.id, bookId: ids[0]! })));
    const expected = await db().select({ id: books.id }).from(books).orderBy(books.title, books.id).limit(25).offset(25);
    const page = await listBooks({ page: "2", pageSize: "25", sort: "title", dir: "asc" });
    expect(page.total).toBe((await db().$count(books)) as number);
    expect(page.books.map((b) => b.id)).toEqual(expected.map((row) => row.id));
    const counted = await listBooks({ query: `${token} Volume 000` });
    expect(counted.total).toBe(1);
    expect(counted.books.find((b) => b.id === ids[0])?.schoolCount).toBe(2);
  });

  it("finds by author through FTS and nothing for junk", async () => {
    const found = await listBooks({ query: `${token} writer 42` });
    expect(found.total).toBe(1);
    expect(found.books[0]!.author1).toBe("Writer 42");
    expect(await listBooks({ query: '"(*' })).toEqual({ books: [], total: 0, page: 1, pageSize: 25 });
    expect((await listBooks({ query: "nothingmatchesthiszz" })).total).toBe(0);
    expect((await asAdmin().api.books.$get({ query: { pageSize: "500" } })).status).toBe(400);
    // A sort the API does not know, which the typed client would not send: raw.
    expect((await api("/api/books?sort=isbn", { cookie })).status).toBe(400);
  });

  it("searches with at most 20 results in the picker's shape", async () => {
    const response = await pick(token);
    expect(response.books).toHaveLength(20);
    const [book] = await db()
      .insert(books)
      .values({ title: "", author1: `${token}untitled`, author2: "Second Hand", isbn: "0-8044-2957-X" })
      .returning();
    const untitled = await pick(`${token}untitled`);
    expect(untitled.books).toEqual([
      {
        id: book!.id,
        title: "Untitled Book",
        description: "",
        thumbnail: null,
        authors: `${token}untitled, Second Hand`,
        isbn: "0-8044-2957-X",
      },
    ]);
  });
});

describe("GET /api/books?query=: relevance, paging and sorts on a search", () => {
  const word = (prefix: string) => `${prefix}${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;
  // `common` matches enough books that a sorted search walks the sort's index; `rare` so few that it
  // reads its hits (the choice is hits x 20 against the highest book id, checked below).
  const common = word("rk");
  const rare = word("rr");
  const COMMON = 60;
  const NAMES = ["Delta", "Alpha", "Echo", "Charlie", "Bravo", "Golf", "Foxtrot"];
  let maxId = 0;
  const rareIds: Record<"title" | "author" | "description", number> = { title: 0, author: 0, description: 0 };

  beforeAll(async () => {
    // Where the word sits (title, author, description or subject) sets the rank; within one place
    // every book has the same token counts, so bm25 ties and the title (then the id) decides.
    const rows = Array.from({ length: COMMON }, (_, i) => {
      const place = i % 4;
      return {
        title: place === 0 ? `${common} ${NAMES[i % 7]}` : `${NAMES[i % 7]} Reader`,
        author1: place === 1 ? `Ann ${common}` : "Ann Lee",
        description: place === 2 ? `About ${common} here.` : "About rivers here.",
        subject: place === 3 ? common : "History",
        grade: i % 5 === 0 ? null : (i % 12) + 1,
        createdAt: 1_700_000_000_000 + (i % 9) * 1000,
      };
    });
    rows.push(
      { title: "Plain Pages", author1: "Ann Lee", description: `About ${rare} here.`, subject: "History", grade: 3, createdAt: 1 },
      { title: `${rare} Pages`, author1: "Ann Lee", description: "About rivers here.", subject: "History", grade: null, createdAt: 2 },
      { title: "Plain Pages", author1: `Ann ${rare}`, description: "About rivers here.", subject: "History", grade: 1, createdAt: 2 },
    );
    await env.DB.prepare(
      `INSERT INTO books (title, author1, description, subject, grade_level, created_at)
       SELECT json_extract(value, '$.title'), json_extract(value, '$.author1'), json_extract(value, '$.description'),
              json_extract(value, '$.subject'), json_extract(value, '$.grade'), json_extract(value, '$.createdAt')
       FROM json_each(?)`,
    )
      .bind(JSON.stringify(rows))
      .run();
    const found = await env.DB.prepare(
      "SELECT id, title, author1, description FROM books WHERE id IN (SELECT rowid FROM books_fts WHERE books_fts MATCH ?)",
    )
      .bind(`"${rare}"*`)
      .all<{ id: number; title: string; author1: string; description: string }>();
    for (const book of found.results) {
      if (book.title.includes(rare)) rareIds.title = book.id;
      else if (book.author1.includes(rare)) rareIds.author = book.id;
      else rareIds.description = book.id;
    }
    maxId = (await env.DB.prepare("SELECT max(id) AS id FROM books").first<{ id: number }>())!.id;
  });

  /** The order as a plain query over every hit states it, to hold the pages against. */
  async function expectedOrder(term: string, orderBy: string) {
    const { results } = await env.DB.prepare(
      `SELECT books.id FROM books_fts JOIN books ON books.id = books_fts.rowid WHERE books_fts MATCH ? ORDER BY ${orderBy}`,
    )
      .bind(`"${term}"*`)
      .all<{ id: number }>();
    return results.map((row) => row.id);
  }

  /** Every page of a listing, and one past the last, each checked for the total. */
  async function walkPages(query: ListQuery, pageSize: number, total: number) {
    const seen: number[] = [];
    const pages = Math.ceil(total / pageSize);
    for (let page = 1; page <= pages + 1; page++) {
      const body = await listBooks({ ...query, page: String(page), pageSize: String(pageSize) });
      expect(body.total, `total on page ${page}`).toBe(total);
      expect(body.books.length, `size of page ${page}`).toBe(page <= pages ? Math.min(pageSize, total - (page - 1) * pageSize) : 0);
      seen.push(...body.books.map((book) => book.id));
    }
    return seen;
  }

  it("ranks a title match above an author match above a description-only one, in the list and the picker", async () => {
    const ranked = [rareIds.title, rareIds.author, rareIds.description];
    const page = await listBooks({ query: rare });
    expect(page.total).toBe(3);
    expect(page.books.map((book) => book.id)).toEqual(ranked);
    const picker = await pick(rare);
    expect(picker.books.map((book) => book.id)).toEqual(ranked);
  });

  it("breaks relevance ties by title, then id", async () => {
    const page = await listBooks({ query: common, pageSize: "20" });
    const inTitle = page.books.slice(0, COMMON / 4);
    expect(inTitle.every((book) => book.title.startsWith(common))).toBe(true);
    const byTitle = [...inTitle].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
    expect(inTitle.map((book) => book.id)).toEqual(byTitle.map((book) => book.id));
    expect(page.books[COMMON / 4]!.title).not.toContain(common);
  });

  it("pages through every hit by relevance with no duplicates or gaps, ties split across pages", async () => {
    const expected = await expectedOrder(common, "bm25(books_fts, 10.0, 5.0, 3.0, 3.0, 1.0), books.title, books.id");
    expect(expected).toHaveLength(COMMON);
    expect(await walkPages({ query: common }, 7, COMMON)).toEqual(expected);
    const picker = await pick(common);
    expect(picker.books.map((book) => book.id)).toEqual(expected.slice(0, 20));
  });

  const sorts: [string, string, string][] = [
    ["title", "asc", "books.title ASC, books.id ASC"],
    ["title", "desc", "books.title DESC, books.id DESC"],
    ["createdAt", "asc", "books.created_at ASC, books.id ASC"],
    ["createdAt", "desc", "books.created_at DESC, books.id DESC"],
    ["grade", "asc", "books.grade_level ASC NULLS LAST, books.title ASC, books.id ASC"],
    ["grade", "desc", "books.grade_level DESC NULLS LAST, books.title ASC, books.id ASC"],
  ];

  it.each(sorts)("pages a search sorted by %s %s, for a common and a rare word", async (sort, dir, orderBy) => {
    expect(COMMON * 20).toBeGreaterThan(maxId);
    expect(3 * 20).toBeLessThan(maxId);
    for (const [term, total, pageSize] of [
      [common, COMMON, 7],
      [rare, 3, 2],
    ] as const) {
      const expected = await expectedOrder(term, orderBy);
      expect(expected).toHaveLength(total);
      expect(await walkPages({ query: term, sort, dir }, pageSize, total), term).toEqual(expected);
    }
  });
});

describe("assignments", () => {
  it("assign-all-schools assigns only what is missing, and again assigns nothing", async () => {
    const school = await createSchool();
    await createSchool();
    const book = await createBook({ title: "For Everyone" }, [school.id]);
    const schoolCount = (await db().$count(schools)) as number;
    const assignAll = () => asAdmin().api.books[":id"]["assign-all-schools"].$post({ param: { id: String(book.id) } });
    expect(await okBody(assignAll())).toEqual({ assigned: schoolCount - 1 });
    expect(await db().$count(bookAccess, eq(bookAccess.bookId, book.id))).toBe(schoolCount);
    expect(await okBody(assignAll())).toEqual({ assigned: 0 });
    const [audit, earlier] = await auditFor("book", book.id);
    expect(audit).toMatchObject({ action: "book.assign_all", after: { assigned: 0 } });
    expect(earlier).toMatchObject({ action: "book.assign_all", after: { assigned: schoolCount - 1 } });
  });

  it("grants, lists and revokes access", async () => {
    const [a, b] = [await createSchool({ name: "Alpha School" }), await createSchool({ name: "Beta School" })];
    const [x, y] = [await createBook({ title: "Xylophones" }), await createBook({ title: "Yachts" })];
    await db().insert(bookAccess).values({ schoolId: a.id, bookId: x.id });

    const grant = (json: InferRequestType<ReturnType<typeof asAdmin>["api"]["books"]["access"]["$post"]>["json"]) =>
      asAdmin().api.books.access.$post({ json });
    const missing = await grant({ schoolIds: [a.id, 999_998, 999_999], bookIds: [x.id] });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "No school with id 999998, 999999" });
    const missingBook = await grant({ schoolIds: [a.id], bookIds: [999_999] });
    expect(await missingBook.json()).toEqual({ error: "No book with id 999999" });
    const tooMany = await grant({ schoolIds: Array.from({ length: 501 }, (_, i) => i + 1), bookIds: [x.id] });
    expect(await tooMany.json()).toEqual({ error: "Choose at most 500 schools at a time", field: "schoolIds" });

    const granted = await grant({ schoolIds: [a.id, b.id], bookIds: [x.id, y.id, y.id] });
    expect(await okBody(granted)).toEqual({ created: 3 });
    const grantAudit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "book_access.grant"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(grantAudit[0]!.after).toEqual({ schoolIds: [a.id, b.id], bookIds: [x.id, y.id], created: 3 });
    expect(await okBody(grant({ schoolIds: [a.id, b.id], bookIds: [x.id, y.id] }))).toEqual({ created: 0 });

    const bySchool = await okBody(asAdmin().api.books.access.$get({ query: { schoolId: String(a.id) } }));
    expect(bySchool.access).toEqual([
      { schoolId: a.id, bookId: x.id, schoolName: "Alpha School", slug: a.slug, title: "Xylophones" },
      { schoolId: a.id, bookId: y.id, schoolName: "Alpha School", slug: a.slug, title: "Yachts" },
    ]);
    const byBook = await okBody(asAdmin().api.books.access.$get({ query: { bookId: String(y.id) } }));
    expect(byBook.access.map((row) => row.schoolId)).toEqual([a.id, b.id]);
    const pair = await okBody(asAdmin().api.books.access.$get({ query: { schoolId: String(b.id), bookId: String(x.id) } }));
    expect(pair.access).toHaveLength(1);
    expect((await asAdmin().api.books.access.$get({ query: {} })).status).toBe(400);

    const revoke = () =>
      asAdmin().api.books.access[":schoolId"][":bookId"].$delete({ param: { schoolId: String(b.id), bookId: String(x.id) } });
    expect(await okBody(revoke())).toEqual({ ok: true });
    expect(await db().$count(bookAccess, and(eq(bookAccess.schoolId, b.id), eq(bookAccess.bookId, x.id)))).toBe(0);
    const [revokeAudit] = await auditFor("book_access", `${b.id}:${x.id}`);
    expect(revokeAudit).toMatchObject({ action: "book_access.revoke", before: { schoolId: b.id, bookId: x.id } });
    expect((await revoke()).status).toBe(404);
  });
});

import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books, pageSetPages, pageSets } from "../../workers/db/schema.ts";
import { createUploadedPageSet } from "../../workers/page-images/page-sets.ts";
import { api, client, createBook, createSchool, db, errorOf, objectSessions, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { pageImages, pagePng, pageText, preparedBook, putPage } from "./page-fixtures.ts";

async function bookRow(id: number) {
  const [row] = await db().select().from(books).where(eq(books.id, id));
  return row!;
}

async function objectsUnder(prefix: string) {
  return (await env.BOOKS.list({ prefix })).objects.map((o) => o.key);
}

describe("preparing pages through the admin API", () => {
  it("replaces a book's PDF and pages in one step once every page exists", async () => {
    const school = await createSchool();
    const { book, setId: oldSet } = await preparedBook("Replaced Book", [school.id], ["old first page", "old second page"]);
    const { cookie } = await signedInAdmin();
    const newPdf = `books/${book.id}/replacement.pdf`;
    await env.BOOKS.put(newPdf, new TextEncoder().encode("%PDF-1.7 new"));
    const set = await createUploadedPageSet(db(), env.BOOKS, await bookRow(book.id), { key: newPdf, size: 12, pageCount: 3 });

    const status = await okBody(client({ cookie }).api.books[":id"]["page-sets"].$get({ param: { id: String(book.id) } }));
    expect(status.ready).toMatchObject({ id: oldSet, done: [1, 2] });
    expect(status.preparing).toMatchObject({ id: set.id, pageCount: 3, done: [] });

    const sets = client({ cookie }).api.books[":id"]["page-sets"];
    const opened = await sets.$post({ param: { id: String(book.id) }, json: { pageCount: 3 } });
    expect(await opened.json()).toMatchObject({ id: set.id, pdfUrl: `/api/books/${book.id}/page-sets/${set.id}/pdf` });
    expect((await sets.$post({ param: { id: String(book.id) }, json: { pageCount: 4 } })).status).toBe(409);

    expect((await putPage(cookie, book.id, set.id, 1)).status).toBe(200);
    expect((await putPage(cookie, book.id, set.id, 2)).status).toBe(200);
    // Half-way, teachers still read the old pages, and completing is refused.
    const teacher = await signedInTeacher(school);
    const midway = await okBody(client(teacher).api.books[":id"].search.$get({ param: { id: String(book.id) }, query: { q: "old" } }));
    expect(midway.total).toBe(2);
    const param = { id: String(book.id), setId: String(set.id) };
    const early = await sets[":setId"].complete.$post({ param, json: { text: ["a", "b", "c"] } });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ missing: [3] });

    const failure = await sets[":setId"].pages[":n"].failure.$put({
      param: { ...param, n: "3" },
      json: { width: 612, height: 792, error: "Invalid JPX stream" },
    });
    expect(failure.status).toBe(200);
    const done = await sets[":setId"].complete.$post({ param, json: { text: ["new one", "new two", ""], outline: [] } });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ pageCount: 3, failed: [3] });

    const row = await bookRow(book.id);
    expect(row).toMatchObject({ pdfKey: newPdf, pageSetId: set.id, pageCount: 3 });
    expect(await objectsUnder(`pages/${book.id}/${oldSet}/`)).toEqual([]);
    expect(await env.BOOKS.head(book.pdfKey!)).toBeNull();
    expect(await db().select().from(pageSets).where(eq(pageSets.id, oldSet))).toEqual([]);
    const list = await okBody(client(teacher).api.books[":id"].pages.$get({ param: { id: String(book.id) } }));
    expect(list.pages).toEqual([
      { n: 1, width: 612, height: 120 },
      { n: 2, width: 612, height: 120 },
      { n: 3, width: 612, height: 792, failed: true },
    ]);
    const failed = await client(teacher).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "3" } });
    expect(failed.status).toBe(404);
    expect(await failed.json()).toMatchObject({ status: "failed" });
    const search = await okBody(client(teacher).api.books[":id"].search.$get({ param: { id: String(book.id) }, query: { q: "new" } }));
    expect(search.total).toBe(2);
  });

  it("keeps a failed page's number: page 2 failed, pages 1 and 3 stored make a 3-page book", async () => {
    const school = await createSchool();
    const book = await createBook({ title: "Broken Page Tree" }, [school.id]);
    const { cookie } = await signedInAdmin();
    const pdf = `books/${book.id}/broken-tree.pdf`;
    await env.BOOKS.put(pdf, new TextEncoder().encode("%PDF-1.7 three pages"));
    const set = await createUploadedPageSet(db(), env.BOOKS, book, { key: pdf, size: 20, pageCount: 3 });
    const error = "The PDF's page tree holds object 7, a number instead of a page, so there is no page here.";
    expect((await putPage(cookie, book.id, set.id, 3, pageImages(60), pageText("the third page"))).status).toBe(200);
    expect((await putPage(cookie, book.id, set.id, 1)).status).toBe(200);
    const pageSet = client({ cookie }).api.books[":id"]["page-sets"][":setId"];
    const param = { id: String(book.id), setId: String(set.id) };
    const failure = await pageSet.pages[":n"].failure.$put({ param: { ...param, n: "2" }, json: { width: 612, height: 792, error } });
    expect(failure.status).toBe(200);
    const done = await pageSet.complete.$post({ param, json: { text: ["words of page 1", "", "the third page"], outline: [] } });
    expect(await done.json()).toEqual({ pageCount: 3, failed: [2] });
    expect(await bookRow(book.id)).toMatchObject({ pageCount: 3, pageSetId: set.id, pdfKey: pdf });

    const teacher = await signedInTeacher(school);
    const list = await okBody(client(teacher).api.books[":id"].pages.$get({ param: { id: String(book.id) } }));
    expect(list.pages).toEqual([
      { n: 1, width: 612, height: 120 },
      { n: 2, width: 612, height: 792, failed: true },
      { n: 3, width: 612, height: 120 },
    ]);
    const second = await client(teacher).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "2" } });
    expect(second.status).toBe(404);
    expect(await second.json()).toMatchObject({ error: "This page could not be displayed.", status: "failed" });
    // Raw: the route reads `w` itself (not declared to Hono), so the typed client cannot send it.
    const third = await api(`/api/books/${book.id}/pages/3?w=1024`, { cookie: teacher.cookie });
    expect(third.status).toBe(200);
    expect(third.headers.get("Content-Type")).toBe("image/png");
    const text = await okBody(client(teacher).api.books[":id"].pages[":n"].text.$get({ param: { id: String(book.id), n: "3" } }));
    expect(text.runs[0]?.str).toBe("the third page");
    const admin = await okBody(client({ cookie }).api.books[":id"]["page-sets"].$get({ param: { id: String(book.id) } }));
    expect(admin.ready).toMatchObject({ done: [1, 3], failed: [{ n: 2, error }] });
  });

  it("refuses a PDF none of whose pages render, and leaves the book as it was", async () => {
    const { book, setId } = await preparedBook("Kept Book", [], ["kept"]);
    const { cookie } = await signedInAdmin();
    const brokenPdf = `books/${book.id}/broken.pdf`;
    await env.BOOKS.put(brokenPdf, new TextEncoder().encode("%PDF-1.7 broken"));
    const set = await createUploadedPageSet(db(), env.BOOKS, await bookRow(book.id), { key: brokenPdf, size: 15, pageCount: 2 });
    const pageSet = client({ cookie }).api.books[":id"]["page-sets"][":setId"];
    const param = { id: String(book.id), setId: String(set.id) };
    for (const n of [1, 2]) {
      const response = await pageSet.pages[":n"].failure.$put({ param: { ...param, n: String(n) }, json: { error: "bad XRef" } });
      expect(response.status).toBe(200);
    }
    const refused = await pageSet.complete.$post({ param, json: { text: ["", ""] } });
    expect(refused.status).toBe(422);
    expect(await errorOf(refused)).toMatch(/^None of the 2 pages of this PDF could be rendered, so it was not added/);
    expect(await bookRow(book.id)).toMatchObject({ pdfKey: book.pdfKey, pageSetId: setId });
    expect(await env.BOOKS.head(brokenPdf)).toBeNull();
    expect(await db().select().from(pageSets).where(eq(pageSets.id, set.id))).toEqual([]);
  });

  it("checks each page image by content and size, and takes them from admins only", async () => {
    const book = await createBook({ title: "Checked" });
    const { cookie } = await signedInAdmin();
    const opened = await okBody(
      client({ cookie }).api.books[":id"]["page-sets"].$post({ param: { id: String(book.id) }, json: { pageCount: 2 } }),
    );
    const notPng = new Map(pageImages());
    notPng.set(1024, new TextEncoder().encode("GIF89a not a png at all"));
    expect((await putPage(cookie, book.id, opened.id, 1, notPng)).status).toBe(415);
    const tooWide = new Map(pageImages());
    tooWide.set(1024, pagePng(1100, 200));
    expect((await putPage(cookie, book.id, opened.id, 1, tooWide)).status).toBe(400);
    const missing = new Map(pageImages());
    missing.delete(2048);
    expect((await putPage(cookie, book.id, opened.id, 1, missing)).status).toBe(400);
    expect((await putPage(cookie, book.id, opened.id, 1, pageImages(), { width: -1, runs: [] })).status).toBe(400);
    expect((await putPage(cookie, book.id, opened.id, 3)).status).toBe(400);
    expect((await putPage(cookie, book.id, opened.id, 0)).status).toBe(400);
    expect(await db().select().from(pageSetPages).where(eq(pageSetPages.setId, opened.id))).toEqual([]);

    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    expect((await putPage(teacher.cookie, book.id, opened.id, 1)).status).toBe(401);
    const asTeacher = client(teacher).api.books[":id"]["page-sets"];
    expect((await asTeacher.$post({ param: { id: String(book.id) }, json: { pageCount: 2 } })).status).toBe(401);
    expect((await asTeacher[":setId"].pdf.$get({ param: { id: String(book.id), setId: String(opened.id) } })).status).toBe(401);
    // Another book's set is unknown here.
    const other = await createBook({ title: "Other" });
    expect((await putPage(cookie, other.id, opened.id, 1)).status).toBe(404);
    expect((await putPage(cookie, book.id, opened.id, 1)).status).toBe(200);
  });

  it("deletes every page of a book with the book", async () => {
    const { book } = await preparedBook("Gone Book", [], ["one", "two"]);
    expect((await objectsUnder(`pages/${book.id}/`)).length).toBeGreaterThan(0);
    const { cookie } = await signedInAdmin();
    expect((await client({ cookie }).api.books[":id"].$delete({ param: { id: String(book.id) } })).status).toBe(200);
    expect(await objectsUnder(`pages/${book.id}/`)).toEqual([]);
  });
});

describe("teacher sessions per school", () => {
  it("ends the oldest session when a fourth sign-in passes the default limit of 3", async () => {
    const school = await createSchool();
    const { hashPassword } = await import("../../workers/auth/password.ts");
    const { teachers } = await import("../../workers/db/schema.ts");
    const email = `cap-${crypto.randomUUID().slice(0, 8)}@school.test`;
    await db()
      .insert(teachers)
      .values({
        schoolId: school.id,
        name: "Sam Cap",
        email,
        mobile: "5551230000",
        passwordHash: await hashPassword("correct horse battery"),
      });
    const cookies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await client({ ip: `10.0.0.${i}` }).api.teacher.login.$post({
        json: { email, password: "correct horse battery", slug: school.slug },
      });
      expect(response.status).toBe(200);
      cookies.push((response.headers.get("Set-Cookie") ?? "").split(";")[0]!);
    }
    const verify = (cookie: string) =>
      client({ cookie })
        .api.teacher["verify-token"].$get()
        .then((r) => r.status);
    expect(await verify(cookies[0]!)).toBe(401);
    for (const cookie of cookies.slice(1)) expect(await verify(cookie)).toBe(200);
    expect(await objectSessions(school.id)).toHaveLength(3);
  });

  it("lets an admin set the limit per school, from 1 to 20", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    for (const bad of [0, 21, 2.5, "3"]) {
      // Raw: the table holds a limit of the wrong type ("3"), which the typed client would not send.
      const refused = await api(`/api/schools/${school.id}`, { cookie, method: "PUT", body: { sessionLimit: bad } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: "Sessions per teacher must be a whole number from 1 to 20", field: "sessionLimit" });
    }
    const limited = await client({ cookie }).api.schools[":id"].$put({ param: { id: String(school.id) }, json: { sessionLimit: 1 } });
    expect(limited.status).toBe(200);
    const { hashPassword } = await import("../../workers/auth/password.ts");
    const { teachers } = await import("../../workers/db/schema.ts");
    const email = `one-${crypto.randomUUID().slice(0, 8)}@school.test`;
    await db()
      .insert(teachers)
      .values({ schoolId: school.id, name: "Uno", email, mobile: "5551230001", passwordHash: await hashPassword("correct horse battery") });
    const signIn = async () =>
      (
        (await client().api.teacher.login.$post({ json: { email, password: "correct horse battery", slug: school.slug } })).headers.get(
          "Set-Cookie",
        ) ?? ""
      ).split(";")[0]!;
    const first = await signIn();
    const second = await signIn();
    expect((await client({ cookie: first }).api.teacher["verify-token"].$get()).status).toBe(401);
    expect((await client({ cookie: second }).api.teacher["verify-token"].$get()).status).toBe(200);
  });
});

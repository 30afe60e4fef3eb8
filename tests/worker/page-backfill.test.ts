// GET /api/books/awaiting-pages: what `npm run pages` prepares when it goes through the running app
// (scripts/lib/page-stores.ts). Admins only; a teacher's cookie or none gets nothing.
import { describe, expect, it } from "vitest";
import { client, createBook, createSchool, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

describe("books awaiting their pages", () => {
  it("lists books with a PDF and no pages, not books that are ready or have no PDF", async () => {
    const school = await createSchool();
    const waiting = await createBook({ title: "Waiting For Pages" }, [school.id]);
    const noPdf = await createBook({ title: "No PDF Yet" }, [school.id], { pdf: false });
    const { book: ready } = await preparedBook("Pages Ready", [school.id], ["one", "two"]);
    const { cookie } = await signedInAdmin();

    const all = await okBody(client({ cookie }).api.books["awaiting-pages"].$get({ query: {} }));
    const ids = all.books.map((b) => b.id);
    expect(ids).toContain(waiting.id);
    expect(ids).not.toContain(noPdf.id);
    expect(ids).not.toContain(ready.id);
    expect(all.books.find((b) => b.id === waiting.id)).toEqual({ id: waiting.id, title: "Waiting For Pages" });

    const one = await okBody(client({ cookie }).api.books["awaiting-pages"].$get({ query: { bookId: String(waiting.id) } }));
    expect(one.books.map((b) => b.id)).toEqual([waiting.id]);
    const bad = await client({ cookie }).api.books["awaiting-pages"].$get({ query: { bookId: "abc" } });
    expect(bad.status).toBe(400);
  });

  it("answers only admins", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    expect((await client(teacher).api.books["awaiting-pages"].$get({ query: {} })).status).toBe(401);
    expect((await client().api.books["awaiting-pages"].$get({ query: {} })).status).toBe(401);
  });
});

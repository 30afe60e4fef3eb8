// Issue #25 item 5: the books list said `pagesReady: false` for every book, while the book's own answer said true.
import { describe, expect, it } from "vitest";
import { client, createBook, createSchool, okBody, signedInAdmin } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

describe("GET /api/books", () => {
  it("says which books' pages are ready, as each book's own answer does", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    const ready = (await preparedBook(`Ready ${crypto.randomUUID()}`, [school.id], ["One."])).book;
    const waiting = await createBook({ title: `Waiting ${crypto.randomUUID()}` }, [school.id]);
    for (const [book, expected] of [
      [ready, true],
      [waiting, false],
    ] as const) {
      const own = await okBody(client({ cookie }).api.books[":id"].$get({ param: { id: String(book.id) } }));
      expect(own.book.pagesReady).toBe(expected);
      for (const query of [
        { pageSize: "100" },
        { sort: "title", dir: "desc", pageSize: "100" },
        { query: book.title },
        { query: book.title, sort: "title" },
        { sort: "createdAt", dir: "desc", pageSize: "100" },
      ] as const) {
        // Wherever the list puts it: the worker's database holds other files' books too.
        let listed: { id: number; pagesReady: boolean } | undefined;
        for (let page = 1; !listed; page++) {
          const { books } = await okBody(client({ cookie }).api.books.$get({ query: { ...query, page: String(page) } }));
          listed = books.find((b) => b.id === book.id);
          if (books.length === 0) break;
        }
        expect(listed?.pagesReady, JSON.stringify(query)).toBe(expected);
      }
    }
  });
});

// Issue #25 item 5: the books list said `pagesReady: false` for every book, while the book's own answer said true.
import { describe, expect, it } from "vitest";
import { api, createBook, createSchool, signedInAdmin } from "./helpers.ts";
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
      const own = (await (await api(`/api/books/${book.id}`, { cookie })).json()) as { book: { pagesReady: boolean } };
      expect(own.book.pagesReady).toBe(expected);
      for (const list of [
        "/api/books?pageSize=100",
        `/api/books?sort=title&dir=desc&page=1&pageSize=100`,
        `/api/books?query=${encodeURIComponent(book.title)}`,
        `/api/books?query=${encodeURIComponent(book.title)}&sort=title`,
        `/api/books?sort=createdAt&dir=desc&page=1&pageSize=100`,
      ]) {
        const { books } = (await (await api(list, { cookie })).json()) as { books: { id: number; pagesReady: boolean }[] };
        expect(books.find((b) => b.id === book.id)?.pagesReady, list).toBe(expected);
      }
    }
  });
});

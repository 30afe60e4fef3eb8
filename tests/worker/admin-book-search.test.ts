// The admin's catalogue search and book picker by relevance for a broad word (issue 41, item 13;
// docs/decisions/0037): past SCORE_EVERY_HIT hits, books whose title holds the words come first, by
// bm25, then the books that hold them elsewhere (authors, subject, ISBN, description) A–Z, however
// often they say them. bm25 scores only the title matches, which keeps a common word's search at a
// large catalogue near its small-catalogue time. A narrow search still ranks every hit by bm25
// (admin-books.test.ts).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { client, createBook, okBody, signedInAdmin } from "./helpers.ts";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
  // A word no other test's book holds.
  await createBook({ title: "Zebra Field Notes", description: "Notes on zymurgy." });
  await createBook({
    title: "Ocean Almanac",
    author1: "Zymurgy Press",
    subject: "Zymurgy",
    description: Array(12).fill("zymurgy").join(" "),
  });
  // A long description: bm25 over every column put the almanac (the word a dozen times) above it.
  await createBook({ title: "Zymurgy for Beginners", description: Array(80).fill("brewing at home").join(" ") });
  await createBook({ title: "Advanced Zymurgy and Zymurgy Again", description: "More brewing." });
  await createBook({ title: "Apple Orchards", description: "No match here." });
  // Enough books with the word in their description to make it a broad search.
  const fillers = Array.from({ length: FILLERS }, (_, i) => ({ title: filler(i + 1), description: "Notes on zymurgy." }));
  await env.DB.prepare(
    `INSERT INTO books (title, description) SELECT json_extract(value, '$.title'), json_extract(value, '$.description') FROM json_each(?)`,
  )
    .bind(JSON.stringify(fillers))
    .run();
});

/** One past SCORE_EVERY_HIT (workers/books/list.ts, 2,000). */
const FILLERS = 2_001;
const filler = (n: number) => `Filler ${String(n).padStart(4, "0")}`;
const TITLED = ["Advanced Zymurgy and Zymurgy Again", "Zymurgy for Beginners"];

const listTitles = async (query: string, page = 1, pageSize = 25) => {
  const response = await client(admin).api.books.$get({ query: { query, page: String(page), pageSize: String(pageSize) } });
  expect(response.status).toBe(200);
  const body = await okBody(response);
  return { titles: body.books.map((book) => book.title), total: body.total };
};

describe("the admin's book search by relevance", () => {
  it("lists title matches first (by bm25), then the other matches A–Z", async () => {
    const { titles, total } = await listTitles("zymurgy");
    expect(total).toBe(FILLERS + 4);
    expect(titles).toEqual([...TITLED, ...Array.from({ length: 23 }, (_, i) => filler(i + 1))]);
    const last = Math.ceil((FILLERS + 4) / 25);
    expect((await listTitles("zymurgy", last)).titles.slice(-3)).toEqual([filler(FILLERS), "Ocean Almanac", "Zebra Field Notes"]);
  });

  it("pages across the two groups without losing or repeating a book", async () => {
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(...(await listTitles("zymurgy", page, 1)).titles);
    expect(pages).toEqual([...TITLED, filler(1), filler(2)]);
    expect((await listTitles("zymurgy", 2, 3)).titles).toEqual([filler(2), filler(3), filler(4)]);
  });

  it("ranks the picker the same way", async () => {
    const response = await client(admin).api.books.search.$get({ query: { query: "zymurgy" } });
    expect(response.status).toBe(200);
    const body = await okBody(response);
    expect(body.books.map((book) => book.title)).toEqual([...TITLED, ...Array.from({ length: 18 }, (_, i) => filler(i + 1))]);
  });

  it("still narrows to every word, in any column", async () => {
    expect((await listTitles("zymurgy beginners")).titles).toEqual(["Zymurgy for Beginners"]);
    expect((await listTitles("zymurgy press")).titles).toEqual(["Ocean Almanac"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { api, client, createBook, createSchool, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

// Two schools, each with books the other does not have, and one teacher each. Every
// teacher-facing endpoint is called by teacher A with school B's slug and book ids, and by no one.
// Add every new teacher-facing endpoint to ENDPOINTS.

const B_TITLES = ["Bravo Secret Atlas", "Bravo Hidden Chemistry"];

let a: { slug: string; cookie: string; bookId: number };
let b: { slug: string; bookIds: number[] };

beforeAll(async () => {
  const schoolA = await createSchool({ name: "Alpha Academy" });
  const schoolB = await createSchool({ name: "Bravo Institute" });
  const bookA = await createBook({ title: "Alpha Only Reader" }, [schoolA.id]);
  // B's first book has its pages ready, so its page endpoints answer for a reason other than "still preparing".
  const prepared = await preparedBook(B_TITLES[0]!, [schoolB.id], [`${B_TITLES[0]} page one`, `${B_TITLES[0]} page two`]);
  const bookIds = [prepared.book.id];
  for (const title of B_TITLES.slice(1)) bookIds.push((await createBook({ title, description: `${title} description` }, [schoolB.id])).id);
  a = { slug: schoolA.slug, cookie: (await signedInTeacher(schoolA)).cookie, bookId: bookA.id };
  b = { slug: schoolB.slug, bookIds };
});

type Endpoint = { name: string; path: () => string; method?: string };

const ENDPOINTS: Endpoint[] = [
  { name: "B's shelf", path: () => `/api/schools/slug/${b.slug}/books` },
  { name: "B's shelf, searched", path: () => `/api/schools/slug/${b.slug}/books?search=bravo` },
  { name: "B's book through B's slug", path: () => `/api/schools/slug/${b.slug}/books/${b.bookIds[0]}` },
  { name: "B's book through A's own slug", path: () => `/api/schools/slug/${a.slug}/books/${b.bookIds[0]}` },
  { name: "B's search", path: () => `/api/schools/slug/${b.slug}/search-books?query=bravo` },
  { name: "search on A's slug for B's titles", path: () => `/api/schools/slug/${a.slug}/search-books?query=bravo` },
  { name: "A's shelf searched for B's titles", path: () => `/api/schools/slug/${a.slug}/books?search=bravo` },
  { name: "B's cover", path: () => `/api/books/${b.bookIds[1]}/thumbnail` },
  { name: "B's cover, version query", path: () => `/api/books/${b.bookIds[1]}/thumbnail?v=1` },
  { name: "B's cover, small rendition", path: () => `/api/books/${b.bookIds[1]}/thumbnail?w=256` },
  { name: "B's PDF", path: () => `/api/books/${b.bookIds[0]}/pdf` },
  { name: "B's PDF, HEAD", path: () => `/api/books/${b.bookIds[0]}/pdf`, method: "HEAD" },
  { name: "reading progress in B's book", path: () => `/api/reading-progress/${b.bookIds[0]}` },
  { name: "B's page list", path: () => `/api/books/${b.bookIds[0]}/pages` },
  { name: "B's page image", path: () => `/api/books/${b.bookIds[0]}/pages/1?w=1024` },
  { name: "B's page preview", path: () => `/api/books/${b.bookIds[0]}/pages/1?w=640` },
  { name: "B's page text", path: () => `/api/books/${b.bookIds[0]}/pages/1/text` },
  { name: "B's contents", path: () => `/api/books/${b.bookIds[0]}/outline` },
  { name: "B's book searched", path: () => `/api/books/${b.bookIds[0]}/search?q=bravo` },
  { name: "B's shelf, next page", path: () => `/api/schools/slug/${b.slug}/shelf?from=0` },
  { name: "A's shelf filtered for B's titles", path: () => `/api/schools/slug/${a.slug}/shelf?q=bravo` },
  { name: "starring B's book", path: () => `/api/books/${b.bookIds[0]}/favourite`, method: "PUT" },
  { name: "unstarring B's book", path: () => `/api/books/${b.bookIds[0]}/favourite`, method: "DELETE" },
];

describe.each(ENDPOINTS)("$name", (endpoint) => {
  it("gives teacher A nothing of B", async () => {
    // A table of endpoints walked by path (HEAD and undeclared queries among them): raw calls, here and below.
    const response = await api(endpoint.path(), { cookie: a.cookie, method: endpoint.method });
    const text = await response.text();
    if (response.status === 200) {
      // Only A's own (empty) search results may answer 200.
      expect(endpoint.path()).toContain(a.slug);
    } else {
      // 403: the PDF, which no teacher gets, not even of their own school's books.
      expect([401, 403, 404]).toContain(response.status);
      if (response.status === 403) expect(endpoint.path()).toMatch(/\/pdf$/);
    }
    for (const title of B_TITLES) expect(text).not.toContain(title);
  });

  it("gives no one without a session anything", async () => {
    const response = await api(endpoint.path(), { method: endpoint.method });
    expect([401, 404]).toContain(response.status);
    const text = await response.text();
    for (const title of B_TITLES) expect(text).not.toContain(title);
  });
});

describe("the table itself", () => {
  it("sees A's own book, so the denials above are real", async () => {
    const response = await client(a).api.schools.slug[":slug"].books[":bookId"].$get({ param: { slug: a.slug, bookId: String(a.bookId) } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Alpha Only Reader");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { bookCategory } from "#shared/rules/book-category.ts";
import { toFtsQuery } from "../../workers/reading/library.ts";
import { client, createBook, createSchool, okBody, signedInTeacher } from "./helpers.ts";

let slug: string;
let cookie: string;
const ids: Record<string, number> = {};

/** The teacher's shelf routes, typed. */
const shelfApi = (who: string | null = cookie) => client({ cookie: who }).api.schools.slug[":slug"];
const searchShelf = (search: string) => shelfApi().books.$get({ param: { slug }, query: { search } });
const cover = (id: number, who: string | null = cookie, etag?: string) =>
  client({ cookie: who }).api.books[":id"].thumbnail.$get(
    { param: { id: String(id) }, query: {} },
    { headers: etag ? { "If-None-Match": etag } : undefined },
  );

beforeAll(async () => {
  const school = await createSchool();
  slug = school.slug;
  cookie = (await signedInTeacher(school)).cookie;
  const shelf = [
    {
      title: "Fractions Made Friendly",
      author1: "Carlos Mendes",
      author2: "Ruth Adler",
      subject: "Mathematics",
      gradeLevel: 5,
      isbn: "978-1-955000-19-5",
    },
    { title: "Algebra I", author1: "Ruth Adler", subject: "Mathematics", gradeLevel: 9, description: "Equations about fractions, too." },
    { title: "Weather Watchers", author1: "Hannah Lindqvist", subject: "Science", gradeLevel: 4 },
    { title: "Art Through the Ages", author1: "Lucia Ferrante", subject: "Art", gradeLevel: null },
    { title: "Élan vital: Bergson", author1: "Zoë Müller", subject: "Philosophy", gradeLevel: 12 },
  ];
  for (const book of shelf) ids[book.title] = (await createBook(book, [school.id])).id;
  // On the catalogue but not on this school's shelf.
  ids.unassigned = (await createBook({ title: "Fractions for Another School", subject: "Mathematics" })).id;
});

/** The titles GET /api/schools/slug/{slug}/books answers for a search. */
async function titles(search: string) {
  const response = await client({ cookie }).api.schools.slug[":slug"].books.$get({ param: { slug }, query: { search } });
  expect(response.status).toBe(200);
  const body = await okBody(response);
  return body.books.map((b) => b.title);
}

describe("GET /api/schools/slug/{slug}/books", () => {
  it("lists the school's books by title (an accented letter beside its plain one), without storage keys", async () => {
    const response = await client({ cookie }).api.schools.slug[":slug"].books.$get({ param: { slug }, query: {} });
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const { books } = await okBody(response);
    expect(books.map((b) => b.title)).toEqual([
      "Algebra I",
      "Art Through the Ages",
      "Élan vital: Bergson",
      "Fractions Made Friendly",
      "Weather Watchers",
    ]);
    const book = books.find((b) => b.title === "Fractions Made Friendly")!;
    expect(book).toMatchObject({ author2: "Ruth Adler", gradeLevel: 5, hasPdf: true });
    expect(book).not.toHaveProperty("pdfPath");
    expect(String(book.thumbnailPath)).toMatch(new RegExp(`^/api/books/${ids["Fractions Made Friendly"]}/thumbnail\\?v=\\d+$`));
    expect(JSON.stringify(books)).not.toMatch(/coverKey|pdfKey|test\//);
  });

  it("searches with prefixes, title matches first, only on the school's shelf", async () => {
    expect(await titles("fract")).toEqual(["Fractions Made Friendly", "Algebra I"]);
    expect(await titles("ruth adl")).toEqual(["Algebra I", "Fractions Made Friendly"]);
    expect(await titles("9781955")).toEqual(["Fractions Made Friendly"]);
    expect(await titles("978-1-955000")).toEqual(["Fractions Made Friendly"]);
    expect(await titles("elan zoe")).toEqual(["Élan vital: Bergson"]);
    expect(await titles("science")).toEqual(["Weather Watchers"]);
  });

  it.each([
    '"',
    '"unbalanced',
    "*",
    "fract*",
    "NEAR(fract algebra)",
    "fract NEAR algebra",
    "(((",
    "title: fract",
    "fract OR weather",
    "AND",
    "-fract",
    "^weather",
    "'; DROP TABLE books; --",
    "🙂",
  ])("never fails on FTS syntax: %s", async (search) => {
    const response = await searchShelf(search);
    expect(response.status).toBe(200);
  });

  it("refuses control characters in a search with a clear 400", async () => {
    const response = await searchShelf("\u0000");
    expect(response.status).toBe(400);
  });

  it("refuses an absurdly long search with a clear 400", async () => {
    const response = await searchShelf("a".repeat(201));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The search text can have at most 200 characters", field: "search" });
  });
});

describe("GET /api/schools/slug/{slug}/search-books", () => {
  it("answers the best matches once there are 3 characters", async () => {
    const { books } = await okBody(
      client({ cookie }).api.schools.slug[":slug"]["search-books"].$get({ param: { slug }, query: { query: "  weat " } }),
    );
    expect(books).toEqual([expect.objectContaining({ id: ids["Weather Watchers"], title: "Weather Watchers" })]);
    expect(await okBody(shelfApi()["search-books"].$get({ param: { slug }, query: { query: "we" } }))).toEqual({ books: [] });
  });

  it("finds a book by its ISBN typed with hyphens, whole or in part, and by its digits", async () => {
    for (const query of ["978-1-955000-19-5", "978-1-9550", "9781955000195"]) {
      const { books } = await okBody(
        client({ cookie }).api.schools.slug[":slug"]["search-books"].$get({ param: { slug }, query: { query } }),
      );
      expect(
        books.map((b) => b.title),
        query,
      ).toEqual(["Fractions Made Friendly"]);
    }
  });

  describe("ranking, prefixes, the limit and other schools", () => {
    let own: { slug: string; cookie: string };
    let other: { slug: string; cookie: string };
    const search = async (who: { slug: string; cookie: string }, query: string) => {
      const response = await client(who).api.schools.slug[":slug"]["search-books"].$get({ param: { slug: who.slug }, query: { query } });
      expect(response.status).toBe(200);
      return (await okBody(response)).books.map((b) => b.title);
    };

    beforeAll(async () => {
      const [a, b] = [await createSchool(), await createSchool()];
      own = { slug: a.slug, cookie: (await signedInTeacher(a)).cookie };
      other = { slug: b.slug, cookie: (await signedInTeacher(b)).cookie };
      await createBook({ title: "Rocks and Minerals", description: "How volcanoes build new rock." }, [a.id]);
      await createBook({ title: "Volcanoes Up Close", description: "Lava, ash and craters." }, [a.id]);
      await createBook({ title: "Science in the Kitchen", subject: "Cooking" }, [a.id]);
      for (let i = 1; i <= 10; i++) await createBook({ title: `Glacier Reader ${i}`, subject: "Geography" }, [a.id]);
      await createBook({ title: "Maps and Charts", description: "Where every glacier is." }, [a.id]);
      // Better matches than anything on the shelf, but another school's, or no school's.
      await createBook({ title: "Volcanoes Volcanoes Volcanoes", description: "Volcanoes." }, [b.id]);
      await createBook({ title: "Glacier", description: "Glacier glacier." }, [b.id]);
      await createBook({ title: "Science Science", subject: "Science" });
    });

    it("puts title matches before description-only matches", async () => {
      expect(await search(own, "volcano")).toEqual(["Volcanoes Up Close", "Rocks and Minerals"]);
    });

    it("matches word prefixes", async () => {
      expect(await search(own, "sci")).toEqual(["Science in the Kitchen"]);
      expect(await search(own, "sci kit")).toEqual(["Science in the Kitchen"]);
    });

    it("answers at most 8, the title matches first", async () => {
      const titles = await search(own, "glacier");
      expect(titles).toHaveLength(8);
      expect(titles.every((title) => title.startsWith("Glacier Reader "))).toBe(true);
    });

    it("never answers another school's book, however well it matches", async () => {
      expect(await search(other, "volcano")).toEqual(["Volcanoes Volcanoes Volcanoes"]);
      expect(await search(other, "sci")).toEqual([]);
      expect(await search(own, "volcanoes volcanoes")).toEqual(["Volcanoes Up Close", "Rocks and Minerals"]);
      const list = client(own).api.schools.slug[":slug"].books.$get({ param: { slug: own.slug }, query: { search: "glacier" } });
      const listed = (await okBody(list)).books.map((b) => b.title);
      expect(listed).toHaveLength(11);
      expect(listed.at(-1)).toBe("Maps and Charts");
      expect(listed).not.toContain("Glacier");
    });
  });
});

describe("GET /api/schools/slug/{slug}/books/{bookId}", () => {
  it("answers a book of the school", async () => {
    const response = client({ cookie }).api.schools.slug[":slug"].books[":bookId"].$get({
      param: { slug, bookId: String(ids["Weather Watchers"]) },
    });
    expect((await okBody(response)).book.title).toBe("Weather Watchers");
  });

  it("answers 404 for a book of the catalogue that the school does not have", async () => {
    const response = await shelfApi().books[":bookId"].$get({ param: { slug, bookId: String(ids.unassigned) } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "This book is not available for your school" });
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999999999"])("answers 404 for the id %s", async (id) => {
    expect((await shelfApi().books[":bookId"].$get({ param: { slug, bookId: id } })).status).toBe(404);
  });
});

describe("GET /api/books/{id}/thumbnail", () => {
  it("serves the cover with an ETag, privately cached, and 304 when unchanged", async () => {
    const response = await cover(ids["Art Through the Ages"]!);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=86400");
    const etag = response.headers.get("ETag")!;
    expect(etag).toMatch(/^"/);
    expect(new Uint8Array(await response.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    const again = await cover(ids["Art Through the Ages"]!, cookie, etag);
    expect(again.status).toBe(304);
  });

  it("is refused without a session and hidden for other schools' books", async () => {
    expect((await cover(ids["Art Through the Ages"]!, null)).status).toBe(401);
    expect((await cover(ids.unassigned!)).status).toBe(404);
  });
});

describe("helpers", () => {
  it.each([
    ["fractions", '"fractions"*'],
    ['"quoted" NEAR(x y)', '"quoted"* "NEAR"* "x"* "y"*'],
    ["978-1", '"978"* "1"*'],
    // ISBN-like input is one prefix on the hyphen-less form the index also holds.
    ["979-1-076750-00-0", '"9791076750000"*'],
    [" 978-1-9550 ", '"97819550"*'],
    ["grades 2-3", '"grades"* "2"* "3"*'],
    ["*** ((( ", null],
  ])("toFtsQuery(%s)", (input, expected) => {
    expect(toFtsQuery(input)).toBe(expected);
  });

  it("categorises books as the spec says", () => {
    expect(bookCategory({ gradeLevel: 5, subject: "Mathematics" })).toBe("Standard 5");
    expect(bookCategory({ gradeLevel: null, subject: "Art" })).toBe("Art");
    expect(bookCategory({ gradeLevel: null, subject: null })).toBe("Uncategorized");
  });
});

describe("summariseShelf", () => {
  it("counts every (subject, grade) and returns only the first page, in one batch", async () => {
    const { summariseShelf } = await import("../../workers/reading/shelf.ts");
    const { db } = await import("./helpers.ts");
    const school = await createSchool();
    for (let i = 0; i < 7; i++)
      await createBook({ title: `Shelf ${i}`, subject: i % 2 ? "Art" : "Science", gradeLevel: i < 3 ? 4 : null }, [school.id]);
    const shelf = await summariseShelf(db(), school.id, 5, 0);
    expect(shelf.total).toBe(7);
    expect(shelf.firstBooks.map((b) => b.title)).toEqual(["Shelf 0", "Shelf 1", "Shelf 2", "Shelf 3", "Shelf 4"]);
    expect(shelf.groups.sort((x, y) => `${x.subject}${x.gradeLevel}`.localeCompare(`${y.subject}${y.gradeLevel}`))).toEqual([
      { subject: "Art", gradeLevel: 4, count: 1, matching: 1, starred: 0 },
      { subject: "Art", gradeLevel: null, count: 2, matching: 2, starred: 0 },
      { subject: "Science", gradeLevel: 4, count: 2, matching: 2, starred: 0 },
      { subject: "Science", gradeLevel: null, count: 2, matching: 2, starred: 0 },
    ]);
  });
});

import { env } from "cloudflare:test";
// The teacher's library that sorts and combines filters, and 'My books' (issue 16): the server
// core, the favourites and shelf APIs, and the dashboard's loader through the real React Router
// build with the filters in its URL.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_BOOKS, type ShelfQuery, shelfFacets } from "#shared/rules/shelf-query.ts";
import { bookAccess } from "../../workers/db/schema.ts";
import { saveProgress } from "../../workers/reading/progress.ts";
import { summariseShelf } from "../../workers/reading/shelf.ts";
import { client, createBook, createSchool, db, flushUsage, okBody, page, signedInTeacher } from "./helpers.ts";

let school: Awaited<ReturnType<typeof createSchool>>;
let teacher: Awaited<ReturnType<typeof signedInTeacher>>;
let colleague: Awaited<ReturnType<typeof signedInTeacher>>;
let otherSchoolBook: number;
const ids: Record<string, number> = {};

// Title, subject, grade; listed in the order they were added to the school's shelf.
const SHELF: [string, string | null, number | null][] = [
  ["Biology Basics", "Science", 9],
  ["Algebra Essentials", "Mathematics", 9],
  ["Chemistry Now", "Science", 10],
  ["Zoology Field Guide", "Science", 9],
  ["Art Through the Ages", "Art", null],
  ["Geometry Workshop", "Mathematics", 10],
  ["Unfiled Notes", null, null],
];

beforeAll(async () => {
  school = await createSchool();
  teacher = await signedInTeacher(school, "Sort Filter Teacher");
  colleague = await signedInTeacher(school, "Colleague Teacher");
  const start = Date.UTC(2025, 0, 1);
  for (const [i, [title, subject, gradeLevel]] of SHELF.entries()) {
    const book = await createBook({ title, subject, gradeLevel, description: `${title}: a book about ${subject ?? "things"}.` }, [
      school.id,
    ]);
    ids[title] = book.id;
    // Assigned a day apart: 'Recently added' is the order the school got them, newest first.
    await db()
      .update(bookAccess)
      .set({ createdAt: start + i * 86_400_000 })
      .where(and(eq(bookAccess.schoolId, school.id), eq(bookAccess.bookId, book.id)));
  }
  const other = await createSchool();
  otherSchoolBook = (await createBook({ title: "Bravo Only Science", subject: "Science", gradeLevel: 9 }, [other.id])).id;
  // This teacher read Chemistry last, Art before it; the colleague read something else, later.
  const as = (t: typeof teacher) => ({ schoolId: school.id, teacherId: t.teacher.id });
  await saveProgress(env, as(teacher), ids["Art Through the Ages"]!, 3, start + 1000);
  await saveProgress(env, as(teacher), ids["Chemistry Now"]!, 5, start + 2000);
  await saveProgress(env, as(colleague), ids["Zoology Field Guide"]!, 2, start + 9000);
  // The shelf's "recently read" sorts on D1's rows: the school's object flushes them there.
  await flushUsage(school.id);
});

const shelf = (query: Partial<ShelfQuery> = {}, who = teacher) =>
  summariseShelf(db(), school.id, 48, who.teacher.id, { ...ALL_BOOKS, ...query });
const titles = (books: { title: string }[]) => books.map((book) => book.title);
const favourite = (bookId: number | string, method: "PUT" | "DELETE", who: { cookie: string } | null = teacher, origin?: string | null) => {
  const star = client({ cookie: who?.cookie ?? null, origin }).api.books[":id"].favourite;
  const param = { param: { id: String(bookId) } };
  return method === "PUT" ? star.$put(param) : star.$delete(param);
};

describe("sorting the shelf", () => {
  it("sorts by title (A-Z) by default", async () => {
    expect(titles((await shelf()).firstBooks)).toEqual([
      "Algebra Essentials",
      "Art Through the Ages",
      "Biology Basics",
      "Chemistry Now",
      "Geometry Workshop",
      "Unfiled Notes",
      "Zoology Field Guide",
    ]);
  });

  it("sorts by recently added to the school, newest first", async () => {
    expect(titles((await shelf({ sort: "added" })).firstBooks)).toEqual(SHELF.map(([title]) => title).reverse());
  });

  it("sorts by this teacher's recent reading, unread books after by title", async () => {
    expect(titles((await shelf({ sort: "read" })).firstBooks)).toEqual([
      "Chemistry Now",
      "Art Through the Ages",
      "Algebra Essentials",
      "Biology Basics",
      "Geometry Workshop",
      "Unfiled Notes",
      "Zoology Field Guide",
    ]);
    // The colleague's reading is theirs alone.
    expect(titles((await shelf({ sort: "read" }, colleague)).firstBooks).slice(0, 2)).toEqual([
      "Zoology Field Guide",
      "Algebra Essentials",
    ]);
  });

  it("keeps the order with a filter and pages with from/limit", async () => {
    expect(titles((await shelf({ subject: "Science", sort: "added" })).firstBooks)).toEqual([
      "Zoology Field Guide",
      "Chemistry Now",
      "Biology Basics",
    ]);
    const first = await summariseShelf(db(), school.id, 2, teacher.teacher.id, { ...ALL_BOOKS, sort: "added" });
    expect(titles(first.firstBooks)).toEqual(["Unfiled Notes", "Geometry Workshop"]);
  });
});

describe("Title (A-Z) as a reader expects it", () => {
  // Stored in an order SQLite's BINARY sort would keep: capitals, then small letters, then accents.
  const MIXED = ["Apple Tart", "Banana Bread", "Eclipse Watching", "Zulu Stories", "apple pie", "zebra crossings", "Éclairs at Home"];
  const COLLATED = ["apple pie", "Apple Tart", "Banana Bread", "Éclairs at Home", "Eclipse Watching", "zebra crossings", "Zulu Stories"];
  let mixed: Awaited<ReturnType<typeof createSchool>>;
  let reader: Awaited<ReturnType<typeof signedInTeacher>>;

  beforeAll(async () => {
    mixed = await createSchool();
    reader = await signedInTeacher(mixed, "Collation Reader");
    for (const title of MIXED) await createBook({ title, subject: "Cookery", gradeLevel: 5 }, [mixed.id]);
  });

  it("puts 'apple' beside 'Apple' and an accented letter beside its plain one, on every page of the list", async () => {
    const summary = await summariseShelf(db(), mixed.id, 48, reader.teacher.id, ALL_BOOKS);
    expect(titles(summary.firstBooks)).toEqual(COLLATED);
    // Page by page ('Show more books'), the same order.
    const first = await summariseShelf(db(), mixed.id, 3, reader.teacher.id, ALL_BOOKS);
    const more = await okBody(client(reader).api.schools.slug[":slug"].shelf.$get({ param: { slug: mixed.slug }, query: { from: "3" } }));
    expect([...titles(first.firstBooks), ...titles(more.books)]).toEqual(COLLATED);
    // A page whose last book SQLite's own order would put elsewhere (the accented one) still has it.
    const four = await summariseShelf(db(), mixed.id, 4, reader.teacher.id, ALL_BOOKS);
    expect(titles(four.firstBooks)).toEqual(COLLATED.slice(0, 4));
  });

  it("orders the unread books of 'Recently read' the same way", async () => {
    const summary = await summariseShelf(db(), mixed.id, 48, reader.teacher.id, { ...ALL_BOOKS, sort: "read" });
    expect(titles(summary.firstBooks)).toEqual(COLLATED);
  });

  it("the library page and its API list the school's books in that order too", async () => {
    const response = client(reader).api.schools.slug[":slug"].books.$get({ param: { slug: mixed.slug }, query: {} });
    expect(titles((await okBody(response)).books)).toEqual(COLLATED);
    const html = await (await page(`/schools/${mixed.slug}/books`, { cookie: reader.cookie })).text();
    const positions = COLLATED.map((title) => html.indexOf(title.replace("'", "&#x27;")));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});

describe("filters that combine, and counts that follow them", () => {
  it("narrows by subject and grade together", async () => {
    expect(titles((await shelf({ subject: "Science", grade: 9 })).firstBooks)).toEqual(["Biology Basics", "Zoology Field Guide"]);
    expect(titles((await shelf({ subject: "Mathematics", grade: 10 })).firstBooks)).toEqual(["Geometry Workshop"]);
    expect(titles((await shelf({ subject: "Art", grade: 9 })).firstBooks)).toEqual([]);
    expect(titles((await shelf({ grade: 10 })).firstBooks)).toEqual(["Chemistry Now", "Geometry Workshop"]);
  });

  it("counts each subject within the chosen grade and each grade within the chosen subject", async () => {
    const { groups, total } = await shelf();
    expect(total).toBe(7);
    const facets = shelfFacets(groups, { subject: "Science", grade: 9, mine: false });
    expect(facets.subjects.map((o) => [o.label, o.count])).toEqual([
      ["All subjects", 3],
      ["Art", 0],
      ["Mathematics", 1],
      ["Science", 2],
    ]);
    expect(facets.grades.map((o) => [o.label, o.count])).toEqual([
      ["All grades", 3],
      ["Standard 9", 2],
      ["Standard 10", 1],
    ]);
    expect(facets.shown).toBe(2);
    expect(facets.all).toBe(2);
    const everything = shelfFacets(groups, { subject: null, grade: null, mine: false });
    expect(everything.shown).toBe(7);
    expect(everything.subjects[0]).toEqual({ value: null, label: "All subjects", count: 7 });
  });

  it("filters by text through the search index, with the counts following the text", async () => {
    const result = await shelf({ q: "zoo" });
    expect(titles(result.firstBooks)).toEqual(["Zoology Field Guide"]);
    const facets = shelfFacets(result.groups, { subject: null, grade: null, mine: false });
    expect(facets.shown).toBe(1);
    expect(facets.subjects.find((o) => o.label === "Science")?.count).toBe(1);
    // Every subject stays listed while the teacher types, with its count.
    expect(facets.subjects.map((o) => o.label)).toEqual(["All subjects", "Art", "Mathematics", "Science"]);
    expect(titles((await shelf({ q: "science", grade: 10 })).firstBooks)).toEqual(["Chemistry Now"]);
    // Nothing searchable (only FTS syntax) is no text filter at all.
    expect((await shelf({ q: '"*((' })).firstBooks).toHaveLength(7);
  });
});

describe("favourites (My books)", () => {
  it("stars and unstars idempotently, for the signed-in teacher only", async () => {
    const biology = ids["Biology Basics"]!;
    for (let i = 0; i < 2; i++) {
      const put = await favourite(biology, "PUT");
      expect(put.status).toBe(200);
      expect(await put.json()).toEqual({ bookId: biology, starred: true });
    }
    expect((await favourite(ids["Chemistry Now"]!, "PUT")).status).toBe(200);
    let mine = await shelf({ mine: true });
    expect(titles(mine.firstBooks)).toEqual(["Biology Basics", "Chemistry Now"]);
    expect(mine.firstBooks.every((book) => book.starred)).toBe(true);
    // The colleague has starred nothing.
    expect((await shelf({ mine: true }, colleague)).firstBooks).toEqual([]);
    expect((await shelf({}, colleague)).firstBooks.some((book) => book.starred)).toBe(false);

    for (let i = 0; i < 2; i++) {
      const removed = await favourite(biology, "DELETE");
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ bookId: biology, starred: false });
    }
    mine = await shelf({ mine: true });
    expect(titles(mine.firstBooks)).toEqual(["Chemistry Now"]);
    await favourite(ids["Chemistry Now"]!, "DELETE");
  });

  it("combines 'My books' with the other filters, and counts the stars per filter", async () => {
    for (const title of ["Biology Basics", "Zoology Field Guide", "Algebra Essentials"]) await favourite(ids[title]!, "PUT");
    expect(titles((await shelf({ mine: true, subject: "Science" })).firstBooks)).toEqual(["Biology Basics", "Zoology Field Guide"]);
    expect(titles((await shelf({ mine: true, grade: 9, sort: "added" })).firstBooks)).toEqual([
      "Zoology Field Guide",
      "Algebra Essentials",
      "Biology Basics",
    ]);
    const { groups } = await shelf();
    const science = shelfFacets(groups, { subject: "Science", grade: null, mine: false });
    expect([science.all, science.mine]).toEqual([3, 2]);
    const mine = shelfFacets(groups, { subject: null, grade: null, mine: true });
    expect(mine.shown).toBe(3);
    expect(mine.subjects.map((o) => [o.label, o.count])).toEqual([
      ["All subjects", 3],
      ["Art", 0],
      ["Mathematics", 1],
      ["Science", 2],
    ]);
    expect(shelfFacets((await shelf({ q: "zoology" })).groups, { subject: null, grade: null, mine: true }).shown).toBe(1);
    for (const title of ["Biology Basics", "Zoology Field Guide", "Algebra Essentials"]) await favourite(ids[title]!, "DELETE");
  });

  it("answers 404 for another school's book, a missing book and a malformed id; 401 without a session; 403 from another site", async () => {
    for (const method of ["PUT", "DELETE"] as const) {
      const response = await favourite(otherSchoolBook, method);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Book not found" });
      expect((await favourite(99_999_999, method)).status).toBe(404);
      expect((await favourite("abc", method)).status).toBe(404);
      expect((await favourite(ids["Biology Basics"]!, method, null)).status).toBe(401);
      expect((await favourite(ids["Biology Basics"]!, method, teacher, "https://evil.example")).status).toBe(403);
    }
    const { favourites } = await import("../../workers/db/schema.ts");
    const rows = await db().select().from(favourites).where(eq(favourites.bookId, otherSchoolBook));
    expect(rows).toEqual([]);
  });
});

describe("GET /api/schools/slug/{slug}/shelf (the list past its first page)", () => {
  it("answers the same query from an offset, with the stars", async () => {
    await favourite(ids["Zoology Field Guide"]!, "PUT");
    const response = await client(teacher).api.schools.slug[":slug"].shelf.$get({
      param: { slug: school.slug },
      query: { subject: "Science", sort: "added", from: "1" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await okBody(response);
    expect(body.books.map((b) => [b.title, b.starred])).toEqual([
      ["Chemistry Now", false],
      ["Biology Basics", false],
    ]);
    const mine = await okBody(client(teacher).api.schools.slug[":slug"].shelf.$get({ param: { slug: school.slug }, query: { mine: "1" } }));
    expect(titles(mine.books)).toEqual(["Zoology Field Guide"]);
    expect(JSON.stringify(body)).not.toMatch(/coverKey|pdfKey/);
    await favourite(ids["Zoology Field Guide"]!, "DELETE");
  });

  it("refuses a bad offset, another school's teacher and no session", async () => {
    const shelfOf = (who: { cookie: string } | null, query: { from?: string } = {}) =>
      client({ cookie: who?.cookie ?? null }).api.schools.slug[":slug"].shelf.$get({ param: { slug: school.slug }, query });
    expect((await shelfOf(teacher, { from: "-1" })).status).toBe(400);
    const stranger = await signedInTeacher(await createSchool());
    expect((await shelfOf(stranger)).status).toBe(404);
    expect((await shelfOf(null)).status).toBe(401);
  });
});

describe("the dashboard's loader reads the filters from its URL", () => {
  /** The grid's titles in the server's HTML, in order (cards title their books with h3). */
  async function gridTitles(search: string) {
    const response = await page(`/schools/${school.slug}/dashboard${search}`, { cookie: colleague.cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    return { titles: [...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((m) => m[1]), html };
  }

  it("paints the filtered and sorted list in the first HTML", async () => {
    const { titles: science9, html } = await gridTitles("?subject=Science&grade=9");
    expect(science9).toEqual(["Biology Basics", "Zoology Field Guide"]);
    expect(html).toContain("2 book(s) available");
    expect((await gridTitles("?grade=10&sort=added")).titles).toEqual(["Geometry Workshop", "Chemistry Now"]);
    expect((await gridTitles("?q=geometry")).titles).toEqual(["Geometry Workshop"]);
    expect((await gridTitles("?sort=read")).titles.slice(0, 1)).toEqual(["Zoology Field Guide"]);
  });

  it("shows only the teacher's starred books with mine=1, and marks the stars", async () => {
    await favourite(ids["Art Through the Ages"]!, "PUT", colleague);
    const { titles: mine, html } = await gridTitles("?mine=1");
    expect(mine).toEqual(["Art Through the Ages"]);
    expect(html).toContain('aria-label="Remove Art Through the Ages from My books"');
    expect(html).toContain('aria-pressed="true"');
    const all = await gridTitles("");
    expect(all.html).toContain('aria-label="Add Biology Basics to My books"');
    await favourite(ids["Art Through the Ages"]!, "DELETE", colleague);
  });

  it("answers the same list as data for client navigations", async () => {
    const response = await page(`/schools/${school.slug}/dashboard.data?subject=Mathematics&sort=added`, { cookie: colleague.cookie });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("Geometry Workshop");
    expect(text).toContain("Algebra Essentials");
    expect(text).not.toContain("Biology Basics");
  });

  it("ignores values that cannot be filters instead of failing", async () => {
    const { titles: listed } = await gridTitles(`?sort=bogus&grade=nine&subject=${"x".repeat(300)}&mine=yes`);
    expect(listed).toHaveLength(7);
    // A subject the shelf lacks (an old link) lists nothing, and stays selectable to undo.
    const { titles: none, html } = await gridTitles("?subject=Astronomy");
    expect(none).toEqual([]);
    expect(html).toContain("No books found");
    expect(html).toContain("Astronomy (0)");
  });
});

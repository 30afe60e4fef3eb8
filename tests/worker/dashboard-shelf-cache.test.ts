import { env } from "cloudflare:test";
// The dashboard keeps each school's shelf once per catalogue (issue 41, item 13; docs/decisions/0037):
// what an admin changes shows on the next dashboard, and one teacher's stars, reading and name
// never reach another teacher's page. Every dashboard here is the whole shelf (no filter), the
// view that is kept.
import { beforeAll, describe, expect, it } from "vitest";
import { saveProgress } from "../../workers/reading/progress.ts";
import { client, createBook, createSchool, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

let school: Awaited<ReturnType<typeof createSchool>>;
let ada: Awaited<ReturnType<typeof signedInTeacher>>;
let ben: Awaited<ReturnType<typeof signedInTeacher>>;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  school = await createSchool();
  ada = await signedInTeacher(school, "Ada Starred");
  ben = await signedInTeacher(school, "Ben Plain");
  admin = await signedInAdmin();
  for (const title of ["Beta Botany", "Gamma Geology", "Delta Drama"])
    ids[title] = (await createBook({ title, subject: "Science" }, [school.id])).id;
  // Not the school's yet: the admin assigns it below.
  ids["Alpha Astronomy"] = (await createBook({ title: "Alpha Astronomy", subject: "Science" })).id;
});

/** The dashboard's HTML for a teacher, with the grid's titles in order (cards title their books with h3). */
async function dashboard(who: { cookie: string }) {
  const response = await page(`/schools/${school.slug}/dashboard`, { cookie: who.cookie });
  expect(response.status).toBe(200);
  // React marks where two text nodes meet ("Welcome, <!-- -->Ada"): read the text as a person would.
  const html = (await response.text()).replaceAll("<!-- -->", "");
  return { html, titles: [...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((m) => m[1]) };
}

describe("the dashboard's kept shelf", () => {
  it("shows each teacher only their own stars, reading and name", async () => {
    const star = () => client(ada).api.books[":id"].favourite;
    expect((await star().$put({ param: { id: String(ids["Beta Botany"]) } })).status).toBe(200);
    await saveProgress(env, { schoolId: school.id, teacherId: ada.teacher.id }, ids["Gamma Geology"]!, 4);

    const first = await dashboard(ada);
    expect(first.titles).toEqual(["Beta Botany", "Delta Drama", "Gamma Geology"]);
    expect(first.html).toContain('aria-label="Remove Beta Botany from My books"');
    expect(first.html).toContain("Continue reading");
    expect(first.html).toContain("Ada Starred");
    expect(first.html).toContain("My books (1)");

    // Ben is served from the shelf Ada's request kept: none of Ada's parts come with it.
    const second = await dashboard(ben);
    expect(second.titles).toEqual(["Beta Botany", "Delta Drama", "Gamma Geology"]);
    expect(second.html).toContain('aria-label="Add Beta Botany to My books"');
    expect(second.html).not.toContain('aria-label="Remove Beta Botany from My books"');
    expect(second.html).not.toContain("Continue reading");
    expect(second.html).not.toContain("Ada Starred");
    expect(second.html).toContain("Ben Plain");
    expect(second.html).toContain("My books (0)");

    // And Ada's own star, taken back, is gone from her next page at once.
    expect((await star().$delete({ param: { id: String(ids["Beta Botany"]) } })).status).toBe(200);
    expect((await dashboard(ada)).html).toContain('aria-label="Add Beta Botany to My books"');
  });

  it("shows a book the admin assigns, and drops one they take away, on the next dashboard", async () => {
    await dashboard(ben);
    const grant = await client(admin).api.books.access.$post({ json: { schoolIds: [school.id], bookIds: [ids["Alpha Astronomy"]!] } });
    expect(grant.status).toBe(200);
    const granted = await dashboard(ben);
    expect(granted.titles).toEqual(["Alpha Astronomy", "Beta Botany", "Delta Drama", "Gamma Geology"]);
    expect(granted.html).toContain("4 book(s) available");

    const revoke = await client(admin).api.books.access[":schoolId"][":bookId"].$delete({
      param: { schoolId: String(school.id), bookId: String(ids["Delta Drama"]) },
    });
    expect(revoke.status).toBe(200);
    const revoked = await dashboard(ada);
    expect(revoked.titles).toEqual(["Alpha Astronomy", "Beta Botany", "Gamma Geology"]);
    expect(revoked.html).toContain("3 book(s) available");
  });

  it("shows a book's new title on the next dashboard", async () => {
    await dashboard(ben);
    const edit = await client(admin).api.books[":id"].$put({
      param: { id: String(ids["Gamma Geology"]) },
      json: { title: "Aardvark Atlas" },
    });
    expect(edit.status).toBe(200);
    expect((await dashboard(ben)).titles).toEqual(["Aardvark Atlas", "Alpha Astronomy", "Beta Botany"]);
  });

  it("drops a book the admin deletes from the catalogue on the next dashboard", async () => {
    await dashboard(ada);
    const removed = await client(admin).api.books[":id"].$delete({ param: { id: String(ids["Beta Botany"]) } });
    expect(removed.status).toBe(200);
    const after = await dashboard(ada);
    expect(after.titles).toEqual(["Aardvark Atlas", "Alpha Astronomy"]);
    expect(after.html).toContain("2 book(s) available");
  });
});

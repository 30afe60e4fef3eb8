// The admin's school pages on React Router loaders and actions, through the real pipeline and the
// real React Router build: each page's HTML carries its data, visitors and teachers go to the admin
// login, and each action validates like the API, writes D1 and its audit entry, and refuses posts
// from another site.

import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, bookAccess, loginEvents, schools } from "../../workers/db/schema.ts";
import { handleApp } from "./entry.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { createBook, createSchool, db, ORIGIN, page, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";

let cookie: string;
let adminId: number;

beforeAll(async () => {
  const signedIn = await signedInAdmin();
  cookie = signedIn.cookie;
  adminId = signedIn.admin.id;
});

const EVIL = "https://evil.example";
const tag = () => crypto.randomUUID().slice(0, 8);
const location = (response: Response) => response.headers.get("Location");
const post = (url: string, fields: Record<string, string | string[]>, init: { origin?: string } = {}) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return page(url, { method: "POST", cookie, body, headers: init.origin ? { Origin: init.origin } : undefined });
};
const postJson = (url: string, json: unknown, init: { origin?: string } = {}) =>
  page(url, {
    method: "POST",
    cookie,
    body: JSON.stringify(json),
    headers: { "Content-Type": "application/json", ...(init.origin ? { Origin: init.origin } : {}) },
  });
const schoolRow = async (id: number) => (await db().select().from(schools).where(eq(schools.id, id)))[0];
const schoolsWithSlug = (slug: string) => db().select().from(schools).where(eq(schools.slug, slug));
const schoolsNamed = (name: string) => db().select().from(schools).where(eq(schools.name, name));
const audits = (action: string, entityId?: number) =>
  db()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        eq(auditLog.adminId, adminId),
        entityId === undefined ? undefined : eq(auditLog.entityId, String(entityId)),
      ),
    );
/** A school that sorts first by name, so it is among the schools a page lists before any search. */
const firstSchool = (overrides: Parameters<typeof createSchool>[0] = {}) => createSchool({ name: `000 First ${tag()}`, ...overrides });

const ADMIN_PAGES = [
  "/admin",
  "/admin/all-schools",
  "/admin/schools",
  "/admin/add-school",
  "/admin/preview-add-schools",
  "/admin/delete-school",
  "/admin/increase-login-count",
];

describe("the admin's school pages: access", () => {
  it("sends a visitor and a teacher to the admin login from every school page, and from its actions", async () => {
    const school = await createSchool();
    const { cookie: teacherCookie } = await signedInTeacher(school);
    const paths = [...ADMIN_PAGES, `/admin/school/${school.id}`, `/admin/school/${school.id}/info`, `/admin/assign-books/${school.id}`];
    for (const path of paths) {
      for (const who of [undefined, teacherCookie]) {
        const response = await page(path, { cookie: who });
        expect(response.status, path).toBe(302);
        expect(location(response), path).toBe(`/admin/login?redirectTo=${encodeURIComponent(path)}`);
      }
    }
    const posted = await page(`/admin/school/${school.id}`, {
      method: "POST",
      cookie: teacherCookie,
      body: new URLSearchParams({ intent: "teacher-limit", limit: "50" }),
    });
    expect(posted.status).toBe(302);
    expect((await schoolRow(school.id))!.teacherLimit).toBe(5);
  });
});

describe("the admin's school pages: loaders render their data", () => {
  it("lists the schools, searched by ?query= and paged by ?page=", async () => {
    const school = await createSchool({ name: `Loader Listed ${tag()}` });
    for (const path of ["/admin", "/admin/all-schools", `/admin/all-schools?query=${encodeURIComponent(school.name)}`]) {
      const response = await page(path, { cookie });
      expect(response.status, path).toBe(200);
      if (path.includes("query")) expect(await response.text()).toContain(school.name);
    }
    const other = await page(`/admin/all-schools?query=nothing-matches-${tag()}`, { cookie });
    const html = await other.text();
    expect(html).not.toContain(school.name);
    expect(html).toContain("Nothing here yet.");
    expect((await page("/admin/all-schools?page=abc", { cookie })).status).toBe(200);
    const data = await page(`/admin/all-schools.data?query=${encodeURIComponent(school.slug)}`, { cookie });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain(school.name);
  });

  it("shows a school with its teachers, books and settings in the first HTML", async () => {
    const school = await createSchool({ name: `Detail School ${tag()}`, teacherLimit: 7 });
    const { teacher } = await signedInTeacher(school, "Robin Registered");
    const now = Date.now();
    await db()
      .insert(loginEvents)
      .values(
        [0, 0, 2].map((daysAgo) => ({
          kind: "teacher" as const,
          schoolId: school.id,
          teacherId: teacher.id,
          at: now - daysAgo * 86_400_000,
        })),
      );
    await createBook({ title: `Assigned Atlas ${tag()}`, subject: "Geography", gradeLevel: 4 }, [school.id]);
    for (const path of [`/admin/school/${school.id}`, `/admin/school/${school.id}/info`]) {
      const response = await page(path, { cookie });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(school.name);
      expect(html).toContain("Robin Registered");
      expect(html).toContain("Assigned Atlas");
      expect(html).toContain("Standard 4");
      expect(html).toContain("1 of 7");
      expect(html).toContain("Logins per day");
      expect(html).toContain("Logins per day over the last 90 days: 3 in total, at most 2 in a day.");
      expect(html).toContain("Teachers allowed");
    }
  });

  it("lets the keyboard reach the teachers' reading table's scroll, and underlines the book links in the list", async () => {
    const school = await createSchool({ name: `Narrow School ${tag()}` });
    await signedInTeacher(school, "Kim Keyboard");
    const book = await createBook({ title: `Underlined Title ${tag()}`, subject: "History" }, [school.id]);
    const html = await (await page(`/admin/school/${school.id}`, { cookie })).text();
    // A phone scrolls the table sideways: axe's scrollable-region-focusable wants the box focusable and named.
    expect(html).toMatch(/<section aria-label="Each teacher&#x27;s reading, [^"]+" tabindex="0"/);
    // In a line of text (title · grade · subject) colour alone does not mark a link (axe's link-in-text-block).
    const link = new RegExp(`<a class="([^"]*)" href="/admin/book/${book.id}"[^>]*>${book.title}</a>`).exec(html);
    expect(link?.[1]?.split(" ")).toContain("underline");
  });

  it("answers 404 for a school that does not exist", async () => {
    for (const path of ["/admin/school/999999999", "/admin/school/not-a-number", "/admin/assign-books/999999999"]) {
      const response = await page(path, { cookie });
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("School not found");
    }
  });

  it("renders Add School with the next id, the school pickers with the first schools, Assign Books with the school", async () => {
    const school = await firstSchool();
    const add = await (await page("/admin/add-school", { cookie })).text();
    expect(add).toMatch(/This will be school #\d+\./);
    for (const path of ["/admin/delete-school", "/admin/increase-login-count"]) {
      const html = await (await page(path, { cookie })).text();
      expect(html, path).toContain(school.name);
    }
    expect(await (await page(`/admin/assign-books/${school.id}`, { cookie })).text()).toContain(`Books for ${school.name}`);
    expect(await (await page("/admin/preview-add-schools", { cookie })).text()).toContain("Import Schools");
  });
});

describe("Add School's action", () => {
  const fields = (overrides: Record<string, string> = {}) => ({
    ...schoolFields("Action Academy", "office@action.example"),
    slug: "",
    teacherLimit: "12",
    ...overrides,
  });

  it("creates the school from a form post, audits it, and goes to its page", async () => {
    const slug = `action-academy-${tag()}`;
    const response = await post("/admin/add-school", fields({ slug }));
    expect(response.status).toBe(302);
    const [created] = await schoolsWithSlug(slug);
    expect(created).toMatchObject({ teacherLimit: 12, city: "Springfield", address2: null });
    expect(location(response)).toBe(`/admin/school/${created!.id}`);
    expect(await audits("school.create", created!.id)).toHaveLength(1);
  });

  it("creates it through the single-fetch .data URL too, with a generated slug", async () => {
    const name = `Data Post School ${tag()}`;
    const response = await post("/admin/add-school.data", fields({ schoolName: name }));
    expect(response.status).toBeLessThan(400);
    const [created] = await schoolsNamed(name);
    expect(created!.slug).toMatch(/^data-post-school-/);
    expect(await response.text()).toContain(`/admin/school/${created!.id}`);
  });

  it("refuses what the API refuses, with its messages, and saves nothing", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ schoolName: "", city: "" }, 400, "Please fill in: School name, City"],
      [{ zipCode: "ABCDE" }, 400, "Enter a 5-digit ZIP code"],
      [{ teacherLimit: "0" }, 400, "The teacher limit must be a whole number from 1 to 10000"],
      [{ slug: "admin" }, 400, "This slug is reserved"],
    ];
    for (const [overrides, status, message] of cases) {
      const name = overrides.schoolName ?? `Refused ${tag()}`;
      const response = await post("/admin/add-school", fields({ schoolName: name, ...overrides }));
      expect(response.status, message).toBe(status);
      expect(await response.text()).toContain(message);
      if (name) expect(await schoolsNamed(name)).toHaveLength(0);
    }
    const taken = await createSchool();
    const duplicate = await post("/admin/add-school", fields({ slug: taken.slug }));
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain("A school with this slug already exists");
  });
});

describe("the school page's settings", () => {
  it("sets the teacher limit, audited, and refuses one below the registered teachers", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    await signedInTeacher(school);
    await signedInTeacher(school);
    const saved = await post(`/admin/school/${school.id}`, { intent: "teacher-limit", limit: "9" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Teacher limit is now 9.");
    expect((await schoolRow(school.id))!.teacherLimit).toBe(9);
    const [entry] = await audits("school.increase-login-count", school.id);
    expect(entry).toMatchObject({ before: { teacherLimit: 5 }, after: { teacherLimit: 9 } });

    const below = await post(`/admin/school/${school.id}.data`, { intent: "teacher-limit", limit: "1" });
    expect(below.status).toBe(400);
    expect(await below.text()).toContain("This school already has 2 registered teachers; the teacher limit cannot be lower");
    const notANumber = await post(`/admin/school/${school.id}`, { intent: "teacher-limit", limit: "many" });
    expect(notANumber.status).toBe(400);
    expect(await notANumber.text()).toContain("The teacher limit must be a whole number from 1 to 10000");
    expect((await schoolRow(school.id))!.teacherLimit).toBe(9);
  });

  it("sets the sign-ins per teacher, audited, within 1 to 20", async () => {
    const school = await createSchool();
    const saved = await post(`/admin/school/${school.id}/info.data`, { intent: "session-limit", sessionLimit: "4" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Each teacher may now be signed in on 4 device(s) at once.");
    expect((await schoolRow(school.id))!.sessionLimit).toBe(4);
    expect(await audits("school.update", school.id)).toHaveLength(1);
    const refused = await post(`/admin/school/${school.id}`, { intent: "session-limit", sessionLimit: "25" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Sessions per teacher must be a whole number from 1 to 20");
    expect((await schoolRow(school.id))!.sessionLimit).toBe(4);
  });
});

describe("Increase Login Count's action", () => {
  it("adds slots through the .data URL, audited, and refuses a bad number or school", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const saved = await post("/admin/increase-login-count.data", { schoolId: String(school.id), by: "3" });
    expect(saved.status).toBe(200);
    expect((await schoolRow(school.id))!.teacherLimit).toBe(8);
    expect(await audits("school.increase-login-count", school.id)).toHaveLength(1);
    const zero = await post("/admin/increase-login-count", { schoolId: String(school.id), by: "0" });
    expect(zero.status).toBe(400);
    expect(await zero.text()).toContain("The number of teachers to add must be a whole number from 1 to 10000");
    const unknown = await post("/admin/increase-login-count", { schoolId: "999999999", by: "3" });
    expect(unknown.status).toBe(404);
    expect((await schoolRow(school.id))!.teacherLimit).toBe(8);
  });
});

describe("Delete School's action", () => {
  it("deletes only when the slug is typed, and audits it", async () => {
    const school = await createSchool();
    const wrong = await post("/admin/delete-school", { schoolId: String(school.id), confirm: "not-the-slug" });
    expect(wrong.status).toBe(400);
    expect(await schoolRow(school.id)).toBeDefined();
    const deleted = await post("/admin/delete-school.data", { schoolId: String(school.id), confirm: school.slug });
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toContain(school.name);
    expect(await schoolRow(school.id)).toBeUndefined();
    expect(await audits("school.delete", school.id)).toHaveLength(1);
    expect((await post("/admin/delete-school", { schoolId: String(school.id), confirm: school.slug })).status).toBe(404);
  });
});

describe("Import Schools' action", () => {
  const row = (name: string, slug?: string) => ({
    schoolName: name,
    ...(slug ? { slug } : {}),
    address1: "9 Cedar Ave",
    city: "Austin",
    state: "TX",
    zipCode: "78701",
    email: "office@cedar.example",
    teacherLimit: "10",
  });

  it("checks the rows, then saves them all, audited", async () => {
    const stamp = tag();
    const rows = [row(`Cedar Park ${stamp}`, `cedar-park-${stamp}`), row(`Oak Hill ${stamp}`, `oak-hill-${stamp}`)];
    const checked = await postJson("/admin/preview-add-schools.data", { intent: "validate", rows });
    expect(checked.status).toBe(200);
    const text = await checked.text();
    expect(text).toContain(`cedar-park-${stamp}`);
    expect(text).toContain("new");
    expect(await schoolsWithSlug(`cedar-park-${stamp}`)).toHaveLength(0);

    const before = (await audits("school.import")).length;
    const saved = await postJson("/admin/preview-add-schools.data", { intent: "bulk", rows });
    expect(saved.status).toBe(200);
    expect(await schoolsWithSlug(`oak-hill-${stamp}`)).toHaveLength(1);
    expect(await audits("school.import")).toHaveLength(before + 1);
  });

  it("saves nothing when a row is refused, and answers the checked rows", async () => {
    const stamp = tag();
    const rows = [row(`Good Row ${stamp}`, `good-row-${stamp}`), { ...row(`Bad Row ${stamp}`, `bad-row-${stamp}`), zipCode: "nope" }];
    const refused = await postJson("/admin/preview-add-schools.data", { intent: "bulk", rows });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("1 of 2 rows cannot be added; nothing was saved.");
    expect(text).toContain("Enter a 5-digit ZIP code");
    expect(await schoolsWithSlug(`good-row-${stamp}`)).toHaveLength(0);
    const empty = await postJson("/admin/preview-add-schools.data", { intent: "validate", rows: [] });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("The file has no rows");
  });
});

describe("Assign Books' action", () => {
  it("gives the school the books picked, audited; assigning again adds nothing", async () => {
    const school = await createSchool();
    const [a, b] = [await createBook({ title: `Pick A ${tag()}` }), await createBook({ title: `Pick B ${tag()}` })];
    const saved = await post(`/admin/assign-books/${school.id}`, { bookId: [String(a.id), String(b.id)] });
    expect(saved.status).toBe(200);
    expect(await db().select().from(bookAccess).where(eq(bookAccess.schoolId, school.id))).toHaveLength(2);
    const grants = await audits("book_access.grant");
    expect(grants.some((entry) => JSON.stringify(entry.after).includes(`${school.id}`))).toBe(true);
    const again = await post(`/admin/assign-books/${school.id}.data`, { bookId: String(a.id) });
    expect(again.status).toBe(200);
    expect(await db().select().from(bookAccess).where(eq(bookAccess.schoolId, school.id))).toHaveLength(2);
  });

  it("refuses an empty choice and a book that does not exist", async () => {
    const school = await createSchool();
    const none = await post(`/admin/assign-books/${school.id}`, {});
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Choose at least one book");
    const missing = await post(`/admin/assign-books/${school.id}`, { bookId: "999999999" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("No book with id 999999999");
  });
});

/**
 * A form post as a browser makes it without an Origin header (page() always adds ours), naming
 * where it came from in Sec-Fetch-Site only.
 */
async function postWithoutOrigin(url: string, body: BodyInit, fetchSite: string | null, contentType?: string) {
  const headers = new Headers({ Cookie: cookie });
  if (fetchSite) headers.set("Sec-Fetch-Site", fetchSite);
  if (contentType) headers.set("Content-Type", contentType);
  const ctx = createExecutionContext();
  const response = await handleApp(new Request(`${ORIGIN}${url}`, { method: "POST", headers, body, redirect: "manual" }), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("every action refuses a post from another site", () => {
  async function attempts(send: (url: string, fields: Record<string, string>, json?: unknown) => Promise<Response>) {
    const school = await createSchool({ teacherLimit: 5 });
    const book = await createBook({ title: `Cross Site ${tag()}` });
    const name = `Evil School ${tag()}`;
    const school1 = {
      schoolName: name,
      address1: "1 St",
      city: "X",
      state: "Y",
      zipCode: "12345",
      email: "a@b.example",
      teacherLimit: "5",
    };
    const responses = [
      await send("/admin/add-school", school1),
      await send("/admin/add-school.data", school1),
      await send(`/admin/school/${school.id}`, { intent: "teacher-limit", limit: "99" }),
      await send(`/admin/school/${school.id}.data`, { intent: "session-limit", sessionLimit: "9" }),
      await send("/admin/increase-login-count.data", { schoolId: String(school.id), by: "50" }),
      await send("/admin/delete-school", { schoolId: String(school.id), confirm: school.slug }),
      await send(`/admin/assign-books/${school.id}`, { bookId: String(book.id) }),
      await send("/admin/preview-add-schools.data", {}, { intent: "bulk", rows: [{ ...school1, slug: `evil-${tag()}` }] }),
    ];
    expect(await schoolRow(school.id)).toMatchObject({ teacherLimit: 5, sessionLimit: 3 });
    expect(await schoolsNamed(name)).toHaveLength(0);
    expect(await db().select().from(bookAccess).where(eq(bookAccess.schoolId, school.id))).toHaveLength(0);
    expect(await auditEntriesOf("school", school.id)).toHaveLength(0);
    return responses;
  }

  it("answers 403 to a post that names another site in Sec-Fetch-Site (no Origin), or names none, and changes nothing", async () => {
    for (const fetchSite of ["cross-site", "same-site", null]) {
      const responses = await attempts((url, fields, json) =>
        json === undefined
          ? postWithoutOrigin(url, new URLSearchParams(fields), fetchSite)
          : postWithoutOrigin(url, JSON.stringify(json), fetchSite, "application/json"),
      );
      for (const response of responses) expect(response.status, String(fetchSite)).toBe(403);
    }
  });

  it("refuses a post whose Origin is another site's (403, from the pipeline), and changes nothing", async () => {
    const responses = await attempts((url, fields, json) =>
      json === undefined ? post(url, fields, { origin: EVIL }) : postJson(url, json, { origin: EVIL }),
    );
    for (const response of responses) expect(response.status).toBe(403);
  });

  it("lets a post without Origin through when the browser says Sec-Fetch-Site: same-origin", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const response = await postWithoutOrigin(
      `/admin/school/${school.id}`,
      new URLSearchParams({ intent: "teacher-limit", limit: "6" }),
      "same-origin",
    );
    expect(response.status).toBe(200);
    expect((await schoolRow(school.id))!.teacherLimit).toBe(6);
  });

  it("follows the API's rule: our Origin, or without one Sec-Fetch-Site: same-origin", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const url = `/admin/school/${school.id}`;
    const fields = () => new URLSearchParams({ intent: "teacher-limit", limit: "7" });
    const sibling = await page(url, { cookie, method: "POST", headers: { Origin: "https://other.lectern.test" }, body: fields() });
    expect(sibling.status).toBe(403);
    expect((await postWithoutOrigin(url, fields(), "same-site")).status).toBe(403);
    expect((await postWithoutOrigin(url, fields(), null)).status).toBe(403);
    expect((await schoolRow(school.id))!.teacherLimit).toBe(5);
  });
});

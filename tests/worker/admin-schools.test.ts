import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { schools } from "../../workers/db/schema.ts";
import { guardedTeacherLimit, isLimitGuardError } from "../../workers/schools/write-guards.ts";
import { api, client, createBook, createSchool, db, errorOf, okBody, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";

let cookie: string;
let adminEmail: string;

beforeAll(async () => {
  const { admin, cookie: adminCookie } = await signedInAdmin();
  cookie = adminCookie;
  adminEmail = admin.email;
});

const DAY = 86_400_000;
const tag = () => crypto.randomUUID().slice(0, 8);
/** The typed client, as the signed-in admin. */
const admin = () => client({ cookie });
const schoolsApi = () => admin().api.schools;
type SchoolBody = InferRequestType<ReturnType<typeof schoolsApi>["$post"]>["json"];
type SchoolChange = InferRequestType<ReturnType<typeof schoolsApi>[":id"]["$put"]>["json"];
/** POST /api/schools, PUT and DELETE /api/schools/{id}, typed. */
const addSchool = (json: SchoolBody) => schoolsApi().$post({ json });
const changeSchool = (id: number, json: SchoolChange) => schoolsApi()[":id"].$put({ param: { id: String(id) }, json });
const removeSchool = (id: number) => schoolsApi()[":id"].$delete({ param: { id: String(id) } });

const newSchool = (overrides: Record<string, unknown> = {}) => ({
  ...schoolFields("Lincoln High", "Office@Lincoln.example"),
  principal: "Pat Principal",
  teacherLimit: 10,
  ...overrides,
});

async function auditRows(action: string, entityId: number | string) {
  const { results } = await env.DB.prepare("SELECT * FROM audit_log WHERE action = ? AND entity_id = ? ORDER BY id")
    .bind(action, String(entityId))
    .all<{ admin_email: string; before: string | null; after: string | null }>();
  return results.map((row) => ({ ...row, before: JSON.parse(row.before ?? "null"), after: JSON.parse(row.after ?? "null") }));
}

const countWhere = (table: string, column: string, id: number) =>
  env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(id).first<number>("n");

const addLogin = (schoolId: number, at: number, teacherId: number | null = null) =>
  env.DB.prepare("INSERT INTO login_events (kind, school_id, teacher_id, at) VALUES ('teacher', ?, ?, ?)")
    .bind(schoolId, teacherId, at)
    .run();

describe("who may call the admin schools API", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/schools"],
    ["GET", "/api/schools/search?query=high"],
    ["GET", "/api/schools/next-id"],
    ["GET", "/api/schools/1"],
    ["GET", "/api/schools/1/books"],
    ["POST", "/api/schools", newSchool()],
    ["PUT", "/api/schools/1", { city: "Elsewhere" }],
    ["DELETE", "/api/schools/1"],
    ["POST", "/api/schools/bulk", { rows: [newSchool({ slug: "some-school" })] }],
    ["POST", "/api/schools/logins", { schoolId: 1 }],
    ["POST", "/api/schools/logins/1/increase-total-login", { by: 5 }],
    ["GET", "/api/schools/slug/any-school/login-history"],
    ["GET", "/api/admin/stats/teacher-count"],
  ];

  it.each(routes)("%s %s answers 401 without a session and with a teacher's", async (method, path, payload) => {
    const teacher = await signedInTeacher(await createSchool());
    for (const session of [null, teacher.cookie, teacher.cookie.replace("teacher", "admin")]) {
      // One loop over a table of routes (paths as strings): raw calls.
      const response = await api(path, { method, body: payload, cookie: session });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Admin sign-in required" });
    }
  });

  it("refuses an admin's write from another site", async () => {
    const response = await client({ cookie, origin: "https://evil.example" }).api.schools.$post({ json: newSchool() });
    expect(response.status).toBe(403);
  });

  it("keeps the public school lookup public", async () => {
    const school = await createSchool();
    const response = await client().api.schools.slug[":slug"].$get({ param: { slug: school.slug } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ slug: school.slug, schoolName: school.name });
  });
});

describe("POST /api/schools", () => {
  it.each([
    [{ schoolName: "" }, "Please enter the school name"],
    [{ schoolName: undefined }, "Please enter the school name"],
    [{ zipCode: "6270" }, "Enter a 5-digit ZIP code"],
    [{ email: "not-an-address" }, "Please enter a valid email address"],
    [{ teacherLimit: 0 }, "The teacher limit must be a whole number from 1 to 10000"],
    [{ teacherLimit: 10_001 }, "The teacher limit must be a whole number from 1 to 10000"],
    [{ teacherLimit: 2.5 }, "The teacher limit must be a whole number from 1 to 10000"],
    [{ slug: "admin" }, "This slug is reserved"],
    [{ slug: "Bad Slug!" }, "Use lower-case letters, digits and single hyphens, not at the start or end"],
    [{ city: "x".repeat(101) }, "The city can have at most 100 characters"],
  ])("refuses %j with a sentence, and the field apart from it", async (overrides, error) => {
    const input = newSchool(overrides);
    const response = await addSchool(input);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error, field: Object.keys(overrides)[0] });
    if (typeof input.schoolName === "string" && input.schoolName) {
      expect(await env.DB.prepare("SELECT count(*) AS n FROM schools WHERE name = ?").bind(input.schoolName).first("n")).toBe(0);
    }
  });

  it("creates a school with a slug generated from its name, and audits it in the same write", async () => {
    const name = `Saint Mary's Académie ${tag()}`;
    const response = await addSchool(newSchool({ schoolName: name, address2: "", zipCode: "62701-1234" }));
    expect(response.status).toBe(201);
    const { school } = await okBody(response);
    expect(school).toMatchObject({
      schoolName: name,
      slug: name.toLowerCase().replace("'", "").replace("é", "e").replaceAll(" ", "-"),
      address2: null,
      zipCode: "62701-1234",
      email: "office@lincoln.example",
      teacherLimit: 10,
      teacherCount: 0,
      totalLogins: 0,
      bookCount: 0,
    });
    const [audit] = await auditRows("school.create", school.id);
    expect(audit).toMatchObject({ admin_email: adminEmail, after: { slug: school.slug, name } });

    const again = await okBody(addSchool(newSchool({ schoolName: name })));
    expect(again.school.slug).toBe(`${school.slug}-2`);
  });

  it("never generates a reserved slug", async () => {
    const response = await addSchool(newSchool({ schoolName: "Admin" }));
    expect(response.status).toBe(201);
    expect((await okBody(response)).school.slug).toMatch(/^admin-\d+$/);
  });

  it("answers 409 for a slug that is taken", async () => {
    const slug = `taken-${tag()}`;
    expect((await addSchool(newSchool({ slug }))).status).toBe(201);
    const response = await addSchool(newSchool({ slug: slug.toUpperCase() }));
    expect(response.status).toBe(409);
    // The field at fault is named, so the form marks the slug input (issue 43).
    expect(await response.json()).toEqual({ error: "A school with this slug already exists", field: "slug" });
  });
});

describe("PUT /api/schools/{id}", () => {
  it("changes the named fields only, and audits before and after", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const slug = `renamed-${tag()}`;
    const response = await changeSchool(school.id, { city: "Shelbyville", slug, principal: "" });
    expect(response.status).toBe(200);
    expect((await okBody(response)).school).toMatchObject({
      id: school.id,
      slug,
      city: "Shelbyville",
      principal: null,
      address1: "1 Main Street",
    });
    const [audit] = await auditRows("school.update", school.id);
    expect(audit?.before).toMatchObject({ slug: school.slug, city: "Springfield" });
    expect(audit?.after).toEqual({ city: "Shelbyville", slug, principal: null });
  });

  it("changes the school the path names: an id in the body cannot retarget it", async () => {
    const [school, other] = [await createSchool(), await createSchool()];
    // A body the typed client would not send: raw.
    const response = await api(`/api/schools/${school.id}`, { method: "PUT", cookie, body: { id: other.id, city: "Shelbyville" } });
    expect(response.status).toBe(200);
    const cities = await db()
      .select({ id: schools.id, city: schools.city })
      .from(schools)
      .where(inArray(schools.id, [school.id, other.id]));
    expect(Object.fromEntries(cities.map((row) => [row.id, row.city]))).toEqual({ [school.id]: "Shelbyville", [other.id]: "Springfield" });
  });

  it("refuses a teacher limit below the registered teachers", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    await signedInTeacher(school, "One");
    await signedInTeacher(school, "Two");
    const response = await changeSchool(school.id, { teacherLimit: 1 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "This school already has 2 registered teachers; the teacher limit cannot be lower",
    });
    expect(await env.DB.prepare("SELECT teacher_limit FROM schools WHERE id = ?").bind(school.id).first("teacher_limit")).toBe(5);
    expect(await auditRows("school.update", school.id)).toEqual([]);
    expect((await changeSchool(school.id, { teacherLimit: 2 })).status).toBe(200);
  });

  it("guards the limit inside the write too, for teachers who register after the check", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    await signedInTeacher(school);
    await signedInTeacher(school);
    const setLimit = (limit: number) =>
      db()
        .update(schools)
        .set({ teacherLimit: guardedTeacherLimit(school.id, limit) })
        .where(eq(schools.id, school.id));
    expect(
      isLimitGuardError(
        await db()
          .batch([setLimit(1)])
          .catch((error: unknown) => error),
      ),
    ).toBe(true);
    expect(isLimitGuardError(await setLimit(1).catch((error: unknown) => error))).toBe(true);
    await db().batch([setLimit(2)]);
    expect(await env.DB.prepare("SELECT teacher_limit FROM schools WHERE id = ?").bind(school.id).first("teacher_limit")).toBe(2);
  });

  it("refuses a taken or reserved slug, and answers 404 for an unknown school", async () => {
    const [a, b] = [await createSchool(), await createSchool()];
    const taken = await changeSchool(a.id, { slug: b.slug });
    expect(taken.status).toBe(409);
    const reserved = await changeSchool(a.id, { slug: "login" });
    expect(await reserved.json()).toEqual({ error: "This slug is reserved", field: "slug" });
    expect((await changeSchool(99999999, { city: "X" })).status).toBe(404);
  });
});

describe("DELETE /api/schools/{id}", () => {
  it("removes the school with its teachers, sessions, shelf and logins, and audits the before state", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school);
    const book = await createBook({ title: `Kept Book ${tag()}` }, [school.id]);
    await addLogin(school.id, Date.now(), teacher.id);
    await env.DB.prepare("INSERT INTO reading_progress (teacher_id, book_id, page, updated_at) VALUES (?, ?, 3, ?)")
      .bind(teacher.id, book.id, Date.now())
      .run();

    const response = await removeSchool(school.id);
    expect(response.status).toBe(200);
    expect(await okBody(response)).toEqual({ ok: true });
    for (const [table, column] of [
      ["schools", "id"],
      ["teachers", "school_id"],
      ["sessions", "school_id"],
      ["book_access", "school_id"],
      ["login_events", "school_id"],
    ] as const) {
      expect(await countWhere(table, column, school.id), table).toBe(0);
    }
    expect(await countWhere("reading_progress", "teacher_id", teacher.id)).toBe(0);
    expect(await countWhere("books", "id", book.id)).toBe(1);
    const [audit] = await auditRows("school.delete", school.id);
    expect(audit?.before).toMatchObject({ id: school.id, slug: school.slug, teacherCount: 1, bookCount: 1 });
    expect((await removeSchool(school.id)).status).toBe(404);
  });
});

describe("GET /api/schools", () => {
  type Query = Omit<InferRequestType<ReturnType<typeof admin>["api"]["schools"]["$get"]>["query"], "query">;
  let group: string;
  let ids: number[];

  beforeAll(async () => {
    group = `zq${tag()}`;
    ids = [];
    // Names out of insertion order, mixed case, so name order differs from creation order.
    for (const n of [5, 2, 9, 1, 7, 3, 8, 4, 6, 10, 12, 11]) {
      const school = await createSchool({
        name: `${n % 2 ? "alpha" : "Alpha"} ${group} ${String(n).padStart(2, "0")}`,
        slug: `${group}-${String(n).padStart(2, "0")}`,
      });
      ids.push(school.id);
    }
    await signedInTeacher({ id: ids[3]! });
    await signedInTeacher({ id: ids[3]! });
    await signedInTeacher({ id: ids[7]! });
    await createBook({ title: `Shelf ${group}` }, [ids[3]!]);
  });

  const list = async (params: Query) => {
    const response = await admin().api.schools.$get({ query: { query: group, ...params } });
    expect(response.status).toBe(200);
    return okBody(response);
  };
  const total = async (query: string) => (await okBody(admin().api.schools.$get({ query: { query } }))).total;
  const numbers = (page: { schools: { schoolName: string }[] }) => page.schools.map((school) => Number(school.schoolName.slice(-2)));

  it("pages by name, case-insensitively", async () => {
    const first = await list({ page: "1", pageSize: "5", sort: "name" });
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 5 });
    expect(numbers(first)).toEqual([1, 2, 3, 4, 5]);
    expect(numbers(await list({ page: "3", pageSize: "5", sort: "name" }))).toEqual([11, 12]);
    expect(numbers(await list({ page: "1", pageSize: "3", sort: "name", dir: "desc" }))).toEqual([12, 11, 10]);
  });

  it("sorts by slug, creation and teachers, with the counts of each row", async () => {
    expect(numbers(await list({ pageSize: "3", sort: "slug", dir: "desc" }))).toEqual([12, 11, 10]);
    expect(numbers(await list({ pageSize: "3", sort: "createdAt" }))).toEqual([5, 2, 9]);
    expect(numbers(await list({ pageSize: "2", sort: "createdAt", dir: "desc" }))).toEqual([11, 12]);
    const busiest = await list({ pageSize: "2", sort: "teachers", dir: "desc" });
    expect(busiest.schools.map((s) => [s.id, s.teacherCount, s.bookCount])).toEqual([
      [ids[3], 2, 1],
      [ids[7], 1, 0],
    ]);
  });

  it("matches the query in slug, city, e-mail and ZIP, with LIKE wildcards taken literally", async () => {
    const city = `Pct${tag()}`;
    await createSchool({ name: "100% Kids", city, email: `front_desk@${city.toLowerCase()}.example`, zipCode: "90210" });
    expect(await total(city)).toBe(1);
    expect(await total(`front_desk@${city}`)).toBe(1);
    expect(await total(`${city}%`)).toBe(0);
    expect(await total(`${group}-1`)).toBe(3);
    expect(await total("x".repeat(120))).toBe(0);
  });

  it("refuses pages larger than 100 and unknown sorts", async () => {
    expect(await (await schoolsApi().$get({ query: { pageSize: "101" } })).json()).toEqual({
      error: "The page size can be at most 100",
      field: "pageSize",
    });
    // A sort the API does not know, which the typed client would not send: raw.
    expect((await api("/api/schools?sort=password", { cookie })).status).toBe(400);
  });
});

describe("GET /api/schools/search, /next-id, /{id}, /{id}/books", () => {
  it("finds at most 20 schools with a description", async () => {
    const group = `srch${tag()}`;
    for (let i = 0; i < 22; i++) await createSchool({ name: `${group} ${i}`, city: "Austin", state: "TX", zipCode: "73301" });
    const { schools } = await okBody(admin().api.schools.search.$get({ query: { query: group } }));
    expect(schools).toHaveLength(20);
    expect(schools[0]).toEqual({
      id: expect.any(Number),
      name: `${group} 0`,
      email: "office@test.example",
      zipCode: "73301",
      description: "Austin, TX",
    });
  });

  it("tells Add School whether an address is free, taken, reserved or malformed", async () => {
    const taken = await createSchool();
    const check = async (slug: string) => okBody(admin().api.schools["slug-available"].$get({ query: { slug } }));
    expect(await check(taken.slug)).toEqual({ available: false, reason: "taken", suggestion: `${taken.slug}-2` });
    await createSchool({ slug: `${taken.slug}-2` });
    expect(await check(taken.slug.toUpperCase())).toEqual({ available: false, reason: "taken", suggestion: `${taken.slug}-3` });
    expect(await check(`free-${tag()}`)).toEqual({ available: true });
    expect(await check("admin")).toEqual({ available: false, reason: "This slug is reserved" });
    expect((await check("-bad-")).available).toBe(false);
    expect((await client().api.schools["slug-available"].$get({ query: { slug: taken.slug } })).status).toBe(401);
  });

  it("tells the next id, past deleted ones", async () => {
    const { nextId } = await okBody(admin().api.schools["next-id"].$get());
    const created = await okBody(addSchool(newSchool()));
    expect(created.school.id).toBe(nextId);
    await removeSchool(nextId);
    expect(await okBody(admin().api.schools["next-id"].$get())).toEqual({ nextId: nextId + 1 });
  });

  it("shows a school with its teachers and their last login", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school, "Ada Teacher");
    await addLogin(school.id, 1_700_000_000_000, teacher.id);
    await addLogin(school.id, 1_700_000_500_000, teacher.id);
    const response = await admin().api.schools[":id"].$get({ param: { id: String(school.id) } });
    expect(response.status).toBe(200);
    const detail = (await okBody(response)).school;
    expect(detail).toMatchObject({ id: school.id, slug: school.slug, schoolName: school.name, teacherCount: 1, teacherLimit: 5 });
    expect(detail.teachers).toEqual([
      {
        id: teacher.id,
        name: "Ada Teacher",
        email: teacher.email,
        mobile: "5550000000",
        disabled: false,
        coordinator: false,
        createdAt: teacher.createdAt,
        lastLoginAt: 1_700_000_500_000,
      },
    ]);
    expect(await (await schoolsApi()[":id"].$get({ param: { id: "99999999" } })).json()).toEqual({ error: "School not found" });
  });

  it("lists the books a school can read", async () => {
    const school = await createSchool();
    const book = await createBook({ title: "Assigned Book", isbn: "9780306406157", gradeLevel: 4, subject: "Science" }, [school.id]);
    await createBook({ title: "Other Book" });
    const { books } = await okBody(admin().api.schools[":id"].books.$get({ param: { id: String(school.id) } }));
    expect(books).toEqual([
      {
        id: book.id,
        title: "Assigned Book",
        author1: "Some Author",
        author2: null,
        isbn: "9780306406157",
        gradeLevel: 4,
        subject: "Science",
        thumbnailPath: `/api/books/${book.id}/thumbnail?v=${book.createdAt}`,
      },
    ]);
    expect((await schoolsApi()[":id"].books.$get({ param: { id: "99999999" } })).status).toBe(404);
  });
});

describe("the school login record", () => {
  it("reports the limit, teachers, total and recent logins", async () => {
    const school = await createSchool({ teacherLimit: 4, totalLogins: 40 });
    await signedInTeacher(school);
    for (const daysAgo of [0.5, 3, 10, 40]) await addLogin(school.id, Date.now() - daysAgo * DAY);
    const response = await schoolsApi().logins.$post({ json: { schoolId: school.id } });
    expect(await okBody(response)).toEqual({
      schoolId: school.id,
      teacherLimit: 4,
      teacherCount: 1,
      totalLogins: 40,
      loginsLast7Days: 2,
      loginsLast30Days: 3,
    });
    expect((await schoolsApi().logins.$post({ json: { schoolId: 99999999 } })).status).toBe(404);
  });

  it("raises the teacher limit by an amount or to a limit, never below the teachers, audited", async () => {
    const school = await createSchool({ teacherLimit: 3 });
    for (const name of ["A", "B", "C"]) await signedInTeacher(school, name);
    const raise = (json: InferRequestType<ReturnType<typeof schoolsApi>["logins"][":id"]["increase-login-count"]["$post"]>["json"]) =>
      schoolsApi().logins[":id"]["increase-login-count"].$post({ param: { id: String(school.id) }, json });
    expect(await okBody(raise({ by: 5 }))).toEqual({ teacherLimit: 8 });
    expect(await okBody(raise({ limit: 20 }))).toEqual({ teacherLimit: 20 });
    const lower = await raise({ limit: 2 });
    expect(lower.status).toBe(400);
    expect(await errorOf(lower)).toBe("This school already has 3 registered teachers; the teacher limit cannot be lower");
    expect((await raise({ by: 5, limit: 30 })).status).toBe(400);
    expect((await raise({ by: 0 })).status).toBe(400);
    expect(await (await raise({ by: 9_990 })).json()).toEqual({ error: "The teacher limit can be at most 10000" });
    const audits = await auditRows("school.increase-login-count", school.id);
    expect(audits.map((a) => [a.before, a.after])).toEqual([
      [{ teacherLimit: 3 }, { teacherLimit: 8 }],
      [{ teacherLimit: 8 }, { teacherLimit: 20 }],
    ]);
  });

  it("raises the total login counter, audited", async () => {
    const school = await createSchool({ totalLogins: 7 });
    const addLogins = (id: number, by: number) =>
      schoolsApi().logins[":id"]["increase-total-login"].$post({ param: { id: String(id) }, json: { by } });
    expect(await okBody(addLogins(school.id, 10))).toEqual({ totalLogins: 17 });
    const refused = { error: "The number of logins to add must be a whole number from 1 to 1000000", field: "by" };
    expect(await (await addLogins(school.id, 0)).json()).toEqual(refused);
    expect(await (await addLogins(school.id, 1_000_001)).json()).toEqual(refused);
    expect((await addLogins(99999999, 1)).status).toBe(404);
    const [audit, ...more] = await auditRows("school.increase-total-login", school.id);
    expect(more).toEqual([]);
    expect([audit?.before, audit?.after]).toEqual([{ totalLogins: 7 }, { totalLogins: 17, by: 10 }]);
  });
});

describe("GET /api/schools/slug/{slug}/login-history", () => {
  it("counts logins per day, zero days included", async () => {
    const school = await createSchool();
    const today = Math.floor(Date.now() / DAY) * DAY;
    await addLogin(school.id, today + 1000);
    await addLogin(school.id, today + 2000);
    await addLogin(school.id, today - 3 * DAY + 5);
    await addLogin(school.id, today - 30 * DAY);
    const response = await admin().api.schools.slug[":slug"]["login-history"].$get({ param: { slug: school.slug }, query: { days: "7" } });
    expect(response.status).toBe(200);
    const history = await okBody(response);
    const date = (daysAgo: number) => new Date(today - daysAgo * DAY).toISOString().slice(0, 10);
    expect(history.total).toBe(3);
    expect(history.days).toEqual([6, 5, 4, 3, 2, 1, 0].map((ago) => ({ date: date(ago), logins: { 3: 1, 0: 2 }[ago] ?? 0 })));
    expect(
      (await okBody(admin().api.schools.slug[":slug"]["login-history"].$get({ param: { slug: school.slug }, query: {} }))).days,
    ).toHaveLength(90);
    const loginHistory = schoolsApi().slug[":slug"]["login-history"];
    expect((await loginHistory.$get({ param: { slug: school.slug }, query: { days: "366" } })).status).toBe(400);
    expect((await loginHistory.$get({ param: { slug: "no-such-school" }, query: {} })).status).toBe(404);
  });
});

describe("GET /api/admin/stats/teacher-count", () => {
  it("counts teachers, schools, books and the last 7 days' teacher logins", async () => {
    const stats = async () => {
      const response = await admin().api.admin.stats["teacher-count"].$get();
      expect(response.status).toBe(200);
      return okBody(response);
    };
    const before = await stats();
    const school = await createSchool();
    await signedInTeacher(school);
    await createBook({ title: `Counted ${tag()}` });
    await addLogin(school.id, Date.now() - DAY);
    await addLogin(school.id, Date.now() - 8 * DAY);
    const after = await stats();
    expect({
      teachers: after.teachers - before.teachers,
      schools: after.schools - before.schools,
      books: after.books - before.books,
      loginsThisWeek: after.loginsThisWeek - before.loginsThisWeek,
    }).toEqual({ teachers: 1, schools: 1, books: 1, loginsThisWeek: 1 });
    expect(after.schools).toBe(await env.DB.prepare("SELECT count(*) AS n FROM schools").first("n"));
  });
});

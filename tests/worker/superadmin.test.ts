import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { auditCsvStream } from "../../workers/admins/audit-csv.ts";
import { auditWhere } from "../../workers/admins/audit-log.ts";
import { auditLog } from "../../workers/db/schema.ts";
import { api, client, createBook, createSchool, db, okBody, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

const adminLogin = (email: string, password: string) => client().api.admin.login.$post({ json: { email, password } });
/** A superadmin's change to an admin account. */
const updateAdmin = (cookie: string, id: number, json: { disabled?: boolean; password?: string }) =>
  client({ cookie }).api.superadmin.admins[":id"].$put({ param: { id: String(id) }, json });

describe("superadmin API", () => {
  it("refuses plain admins, teachers and strangers", async () => {
    const admin = await signedInAdmin("admin");
    const teacher = await signedInTeacher(await createSchool());
    const reads = [
      ["/api/superadmin/admins", (cookie?: string) => client({ cookie }).api.superadmin.admins.$get()],
      ["/api/superadmin/audit", (cookie?: string) => client({ cookie }).api.superadmin.audit.$get({ query: {} })],
      ["/api/superadmin/stats", (cookie?: string) => client({ cookie }).api.superadmin.stats.$get()],
    ] as const;
    for (const [path, read] of reads) {
      expect((await read()).status, path).toBe(401);
      expect((await read(teacher.cookie)).status, path).toBe(401);
      expect((await read(admin.cookie)).status, path).toBe(403);
    }
  });

  it("creates an admin who can sign in, and records it in the audit log", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const email = `new-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    const admins = client({ cookie }).api.superadmin.admins;
    const created = await admins.$post({ json: { email, name: "New Admin", password: "a long new passphrase" } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ admin: { email, role: "admin", disabled: false } });
    expect(JSON.stringify(await (await admins.$get()).json())).not.toContain("passwordHash");
    expect((await adminLogin(email, "a long new passphrase")).status).toBe(200);
    expect((await admins.$post({ json: { email, name: "Again", password: "a long new passphrase" } })).status).toBe(409);

    const audit = await okBody(client({ cookie }).api.superadmin.audit.$get({ query: { who: superadmin.email } }));
    expect(audit.entries[0]).toMatchObject({
      adminEmail: superadmin.email,
      action: "create",
      entityType: "admin",
      what: `create admin ${email}`,
    });
  });

  it("disables (ending sessions), re-enables and resets passwords; never disables itself", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    const me = () => client(target).api.admin.me.$get();
    const update = (id: number, json: { disabled?: boolean; password?: string }) => updateAdmin(cookie, id, json);
    expect((await me()).status).toBe(200);
    expect((await update(target.admin.id, { disabled: true })).status).toBe(200);
    expect((await me()).status).toBe(401);
    expect((await adminLogin(target.admin.email, target.password)).status).toBe(403);
    expect((await update(target.admin.id, { disabled: false })).status).toBe(200);
    expect((await update(target.admin.id, { password: "brand new passphrase" })).status).toBe(200);
    expect((await adminLogin(target.admin.email, "brand new passphrase")).status).toBe(200);
    const self = await update(superadmin.id, { disabled: true });
    expect(self.status).toBe(400);
    const actions = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE entity_type = 'admin' AND entity_id = ? AND action NOT LIKE 'sign%' ORDER BY id",
    )
      .bind(String(target.admin.id))
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(["disable", "enable", "reset-password"]);
  });

  it("changes the admin the path names: an id in the body cannot retarget it", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const [target, other] = [await signedInAdmin("admin"), await signedInAdmin("admin")];
    // A body the typed client would not send: raw.
    const response = await api(`/api/superadmin/admins/${target.admin.id}`, {
      method: "PUT",
      cookie,
      body: { id: other.admin.id, disabled: true },
    });
    expect(response.status).toBe(200);
    expect((await client(target).api.admin.me.$get()).status).toBe(401);
    expect((await client(other).api.admin.me.$get()).status).toBe(200);
  });

  it("validates input", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const response = await client({ cookie }).api.superadmin.admins.$post({ json: { email: "bad", name: "X", password: "short" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Please enter a valid email address", field: "email" });
  });

  it("answers the global figures", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const stats = await okBody(client({ cookie }).api.superadmin.stats.$get());
    expect(Object.keys(stats).sort()).toEqual(["books", "loginsThisWeek", "schools", "teachers"]);
    expect(stats.schools).toBeGreaterThanOrEqual(1);
  });
});

type AuditQuery = InferRequestType<ReturnType<typeof client>["api"]["superadmin"]["audit"]["$get"]>["query"];

const audit = async (cookie: string, query: AuditQuery = {}) => {
  const response = await client({ cookie }).api.superadmin.audit.$get({ query });
  expect(response.status).toBe(200);
  return okBody(response);
};

/** An audit row written straight to the table (a past entry, or cells a spreadsheet would take for formulas). */
const insertEntry = (entry: { email: string; action: string; type: string; id?: string | null; at: number; before?: string | null }) =>
  env.DB.prepare("INSERT INTO audit_log (admin_email, action, entity_type, entity_id, before, after, at) VALUES (?, ?, ?, ?, ?, NULL, ?)")
    .bind(entry.email, entry.action, entry.type, entry.id ?? null, entry.before ?? null, entry.at)
    .run();

describe("the audit log reads as names", () => {
  it("names admins by e-mail, schools by name, books by title, and what is gone by #id (deleted)", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const admin = await signedInAdmin("admin");
    const target = await signedInAdmin("admin");
    const school = await createSchool({ name: `Named School ${crypto.randomUUID().slice(0, 6)}` });
    const book = await createBook({ title: `Named Book ${crypto.randomUUID().slice(0, 6)}` }, [school.id]);
    const doomed = await createBook({ title: "Soon Gone" });
    await updateAdmin(cookie, target.admin.id, { disabled: true });
    const asAdmin = client(admin).api;
    await asAdmin.schools[":id"].$put({ param: { id: String(school.id) }, json: { city: "Salem" } });
    await asAdmin.books[":id"].$put({ param: { id: String(book.id) }, json: { subject: "History" } });
    await asAdmin.books.access[":schoolId"][":bookId"].$delete({ param: { schoolId: String(school.id), bookId: String(book.id) } });
    await asAdmin.books[":id"].$delete({ param: { id: String(doomed.id) } });

    const own = await audit(cookie, { who: superadmin.email });
    expect(own.entries.map((e) => e.what)).toContain(`disable admin ${target.admin.email}`);
    const theirs = (await audit(cookie, { who: admin.admin.email })).entries.map((e) => e.what);
    expect(theirs).toContain(`update book “${book.title}”`);
    expect(theirs).toContain(`unassign book “${book.title}” from ${school.name}`);
    expect(theirs).toContain(`delete book #${doomed.id} (deleted)`);
    expect(theirs.some((what) => what.startsWith("update school") && what.endsWith(school.name))).toBe(true);
  });

  it("the dashboard shows the names and each change folded, in full", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    await updateAdmin(cookie, target.admin.id, { disabled: true });
    const html = await (await page(`/superadmin/dashboard?what=disable&who=`, { cookie })).text();
    expect(html).toContain(`disable admin ${target.admin.email}`);
    expect(html).toMatch(/<details[^>]*>.*Before → after/s);
    expect(html).toContain("Export CSV");
    expect(html).toContain('href="/api/superadmin/audit.csv?what=disable"');
  });
});

describe("the audit log's filters", () => {
  it("filters by who, what and a date range (UTC days, both included), in SQL, with the total", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const who = `filter-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
    await insertEntry({ email: who, action: "book.update", type: "book", id: "1", at: day("2021-03-01") });
    await insertEntry({ email: who, action: "book.update", type: "book", id: "1", at: day("2021-03-02") + 86_399_999 });
    await insertEntry({ email: who, action: "school.update", type: "school", id: "1", at: day("2021-03-03") });
    await insertEntry({ email: who, action: "book.update", type: "book", id: "1", at: day("2021-03-04") });

    expect((await audit(cookie, { who })).total).toBe(4);
    expect((await audit(cookie, { who: who.toUpperCase(), what: "book.update" })).total).toBe(3);
    const range = await audit(cookie, { who, from: "2021-03-02", to: "2021-03-03" });
    expect(range.entries.map((e) => e.action)).toEqual(["school.update", "book.update"]);
    expect((await audit(cookie, { who, from: "2021-03-04" })).total).toBe(1);
    expect((await audit(cookie, { who, to: "2021-03-01" })).total).toBe(1);
    const second = await audit(cookie, { who, pageSize: "3", page: "2" });
    expect([second.total, second.entries.length, second.page]).toEqual([4, 1, 2]);

    for (const [query, error] of [
      [{ from: "2021-02-30" }, "Enter the from date as YYYY-MM-DD"],
      [{ to: "yesterday" }, "Enter the to date as YYYY-MM-DD"],
      [{ from: "2021-03-05", to: "2021-03-01" }, "The from date is after the to date"],
    ] as const) {
      const response = await client({ cookie }).api.superadmin.audit.$get({ query });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error });
    }
    // The page says so and shows the whole log.
    expect(await (await page("/superadmin/dashboard?from=2021-02-30", { cookie })).text()).toContain("The whole log is shown.");
  });

  it("a date range walks audit_log_at_idx", async () => {
    const query = new SQLiteSyncDialect().sqlToQuery(
      sql`SELECT * FROM ${auditLog} WHERE ${auditWhere({ fromMs: 0, toMs: Date.now() })} ORDER BY at DESC, id DESC LIMIT 25`,
    );
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join("\n")).toContain("audit_log_at_idx");
  });
});

describe("GET /api/superadmin/audit.csv", () => {
  it("exports the filtered log as a UTF-8 attachment with a header row, formulas neutralised", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const who = `csv-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    await insertEntry({ email: who, action: '=HYPERLINK("http://evil")', type: "+book", id: "-1", at: 1_600_000_000_000 });
    await insertEntry({
      email: who,
      action: "@SUM(A1)",
      type: "school",
      id: 'Ünïcode, "quoted"',
      at: 1_600_000_001_000,
      before: '{"a":1}',
    });
    const response = await client({ cookie }).api.superadmin["audit.csv"].$get({ query: { who } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="lectern-audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines[0]).toBe("When (UTC),Who,Action,What,Target type,Target id,Before,After");
    expect(lines[1]).toBe(
      `2020-09-13T12:26:41.000Z,${who},'@SUM(A1),"'@SUM(A1) school #Ünïcode, ""quoted"" (deleted)",school,"Ünïcode, ""quoted""","{""a"":1}",`,
    );
    expect(lines[2]).toBe(
      `2020-09-13T12:26:40.000Z,${who},"'=HYPERLINK(""http://evil"")","'=HYPERLINK(""http://evil"") +book #-1",'+book,'-1,,`,
    );
    expect(lines.slice(3)).toEqual([""]);
  });

  it("pages through the log by (at, id) without repeats, newest first", async () => {
    const who = `page-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    for (let i = 0; i < 7; i++) await insertEntry({ email: who, action: `a${i}`, type: "book", at: 1_700_000_000_000 + (i < 4 ? 0 : i) });
    const read = async (limits: { page: number; max: number }) =>
      (await new Response(auditCsvStream(db(), { who }, limits)).text())
        .trim()
        .split("\r\n")
        .slice(1)
        .map((line) => line.split(",")[2]);
    expect(await read({ page: 2, max: 100 })).toEqual(["a6", "a5", "a4", "a3", "a2", "a1", "a0"]);
    expect(await read({ page: 3, max: 5 })).toEqual(["a6", "a5", "a4", "a3", "a2"]);
  });

  it("is for superadmins only", async () => {
    const admin = await signedInAdmin("admin");
    expect((await client().api.superadmin["audit.csv"].$get({ query: {} })).status).toBe(401);
    expect((await client(admin).api.superadmin["audit.csv"].$get({ query: {} })).status).toBe(403);
  });
});

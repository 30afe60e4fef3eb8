// Review of issue 46 (bookstore codes): every /api/codes route attacked as a script would, by a
// signed-out caller, a plain teacher, a coordinator, an admin's cookie on a school's host and a
// teacher's cookie on the admin host; each POST without or with a forged Origin; methods the routes
// do not take. And redeeming for another school every way a body or a host can name it, by a
// disabled coordinator and by a teacher whose school was deleted. Nothing may be written.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { OWN_SCHOOL_ONLY } from "../../workers/codes/redeem-commands.ts";
import { codeBatches, rateLimits } from "../../workers/db/schema.ts";
import { makeBatch, storedCodes, uniqueLabel } from "./code-batch-fixtures.ts";
import { coordinatorOf, freshIp, oneCode, schoolWithCoordinator, storedCode } from "./code-redeem-fixtures.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, client, createSchool, db, errorBody, licenceOf, signedInTeacher } from "./helpers.ts";

const admin = adminForTheFile();
const ADMIN_HOST = "https://admin.lectern.test";

/** Every admin route of /api/codes, for a batch of two codes made for the test. */
async function adminRoutes() {
  const made = await makeBatch(admin.cookie, { count: 2 });
  const [row] = await storedCodes(made.batch.id);
  const routes: { method: string; path: string; body?: unknown }[] = [
    {
      method: "POST",
      path: "/api/codes/batches",
      body: { label: uniqueLabel(), bookIds: made.batch.books.map((b) => b.id), days: 30, count: 1 },
    },
    { method: "GET", path: "/api/codes/batches" },
    { method: "GET", path: `/api/codes/batches/${made.batch.id}` },
    { method: "POST", path: `/api/codes/batches/${made.batch.id}/revoke`, body: {} },
    { method: "POST", path: "/api/codes/revoke", body: { code: made.codes[0] } },
    { method: "POST", path: `/api/codes/${row!.id}/revoke`, body: {} },
    { method: "GET", path: `/api/codes/redemptions.csv?batchId=${made.batch.id}` },
  ];
  return { made, routes };
}

/** The batch's state as D1 has it: nothing withdrawn, no code redeemed or withdrawn. */
async function expectUntouched(batchId: number, label: string) {
  const [batch] = await db().select().from(codeBatches).where(eq(codeBatches.id, batchId));
  expect(batch).toMatchObject({ revokedAt: null, revokedCount: 0, redeemedCount: 0 });
  for (const code of await storedCodes(batchId)) expect(code).toMatchObject({ revokedAt: null, redeemedAt: null });
  // No batch was made by the refused POST /batches (its label is the route list's own).
  expect(await db().select().from(codeBatches).where(eq(codeBatches.label, label))).toHaveLength(0);
}

describe("/api/codes: who is refused on every admin route", () => {
  it("signed out, a plain teacher, a coordinator, an admin's cookie on a school's host, a teacher's on the admin host", async () => {
    const { made, routes } = await adminRoutes();
    const school = await createSchool({ teacherLimit: 10 });
    const teacher = await signedInTeacher(school, "Plain Teacher");
    const coordinator = await coordinatorOf(school, "Some Coordinator");
    const callers: { who: string; base: string; cookie?: string }[] = [
      { who: "signed out", base: "https://lectern.test" },
      { who: "a plain teacher", base: "https://lectern.test", cookie: teacher.cookie },
      { who: "a coordinator", base: "https://lectern.test", cookie: coordinator.cookie },
      { who: "a coordinator on their own host", base: `https://${school.slug}.lectern.test`, cookie: coordinator.cookie },
      { who: "an admin's cookie on a school's host", base: `https://${school.slug}.lectern.test`, cookie: admin.cookie },
      { who: "a coordinator's cookie on the admin host", base: ADMIN_HOST, cookie: coordinator.cookie },
    ];
    for (const { who, base, cookie } of callers)
      for (const { method, path, body } of routes) {
        const answer = await api(`${base}${path}`, { method, body, cookie });
        expect([401, 403], `${method} ${path}: ${who}`).toContain(answer.status);
        expect(answer.headers.get("Content-Type"), `${method} ${path}: ${who}`).toContain("application/json");
      }
    await expectUntouched(made.batch.id, (routes[0]!.body as { label: string }).label);
    // The admin on the admin host is the admin: the same list answers.
    expect((await api(`${ADMIN_HOST}/api/codes/batches`, { cookie: admin.cookie })).status).toBe(200);
  });

  it("every POST, even an admin's, without an Origin, with another site's or a sibling school's: 403, nothing written", async () => {
    const { made, routes } = await adminRoutes();
    const { coordinator } = await schoolWithCoordinator();
    const { code } = await oneCode();
    const posts = [
      ...routes.filter((route) => route.method === "POST").map((route) => ({ ...route, cookie: admin.cookie })),
      { method: "POST", path: "/api/codes/redeem", body: { code }, cookie: coordinator.cookie },
    ];
    const origins: { origin: string | null; headers?: Record<string, string> }[] = [
      { origin: null },
      { origin: null, headers: { "Sec-Fetch-Site": "cross-site" } },
      { origin: null, headers: { "Sec-Fetch-Site": "same-site" } },
      { origin: "https://evil.example" },
      { origin: "https://some-school.lectern.test" },
      { origin: "null" },
      { origin: "http://lectern.test" },
    ];
    for (const { method, path, body, cookie } of posts)
      for (const { origin, headers } of origins) {
        const answer = await api(path, { method, body, cookie, origin, headers, ip: freshIp() });
        expect(answer.status, `${path} from ${origin} ${JSON.stringify(headers ?? {})}`).toBe(403);
      }
    await expectUntouched(made.batch.id, (routes[0]!.body as { label: string }).label);
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
  });

  it("methods the routes do not take: 404, nothing written", async () => {
    const { made } = await adminRoutes();
    const label = uniqueLabel();
    const body = { label, bookIds: made.batch.books.map((b) => b.id), days: 30, count: 1 };
    const wrong: [string, string][] = [
      ["PUT", "/api/codes/batches"],
      ["PATCH", `/api/codes/batches/${made.batch.id}`],
      ["DELETE", `/api/codes/batches/${made.batch.id}`],
      ["PUT", `/api/codes/batches/${made.batch.id}/revoke`],
      ["GET", `/api/codes/batches/${made.batch.id}/revoke`],
      ["GET", "/api/codes/redeem"],
      ["PUT", "/api/codes/redeem"],
      ["GET", "/api/codes/revoke"],
      ["POST", "/api/codes/redemptions.csv"],
      ["DELETE", "/api/codes/batches"],
    ];
    for (const [method, path] of wrong) {
      const answer = await api(path, { method, body: method === "GET" ? undefined : body, cookie: admin.cookie });
      expect([404, 405], `${method} ${path}`).toContain(answer.status);
    }
    await expectUntouched(made.batch.id, label);
  });
});

describe("a coordinator of school A redeeming for school B", () => {
  it("refused by schoolId as a number, a string, an array, an object, negative, huge, fractional; on B's host and slug path", async () => {
    const a = await schoolWithCoordinator();
    const b = await createSchool();
    const { book, code } = await oneCode();
    const ip = freshIp();
    const named: unknown[] = [
      b.id,
      String(b.id),
      ` ${b.id} `,
      [b.id],
      [a.school.id, b.id],
      { id: b.id },
      -b.id,
      b.id + 0.5,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      "0x10",
      true,
    ];
    for (const schoolId of named) {
      const answer = await api("/api/codes/redeem", { body: { code, schoolId }, cookie: a.coordinator.cookie, ip });
      expect([400, 403], JSON.stringify(schoolId)).toContain(answer.status);
    }
    // B's host, and the API's slug path naming B (no such route today: 404; were one added, it must refuse).
    const onHost = await api(`https://${b.slug}.lectern.test/api/codes/redeem`, { body: { code }, cookie: a.coordinator.cookie, ip });
    expect(onHost.status).toBe(403);
    expect(await errorBody(onHost)).toMatchObject({ error: OWN_SCHOOL_ONLY });
    const onPath = await api(`/api/schools/slug/${b.slug}/codes/redeem`, { body: { code }, cookie: a.coordinator.cookie, ip });
    expect([403, 404]).toContain(onPath.status);
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null, schoolId: null });
    expect(await licenceOf(b.id, book.id)).toBeUndefined();
    // Refusals of who it is for are not guesses: nothing was counted against the address.
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `code:ip:${ip}`)),
    ).toHaveLength(0);
  });

  it("a disabled coordinator: 401; a coordinator whose school was deleted: 401; nothing redeemed", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const { code } = await oneCode();
    const disable = client({ cookie: admin.cookie }).api.schools[":id"].teachers[":teacherId"].disable.$post({
      param: { id: String(school.id), teacherId: String(coordinator.teacher.id) },
    });
    expect((await disable).status).toBe(200);
    const disabled = await api("/api/codes/redeem", { body: { code }, cookie: coordinator.cookie, ip: freshIp() });
    expect(disabled.status).toBe(401);
    expect(await errorBody(disabled)).toMatchObject({ disabled: true });

    const gone = await schoolWithCoordinator();
    // The D1 half of deleting a school (its object may not have been reached yet).
    await db().run(sql`DELETE FROM schools WHERE id = ${gone.school.id}`);
    const orphan = await api("/api/codes/redeem", {
      body: { code, schoolId: gone.school.id },
      cookie: gone.coordinator.cookie,
      ip: freshIp(),
    });
    expect(orphan.status).toBe(401);
    // An admin naming the deleted school: 404.
    const forGone = await api("/api/codes/redeem", { body: { code, schoolId: gone.school.id }, cookie: admin.cookie, ip: freshIp() });
    expect(forGone.status).toBe(404);
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
  });
});

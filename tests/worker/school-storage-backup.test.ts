/**
 * The operator's routes that back up and restore each school object's storage (docs/decisions/0046),
 * sent as a script would send them: only the bearer of OPERATOR_SECRET gets in (no session does,
 * a superadmin's included), a dump put back brings the object's sessions back, and a dump is
 * refused for another school, for a school D1 lacks, and with a statement that is not a table's.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SchoolStorageDumpSchema } from "#shared/school-storage-dump.ts";
import { api, createSchool, errorOf, jsonOf, schoolStub, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const SECRET = "operator-secret-0123456789abcdef0123456789";
const withSecret = { OPERATOR_SECRET: SECRET } as Partial<Cloudflare.Env>;
const ListSchema = z.object({ schools: z.array(z.object({ id: z.number(), slug: z.string() })) });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function operator(path: string, init: { method?: string; body?: unknown; token?: string; env?: Partial<Cloudflare.Env> } = {}) {
  return api(path, {
    method: init.method,
    body: init.body,
    headers: bearer(init.token ?? SECRET),
    env: init.env ?? withSecret,
  });
}

async function dumpOf(schoolId: number) {
  const response = await operator(`/api/operator/schools/${schoolId}/storage`);
  expect(response.status).toBe(200);
  return jsonOf(response, SchoolStorageDumpSchema);
}

describe("the operator's routes", () => {
  it("answer 404 to anyone without the secret: no token, another token, any session, or no secret configured", async () => {
    const school = await createSchool();
    const { cookie: teacherCookie } = await signedInTeacher(school);
    const { cookie: superadminCookie } = await signedInAdmin("superadmin");
    const path = `/api/operator/schools/${school.id}/storage`;
    expect((await api(path, { env: withSecret })).status).toBe(404);
    expect((await operator(path, { token: `${SECRET}x` })).status).toBe(404);
    expect((await api(path, { env: withSecret, cookie: superadminCookie })).status).toBe(404);
    expect((await api(path, { env: withSecret, cookie: teacherCookie })).status).toBe(404);
    expect((await api("/api/operator/schools", { env: withSecret, cookie: superadminCookie })).status).toBe(404);
    // A Worker with no OPERATOR_SECRET, or one too short to trust, keeps the routes closed to any token.
    expect((await operator(path, { env: {} })).status).toBe(404);
    expect((await operator(path, { token: "short", env: { OPERATOR_SECRET: "short" } as Partial<Cloudflare.Env> })).status).toBe(404);
    // A restore sent with a session instead of the secret writes nothing.
    const put = await api(path, { method: "PUT", body: {}, env: withSecret, cookie: superadminCookie });
    expect(put.status).toBe(404);
    expect((await operator(path)).status).toBe(200);
  });

  it("lists the schools and dumps a school's object, whose sessions come back when the dump is put back", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school);
    const listed = await jsonOf(await operator("/api/operator/schools"), ListSchema);
    expect(listed.schools).toContainEqual({ id: school.id, slug: school.slug });

    const dump = await dumpOf(school.id);
    const sessions = dump.tables.find((table) => table.name === "sessions");
    expect(sessions?.rows).toHaveLength(1);
    expect(dump.afterRows.some((statement) => statement.startsWith("CREATE INDEX"))).toBe(true);

    const stub = await schoolStub(school.id);
    await stub.endTeacherSessions(school.id, teacher.id);
    expect(await stub.listSessions(school.id, teacher.id)).toHaveLength(0);

    const restored = await operator(`/api/operator/schools/${school.id}/storage`, { method: "PUT", body: dump });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ schoolId: school.id, tables: dump.tables.length });
    expect(await stub.listSessions(school.id, teacher.id)).toHaveLength(1);
    // The object's own dump now matches the one put back, table for table.
    expect((await dumpOf(school.id)).tables).toEqual(dump.tables);
  });

  it("refuses a dump of another school (409), of a school D1 lacks (404), and one whose statements are not a table's (400)", async () => {
    const [a, b] = [await createSchool(), await createSchool()];
    await signedInTeacher(a);
    const dumpA = await dumpOf(a.id);
    const ofAnother = await operator(`/api/operator/schools/${b.id}/storage`, { method: "PUT", body: { ...dumpA, schoolId: b.id } });
    expect(ofAnother.status).toBe(409);
    expect(await errorOf(ofAnother)).toBe(`This is the storage of school ${a.id}, not of school ${b.id}.`);
    const missing = 999_999;
    const gone = await operator(`/api/operator/schools/${missing}/storage`, {
      method: "PUT",
      body: { ...dumpA, tables: [], schoolId: missing },
    });
    expect(gone.status).toBe(404);
    const [first, ...rest] = dumpA.tables;
    const harmful = { ...dumpA, tables: [{ ...first!, sql: "DROP TABLE meta" }, ...rest] };
    const refused = await operator(`/api/operator/schools/${a.id}/storage`, { method: "PUT", body: harmful });
    expect(refused.status).toBe(400);
    // Nothing of the refused dumps was written: school A's object still holds its session.
    expect((await dumpOf(a.id)).tables).toEqual(dumpA.tables);
  });

  it("flushes usage the dump had not flushed now, not at the dump's far-off tidying alarm", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Backup Alarm Book", [school.id], ["One.", "Two."])).book.id;
    const reader = await signedInTeacher(school);
    expect((await api(`/api/books/${book}/pages/1`, { cookie: reader.cookie })).status).toBe(200);
    // The dump of an object whose only alarm is weeks away (tidy.ts), with a page not yet flushed.
    const weeks = Date.now() + 21 * 86_400_000;
    const dump = { ...(await dumpOf(school.id)), alarm: weeks };
    const restored = await operator(`/api/operator/schools/${school.id}/storage`, { method: "PUT", body: dump });
    expect(restored.status).toBe(200);
    const stub = await schoolStub(school.id);
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm as number).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
  });
});

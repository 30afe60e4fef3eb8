import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, teachers } from "../../workers/db/schema.ts";
import { completeErasures } from "../../workers/erasure/complete.ts";
import { eraseSchoolPersonalData } from "../../workers/erasure/erase.ts";
import { findSchoolRow } from "../../workers/schools/list.ts";
import { allowLogged } from "./console-guard.ts";
import {
  d1RowsNaming,
  objectRowsNaming,
  objectRowsOf,
  PASSWORD,
  person,
  reportFigures,
  schoolWithTraces,
  teacherOf,
} from "./fixtures-erasure.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, client, createSchool, db, errorOf, flushUsage, okBody, schoolStub } from "./helpers.ts";

const admin = adminForTheFile();

const erase = (schoolId: number, cookie: string | null) =>
  client({ cookie }).api.schools[":id"]["erase-personal-data"].$post({ param: { id: String(schoolId) } });
const needlesOf = (...people: { who: { name: string; email: string; mobile: string } }[]) =>
  people.flatMap(({ who }) => [who.name, who.email, who.mobile]);
const signIn = (slug: string, email: string) =>
  client({ ip: `10.44.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` }).api.teacher.login.$post({
    json: { email, password: PASSWORD, slug },
  });
const erasureEntries = (schoolId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "school.erase-personal-data"), eq(auditLog.entityId, String(schoolId))));

describe("an admin erases a school's personal data", () => {
  it("leaves no name, address or mobile in D1 or the school's object, frees seats, keeps the report totals and audits who and when", async () => {
    const { school, other, book, ada, ben, keeper } = await schoolWithTraces();
    const needles = needlesOf(ada, ben);
    // The searches find every trace before: they can fail.
    expect((await d1RowsNaming(needles)).length).toBeGreaterThan(8);
    expect((await objectRowsNaming(school.id, needles)).length).toBeGreaterThan(2);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(2);
    const before = await reportFigures(school.id, book.id);
    expect(before.school.pagesRead).toBeGreaterThan(0);
    // A data export of each school made today (decision 44), kept in R2 for a day.
    for (const id of [school.id, other.id]) await env.BOOKS.put(`exports/school-${id}/e.zip`, "teachers.csv");

    const answer = await okBody(erase(school.id, admin.cookie));
    expect(answer.teachersErased).toBe(2);
    expect(answer.message).toMatch(/^The personal data of Test School \d+ was erased: 2 teacher accounts, .*Its usage figures are kept\.$/);

    expect(await d1RowsNaming(needles)).toEqual([]);
    expect(await objectRowsNaming(school.id, needles)).toEqual([]);
    const ids = [ada.teacher.id, ben.teacher.id];
    expect(await objectRowsOf(school.id, ids)).toEqual({
      sessions: 0,
      seats: 0,
      budgets: 0,
      reading_days: 0,
      progress: 0,
      seat_refusals: 0,
      annotations: 0,
      pending: 0,
    });
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
    expect(await reportFigures(school.id, book.id)).toEqual(before);
    // The school's export went with it; the other school's stays.
    expect(await env.BOOKS.head(`exports/school-${school.id}/e.zip`)).toBeNull();
    expect(await env.BOOKS.head(`exports/school-${other.id}/e.zip`)).not.toBeNull();

    // Who and when, and no one erased named in it.
    const [entry] = await erasureEntries(school.id);
    expect(entry).toMatchObject({ adminId: admin.admin.id, adminEmail: admin.admin.email, entityType: "school", after: { teachers: 2 } });
    expect(Date.now() - entry!.at).toBeLessThan(60_000);
    // The school stays, with no teacher account; the other school is untouched.
    expect((await findSchoolRow(db(), school.id))?.teacherCount).toBe(0);
    expect((await objectRowsNaming(other.id, needlesOf(keeper))).length).toBeGreaterThan(0);
    expect((await client({ cookie: keeper.cookie }).api.teacher.account.$get()).status).toBe(200);
    // Signed out everywhere, and no way back in.
    expect((await client({ cookie: ada.cookie }).api.teacher.account.$get()).status).toBe(401);
    expect((await signIn(school.slug, ben.who.email)).status).toBe(401);
  });

  it("erasing twice is harmless: nothing more changes, and the second request is recorded too", async () => {
    const { school, book, ada } = await schoolWithTraces();
    await okBody(erase(school.id, admin.cookie));
    const figures = await reportFigures(school.id, book.id);
    const rows = await db().select().from(teachers).where(eq(teachers.schoolId, school.id));
    const again = await okBody(erase(school.id, admin.cookie));
    expect(again.teachersErased).toBe(0);
    expect(again.message).toMatch(/held no teacher's personal data any more/);
    expect(await db().select().from(teachers).where(eq(teachers.schoolId, school.id))).toEqual(rows);
    expect(await reportFigures(school.id, book.id)).toEqual(figures);
    expect((await erasureEntries(school.id)).map((entry) => entry.after)).toEqual([{ teachers: 2 }, { teachers: 0 }]);
    expect(await d1RowsNaming(needlesOf(ada))).toEqual([]);
  });

  it("usage still in the school's object when the erasure runs is counted afterwards, under no one's name", async () => {
    const { school, book, ada } = await schoolWithTraces();
    const before = await reportFigures(school.id, book.id);
    const stub = await schoolStub(school.id);
    await stub.record(school.id, { teacherId: ada.teacher.id, bookId: book.id, pages: 1 });
    await okBody(erase(school.id, admin.cookie));
    expect((await objectRowsOf(school.id, [ada.teacher.id])).pending).toBe(1);
    const after = await reportFigures(school.id, book.id);
    expect(after.school.pagesRead).toBe(before.school.pagesRead + 1);
    expect(await d1RowsNaming(needlesOf(ada))).toEqual([]);
    // The flush brought no reading progress back for the erased row (migration 0025).
    const progress = await db().all(sql`SELECT * FROM reading_progress WHERE teacher_id = ${ada.teacher.id}`);
    expect(progress).toEqual([]);
  });

  it("a coordinator, a teacher of another school or no one cannot erase a school, whatever the script sends", async () => {
    const school = await createSchool();
    const coordinator = await teacherOf(school, person("Coord"));
    await db().update(teachers).set({ coordinator: true }).where(eq(teachers.id, coordinator.teacher.id));
    const outsider = await teacherOf(await createSchool(), person("Outsider"));
    for (const cookie of [coordinator.cookie, outsider.cookie, null]) {
      const refused = await erase(school.id, cookie);
      expect([401, 403]).toContain(refused.status);
    }
    // A raw request naming the school in the body as well changes nothing either.
    const raw = await api(`/api/schools/${school.id}/erase-personal-data`, { body: { id: school.id }, cookie: coordinator.cookie });
    expect([401, 403]).toContain(raw.status);
    const [still] = await db().select().from(teachers).where(eq(teachers.id, coordinator.teacher.id));
    expect(still).toMatchObject({ name: coordinator.who.name, erasedAt: null });
    expect(await erasureEntries(school.id)).toEqual([]);
    // An unknown school is 404 to an admin.
    const missing = await erase(987_654, admin.cookie);
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toBe("School not found");
  });
});

describe("when the school's object cannot be reached", () => {
  it("D1 is erased at once, the admin is told to retry (503), and the hourly job finishes the object", async () => {
    const { school, ada, ben } = await schoolWithTraces();
    const needles = needlesOf(ada, ben);
    const unreachable = {
      getByName: () => ({ eraseTeachers: () => Promise.reject(new Error("Durable Object reset because its code was updated.")) }),
    } as unknown as typeof env.SCHOOLS;
    const actor = { id: admin.admin.id, email: admin.admin.email };
    allowLogged(/Erased in D1; the school's object will be erased by the hourly job/);
    const outcome = await eraseSchoolPersonalData(db(), { SCHOOLS: unreachable, BOOKS: env.BOOKS }, actor, school.id);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatchObject({ kind: "unavailable", retryAfterSeconds: 30 });
    expect(outcome.failure.error).toMatch(/was erased from the database, but its sign-ins and notes could not be reached just now/);
    expect(await d1RowsNaming(needles)).toEqual([]);
    // Half done: the object still holds them (and their sessions) until the hourly job runs.
    expect((await objectRowsNaming(school.id, needles)).length).toBeGreaterThan(0);
    expect(await completeErasures(db(), env)).toBeGreaterThanOrEqual(1);
    expect(await objectRowsNaming(school.id, needles)).toEqual([]);
    expect((await objectRowsOf(school.id, [ada.teacher.id, ben.teacher.id])).sessions).toBe(0);
    expect((await client({ cookie: ada.cookie }).api.teacher.account.$get()).status).toBe(401);
  });
});

describe("a teacher deletes their own account", () => {
  it("once their address is typed: erased, signed out everywhere, cannot sign in; colleagues and the figures stay", async () => {
    const { school, book, ada, ben } = await schoolWithTraces();
    const second = await signIn(school.slug, ada.who.email);
    expect(second.status).toBe(200);
    const before = await reportFigures(school.id, book.id);
    const remove = (confirm: unknown) => api("/api/teacher/account", { method: "DELETE", body: { confirm }, cookie: ada.cookie });

    const wrong = await remove("someone.else@erase.test");
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toBe(`Type your e-mail address, ${ada.who.email}, to confirm.`);
    expect((await client({ cookie: ada.cookie }).api.teacher.account.$get()).status).toBe(200);

    const deleted = await remove(` ${ada.who.email.toUpperCase()} `);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({
      teachersErased: 1,
      signedOutEverywhere: true,
      message: "Your account has been deleted and you have been signed out everywhere.",
    });
    expect(deleted.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
    for (const cookie of [ada.cookie, `__Host-lectern_teacher=${second.headers.get("Set-Cookie")?.split(";")[0]?.split("=")[1]}`])
      expect((await client({ cookie }).api.teacher.account.$get()).status).toBe(401);
    expect(await d1RowsNaming(needlesOf(ada))).toEqual([]);
    expect(await objectRowsNaming(school.id, needlesOf(ada))).toEqual([]);
    // (A sign-in tried with the address afterwards is a new attempt, counted by the login's throttle as any other.)
    expect((await signIn(school.slug, ada.who.email)).status).toBe(401);

    expect((await d1RowsNaming(needlesOf(ben))).length).toBeGreaterThan(0);
    expect((await client({ cookie: ben.cookie }).api.teacher.account.$get()).status).toBe(200);
    expect(await reportFigures(school.id, book.id)).toEqual(before);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "teacher.delete-own-account"));
    expect(entry).toMatchObject({ adminId: null, adminEmail: "(the teacher's own request)", entityId: String(ada.teacher.id) });
    // Their place at the school is free.
    expect((await findSchoolRow(db(), school.id))?.teacherCount).toBe(1);
    await flushUsage(school.id);
  });
});

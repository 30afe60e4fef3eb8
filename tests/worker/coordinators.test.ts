// School coordinators (issue #28 item 3, docs/decisions/0030), each rule as a script would try it:
// an admin names and un-names one (audited, once); a coordinator sees their school's teachers and
// usage (JSON and CSV) and disables, enables, signs out and sends a reset to its teachers; a plain
// teacher gets 403, a coordinator of school A gets 404 at school B's endpoints and cannot name B's
// teachers through their own school's, and a coordinator's cookie opens no admin endpoint.

import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, teachers } from "../../workers/db/schema.ts";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { lastDays } from "../../workers/reports/range.ts";
import { COORDINATOR_ACCOUNT, NOT_COORDINATOR } from "../../workers/teachers/coordinators.ts";
import { loggedCode, withLoggedLines } from "./dev-log.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import {
  api,
  client,
  createBook,
  createSchool,
  db,
  errorOf,
  jsonOf,
  objectSessions,
  okBody,
  page,
  signedInAdmin,
  signedInTeacher,
} from "./helpers.ts";

const tag = () => crypto.randomUUID().slice(0, 8);

let admin: { cookie: string; email: string };

beforeAll(async () => {
  const signedIn = await signedInAdmin();
  admin = { cookie: signedIn.cookie, email: signedIn.admin.email };
});

const coordinatorUrl = (schoolId: number | string, teacherId: number | string) =>
  `/api/schools/${schoolId}/teachers/${teacherId}/coordinator`;
const mySchool = (slug: string, path: string) => `/api/schools/slug/${slug}/coordinator${path}`;

/** An admin's coordinator flag for a teacher (POST names one, DELETE un-names), typed. */
const coordinatorFlag = (cookie: string | null = admin.cookie, origin?: string) =>
  client({ cookie, origin }).api.schools[":id"].teachers[":teacherId"].coordinator;
const teacherOf = (schoolId: number | string, teacherId: number | string) => ({
  param: { id: String(schoolId), teacherId: String(teacherId) },
});
/** The coordinator's own routes under /api/schools/slug/{slug}/coordinator, typed. */
const coordinatorApi = (cookie: string | null) => client({ cookie }).api.schools.slug[":slug"].coordinator;
type TeacherAction = "disable" | "enable" | "sign-out" | "send-reset";
const coordinatorAct = (cookie: string, slug: string, teacherId: number, action: TeacherAction) =>
  coordinatorApi(cookie).teachers[":teacherId"][action].$post({ param: { slug, teacherId: String(teacherId) } });

async function schoolWithCoordinator() {
  const school = await createSchool({ slug: `coord-${tag()}`, teacherLimit: 20 });
  const coordinator = await signedInTeacher(school, "Casey Coordinator");
  const colleague = await signedInTeacher(school, "Pat Colleague");
  const made = await coordinatorFlag().$post(teacherOf(school.id, coordinator.teacher.id));
  expect(made.status).toBe(200);
  return { school, coordinator, colleague };
}

const auditFor = (teacherId: number, action: string) => auditEntriesOf("teacher", teacherId, action);

describe("an admin names a coordinator", () => {
  it("sets and clears the flag, once each, with an audit entry naming the admin", async () => {
    const school = await createSchool({ slug: `coord-${tag()}` });
    const { teacher } = await signedInTeacher(school, "Robin Librarian");
    const first = await okBody(coordinatorFlag().$post(teacherOf(school.id, teacher.id)));
    expect(first.message).toBe("Robin Librarian is now a coordinator of their school.");
    const again = await okBody(coordinatorFlag().$post(teacherOf(school.id, teacher.id)));
    expect(again.message).toBe("Robin Librarian was already a coordinator.");
    const [made] = await auditFor(teacher.id, "teacher.coordinator");
    expect(made).toMatchObject({ adminEmail: admin.email, after: { coordinator: true } });
    expect(await auditFor(teacher.id, "teacher.coordinator")).toHaveLength(1);

    const undone = await okBody(coordinatorFlag().$delete(teacherOf(school.id, teacher.id)));
    expect(undone.message).toBe("Robin Librarian is no longer a coordinator.");
    expect(await auditFor(teacher.id, "teacher.coordinator-removed")).toHaveLength(1);
    const [row] = await db().select({ coordinator: teachers.coordinator }).from(teachers).where(eq(teachers.id, teacher.id));
    expect(row?.coordinator).toBe(false);

    // The admin's teachers list says who is one.
    await coordinatorFlag().$post(teacherOf(school.id, teacher.id));
    const list = await okBody(client({ cookie: admin.cookie }).api.schools[":id"].teachers.$get({ param: { id: String(school.id) } }));
    expect(list.teachers.find((t) => t.id === teacher.id)?.coordinator).toBe(true);
  });

  it("from the school's admin page, through the same command", async () => {
    const school = await createSchool({ slug: `coord-${tag()}` });
    const { teacher } = await signedInTeacher(school, "Sam Head");
    const post = (intent: string) =>
      page(`/admin/school/${school.id}`, {
        method: "POST",
        cookie: admin.cookie,
        body: new URLSearchParams({ intent, teacherId: String(teacher.id) }),
      });
    expect(await (await post("teacher-coordinator")).text()).toContain("Sam Head is now a coordinator of their school.");
    const html = await (await page(`/admin/school/${school.id}`, { cookie: admin.cookie })).text();
    expect(html).toContain("Remove coordinator");
    expect(await (await post("teacher-uncoordinator")).text()).toContain("Sam Head is no longer a coordinator.");
  });

  it("is refused for another school's teacher, a bad id, a teacher, a coordinator and no one", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const other = await createSchool({ slug: `coord-${tag()}` });
    expect(await errorOf(coordinatorFlag().$post(teacherOf(other.id, colleague.teacher.id)))).toBe("Teacher not found");
    expect((await coordinatorFlag().$post(teacherOf(school.id, "1e3"))).status).toBe(404);
    for (const cookie of [colleague.cookie, coordinator.cookie, null]) {
      const response = await coordinatorFlag(cookie).$post(teacherOf(school.id, colleague.teacher.id));
      expect(response.status).toBe(401);
    }
    // Without our Origin: a form on another site cannot do it with the admin's cookie either.
    const forged = await coordinatorFlag(admin.cookie, "https://evil.test").$post(teacherOf(school.id, colleague.teacher.id));
    expect(forged.status).toBe(403);
    const [row] = await db().select({ coordinator: teachers.coordinator }).from(teachers).where(eq(teachers.id, colleague.teacher.id));
    expect(row?.coordinator).toBe(false);
  });
});

describe("a coordinator's view of their school", () => {
  it("lists the school's teachers without their mobile numbers", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const response = await coordinatorApi(coordinator.cookie).teachers.$get({ param: { slug: school.slug } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await okBody(response);
    expect(body.teachers.map((t) => t.name).sort()).toEqual(["Casey Coordinator", "Pat Colleague"]);
    expect(body.teachers.find((t) => t.id === coordinator.teacher.id)?.coordinator).toBe(true);
    expect(body.teachers.find((t) => t.id === colleague.teacher.id)?.sessions).toBe(1);
    expect(JSON.stringify(body)).not.toContain("5550000000");
  });

  it("disables, enables, ends sessions and sends a reset, audited under the coordinator's name", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const act = (action: TeacherAction) => coordinatorAct(coordinator.cookie, school.slug, colleague.teacher.id, action);

    const disabled = await act("disable");
    expect((await okBody(disabled)).message).toBe("Pat Colleague is disabled and has been signed out everywhere.");
    // The colleague is signed out at once.
    const shelf = await client({ cookie: colleague.cookie }).api.schools.slug[":slug"].books.$get({
      param: { slug: school.slug },
      query: {},
    });
    expect(shelf.status).toBe(401);
    const [entry] = await auditFor(colleague.teacher.id, "teacher.disable");
    expect(entry).toMatchObject({ adminId: null, adminEmail: `${coordinator.teacher.email} (coordinator)` });

    expect((await okBody(act("enable"))).message).toBe("Pat Colleague is enabled and can sign in again.");
    expect((await okBody(act("sign-out"))).message).toBe("Pat Colleague had no sessions to end.");
    const reset = await act("send-reset");
    expect(reset.status).toBe(200);
    expect((await okBody(reset)).message).toMatch(/password-reset/);
    expect(await auditFor(colleague.teacher.id, "teacher.send-reset")).toHaveLength(1);
  });

  it("sends a reset whose code goes to the teacher alone: in Development Mode to the server's log, never into the coordinator's answer", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    // Another coordinator of the school: the account one coordinator could take over if the code came back.
    await coordinatorFlag().$post(teacherOf(school.id, colleague.teacher.id));
    const viaApi = await withLoggedLines(() => coordinatorAct(coordinator.cookie, school.slug, colleague.teacher.id, "send-reset"));
    expect(viaApi.result.status).toBe(200);
    const code = loggedCode(viaApi.lines, colleague.teacher.email, "reset");
    expect(code).toMatch(/^\d{6}$/);
    const answer = await viaApi.result.clone().text();
    expect(answer).not.toContain(code!);
    expect((await okBody(viaApi.result)).message).toBe(
      "Development Mode: email delivery is not configured, so the password-reset code for Pat Colleague was sent to the server's log, not shown here.",
    );
    // The code is the teacher's: it resets their password.
    const reset = await client().api.teacher["reset-password"].$post({
      json: { email: colleague.teacher.email, otp: code!, newPassword: "only mine to choose", slug: school.slug },
    });
    expect(reset.status).toBe(200);

    // The My school page's form: the same, its page answer without the code.
    const other = await signedInTeacher(school, "Lee Other");
    const viaPage = await withLoggedLines(() =>
      page(`/schools/${school.slug}/my-school`, {
        method: "POST",
        cookie: coordinator.cookie,
        body: new URLSearchParams({ intent: "teacher-send-reset", teacherId: String(other.teacher.id) }),
      }),
    );
    expect(viaPage.result.status).toBe(200);
    const pageCode = loggedCode(viaPage.lines, other.teacher.email, "reset");
    expect(pageCode).toMatch(/^\d{6}$/);
    const html = await viaPage.result.text();
    expect(html).toContain("the password-reset code for Lee Other was sent to the server");
    expect(html).not.toContain(pageCode!);
  });

  it("cannot disable a coordinator (themselves included), remove a teacher or change the limit", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const self = await coordinatorAct(coordinator.cookie, school.slug, coordinator.teacher.id, "disable");
    expect(self.status).toBe(403);
    expect(await errorOf(self)).toBe(COORDINATOR_ACCOUNT);
    expect((await objectSessions(school.id)).filter((s) => s.teacher_id === coordinator.teacher.id)).toHaveLength(1);

    // No remove endpoint for a coordinator; the admin's ones answer 401 to a teacher's cookie.
    // No such route, so the typed client has none to call.
    const remove = await api(mySchool(school.slug, `/teachers/${colleague.teacher.id}`), { method: "DELETE", cookie: coordinator.cookie });
    expect(remove.status).toBe(404);
    for (const [path, method, body] of [
      [`/api/schools/${school.id}/teachers/${colleague.teacher.id}`, "DELETE", undefined],
      [`/api/schools/${school.id}/teachers/${colleague.teacher.id}/disable`, "POST", undefined],
      [`/api/schools/${school.id}/teachers`, "GET", undefined],
      [`/api/schools/logins/${school.id}/increase-login-count`, "POST", { limit: 99 }],
      [`/api/reports/usage?from=2026-01-01&to=2026-01-31&schoolId=${school.id}`, "GET", undefined],
      [coordinatorUrl(school.id, colleague.teacher.id), "POST", undefined],
    ] as const) {
      // One loop over a table of routes (paths as strings): raw calls.
      const response = await api(path, { method, body, cookie: coordinator.cookie });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    const [row] = await db().select().from(teachers).where(eq(teachers.id, colleague.teacher.id));
    expect(row).toMatchObject({ disabled: false, coordinator: false });
  });

  it("answers the school's usage report as JSON and three CSVs", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const usage = (query: Record<string, string>) => coordinatorApi(coordinator.cookie).usage.$get({ param: { slug: school.slug }, query });
    const json = await usage({ from: "2026-01-01", to: "2026-01-31" });
    expect(json.status).toBe(200);
    // The route answers JSON or a CSV, so its JSON is not typed: the shape is stated here.
    const body = await jsonOf(
      json,
      z
        .object({
          from: z.string(),
          usage: z.object({ days: z.array(z.unknown()) }).loose(),
          topBooks: z.array(z.unknown()),
          teachers: z.array(z.unknown()),
        })
        .loose(),
    );
    expect(body.usage.days).toHaveLength(31);
    expect(body.teachers).toHaveLength(2);
    for (const [report, header] of [
      ["usage", "date,"],
      ["books", "bookId,title,"],
      ["teachers", "teacherId,"],
    ] as const) {
      const csv = await usage({ from: "2026-01-01", to: "2026-01-31", format: "csv", report });
      expect(csv.status, report).toBe(200);
      expect(csv.headers.get("Content-Type")).toContain("text/csv");
      expect(csv.headers.get("Content-Disposition")).toContain(`lectern-${report}-${school.slug}-2026-01-01-to-2026-01-31.csv`);
      expect((await csv.text()).split("\n")[0]).toContain(header);
    }
    const bad = await usage({ from: "2026-02-01", to: "2026-01-01" });
    expect(bad.status).toBe(400);
  });

  it("without from and to, answers the last 30 days as My school shows them (it answered 400)", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const last30 = lastDays(30);
    const usage = (query: Record<string, string>) => coordinatorApi(coordinator.cookie).usage.$get({ param: { slug: school.slug }, query });
    // The route answers JSON or a CSV, so its JSON is not typed: the shape is stated here.
    const Usage = z.object({ from: z.string(), to: z.string(), usage: z.object({ days: z.array(z.unknown()) }).loose() }).loose();
    const json = await usage({});
    expect(json.status).toBe(200);
    const body = await jsonOf(json, Usage);
    expect({ from: body.from, to: body.to }).toEqual(last30);
    expect(body.usage.days).toHaveLength(30);
    const csv = await usage({ format: "csv", report: "teachers" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toContain(`lectern-teachers-${school.slug}-${last30.from}-to-${last30.to}.csv`);
    // One day given: no `to` is today, no `from` the 30 days ending on `to`.
    const ending = await jsonOf(usage({ to: "2026-01-31" }), Usage);
    expect({ from: ending.from, to: ending.to }).toEqual({ from: "2026-01-02", to: "2026-01-31" });
    const since = await jsonOf(usage({ from: last30.to }), Usage);
    expect({ from: since.from, to: since.to }).toEqual({ from: last30.to, to: last30.to });
    expect((await usage({ to: "2026-02-30" })).status).toBe(400);
  });
});

describe("the coordinator endpoints refuse", () => {
  it("a plain teacher (403), no one (401), and the admin (401: it is a teacher's endpoint)", async () => {
    const { school, colleague } = await schoolWithCoordinator();
    for (const [path, method] of [
      ["/teachers", "GET"],
      ["/usage?from=2026-01-01&to=2026-01-02", "GET"],
      [`/teachers/${colleague.teacher.id}/disable`, "POST"],
      [`/teachers/${colleague.teacher.id}/send-reset`, "POST"],
    ] as const) {
      // One loop over a table of routes (paths as strings): raw calls.
      const plain = await api(mySchool(school.slug, path), { method, cookie: colleague.cookie });
      expect(plain.status, `${method} ${path}`).toBe(403);
      expect(await errorOf(plain)).toBe(NOT_COORDINATOR);
      expect((await api(mySchool(school.slug, path), { method })).status).toBe(401);
      expect((await api(mySchool(school.slug, path), { method, cookie: admin.cookie })).status).toBe(401);
    }
    const [row] = await db().select({ disabled: teachers.disabled }).from(teachers).where(eq(teachers.id, colleague.teacher.id));
    expect(row?.disabled).toBe(false);
    expect(await auditFor(colleague.teacher.id, "teacher.send-reset")).toHaveLength(0);
  });

  it("a coordinator of school A at school B's endpoints, and B's teacher through A's", async () => {
    const a = await schoolWithCoordinator();
    const b = await schoolWithCoordinator();
    // B's path with A's cookie: not A's school, so B does not exist for it (as the library answers).
    for (const path of ["/teachers", "/usage?from=2026-01-01&to=2026-01-02", `/teachers/${b.colleague.teacher.id}/disable`]) {
      // One loop over a table of routes (paths as strings): raw calls.
      const method = path.endsWith("disable") ? "POST" : "GET";
      const response = await api(mySchool(b.school.slug, path), { method, cookie: a.coordinator.cookie });
      expect(response.status, path).toBe(404);
    }
    // B's teacher through A's own path: no such teacher at A.
    for (const action of ["disable", "enable", "sign-out", "send-reset"] as const) {
      const response = await coordinatorAct(a.coordinator.cookie, a.school.slug, b.colleague.teacher.id, action);
      expect(response.status, action).toBe(404);
      expect(await errorOf(response)).toBe("Teacher not found");
    }
    const [row] = await db().select({ disabled: teachers.disabled }).from(teachers).where(eq(teachers.id, b.colleague.teacher.id));
    expect(row?.disabled).toBe(false);
    expect((await objectSessions(b.school.id)).filter((s) => s.teacher_id === b.colleague.teacher.id)).toHaveLength(1);
    // A body cannot retarget the path's teacher (a body the typed client would not send: raw).
    const retarget = await api(mySchool(a.school.slug, `/teachers/${a.colleague.teacher.id}/sign-out`), {
      body: { teacherId: b.colleague.teacher.id },
      cookie: a.coordinator.cookie,
    });
    expect(retarget.status).toBe(200);
    expect((await objectSessions(b.school.id)).filter((s) => s.teacher_id === b.colleague.teacher.id)).toHaveLength(1);
  });

  it("a coordinator the admin un-named, or disabled, at their next request", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const teachersList = () => coordinatorApi(coordinator.cookie).teachers.$get({ param: { slug: school.slug } });
    expect((await teachersList()).status).toBe(200);
    await coordinatorFlag().$delete(teacherOf(school.id, coordinator.teacher.id));
    expect((await teachersList()).status).toBe(403);
    await coordinatorFlag().$post(teacherOf(school.id, coordinator.teacher.id));
    await client({ cookie: admin.cookie }).api.schools[":id"].teachers[":teacherId"].disable.$post(
      teacherOf(school.id, coordinator.teacher.id),
    );
    expect((await teachersList()).status).toBe(401);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(like(auditLog.adminEmail, `${coordinator.teacher.email}%`)),
    ).toHaveLength(0);
  });
});

describe("the My school page", () => {
  it("shows a coordinator the report and the teachers, on both URL forms, and leads there from the sidebar", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    // A book the colleague read today: the report's top books lead into the school's library, not the admin console.
    const book = await createBook({ title: "Tides and Moons" }, [school.id]);
    await db()
      .insert(readingDaily)
      .values({
        day: new Date().toISOString().slice(0, 10),
        schoolId: school.id,
        bookId: book.id,
        teacherId: colleague.teacher.id,
        pages: 4,
        seconds: 300,
      });
    for (const url of [`/schools/${school.slug}/my-school`, `https://${school.slug}.lectern.test/my-school`]) {
      const response = await page(url, { cookie: coordinator.cookie });
      expect(response.status, url).toBe(200);
      const html = await response.text();
      expect(html).toContain("My school");
      expect(html).toContain("Pat Colleague");
      expect(html).toContain(`/api/schools/slug/${school.slug}/coordinator/usage?`);
      expect(html).not.toContain("5550000000");
      // Nothing on it leads into the admin console.
      expect(html).toContain("Tides and Moons");
      expect(html).toContain(`/dashboard/book/${book.id}"`);
      expect(html).not.toContain('href="/admin');
    }
    const dashboard = await (await page(`/schools/${school.slug}/dashboard`, { cookie: coordinator.cookie })).text();
    expect(dashboard).toContain(`href="/schools/${school.slug}/my-school"`);
    const plainDashboard = await (await page(`/schools/${school.slug}/dashboard`, { cookie: colleague.cookie })).text();
    expect(plainDashboard).not.toContain("/my-school");
  });

  it("is 403 for a plain teacher, and its form posts are refused for them", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const response = await page(`/schools/${school.slug}/my-school`, { cookie: colleague.cookie });
    expect(response.status).toBe(403);
    const post = await page(`/schools/${school.slug}/my-school`, {
      method: "POST",
      cookie: colleague.cookie,
      body: new URLSearchParams({ intent: "teacher-disable", teacherId: String(coordinator.teacher.id) }),
    });
    expect(post.status).toBe(403);
    const [row] = await db().select({ disabled: teachers.disabled }).from(teachers).where(eq(teachers.id, coordinator.teacher.id));
    expect(row?.disabled).toBe(false);
  });

  it("runs the coordinator's commands from its form, and refuses another site's form", async () => {
    const { school, coordinator, colleague } = await schoolWithCoordinator();
    const form = new URLSearchParams({ intent: "teacher-disable", teacherId: String(colleague.teacher.id) });
    const forged = await page(`/schools/${school.slug}/my-school`, {
      method: "POST",
      cookie: coordinator.cookie,
      headers: { Origin: "https://evil.test" },
      body: form,
    });
    expect(forged.status).toBe(403);
    expect(
      (await db().select({ disabled: teachers.disabled }).from(teachers).where(eq(teachers.id, colleague.teacher.id)))[0]?.disabled,
    ).toBe(false);
    const posted = await page(`/schools/${school.slug}/my-school`, { method: "POST", cookie: coordinator.cookie, body: form });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Pat Colleague is disabled and has been signed out everywhere.");
  });
});

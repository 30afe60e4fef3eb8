// Admins managing a school's teachers (issue #15 item 5, docs/decisions/0015), through the real
// pipeline: the API under /api/schools/:id/teachers and the school page's actions. Disabling ends
// every session at once and refuses sign-in; removing frees the slot and keeps only the audit
// entry; repeated and racing writes leave one audit entry.

import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { books, loginEvents, otpCodes, readingProgress, teachers } from "../../workers/db/schema.ts";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { type CaughtMessage, extractCode } from "../support/caught-mail.ts";
import { loggedCode, withLoggedLines } from "./dev-log.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { teacherWithPassword } from "./fixtures-teachers.ts";
import {
  client,
  cookieFrom,
  createSchool,
  db,
  devModeCode,
  errorOf,
  jsonOf,
  objectSessions,
  okBody,
  page,
  signedInAdmin,
  signedInTeacher,
} from "./helpers.ts";

const PASSWORD = "correct horse battery";
const DISABLED = "Your account has been disabled. Please contact your school administrator.";
const tag = () => crypto.randomUUID().slice(0, 8);

let admin: { id: number; email: string };
let cookie: string;

beforeAll(async () => {
  const signedIn = await signedInAdmin();
  admin = signedIn.admin;
  cookie = signedIn.cookie;
});

/** A teacher who can sign in with PASSWORD, signed in once: their row and the session's cookie. */
async function teacherAt(school: { id: number; slug: string }, name = "Dana Reader") {
  const email = `dana-${tag()}@school.test`;
  const teacher = await teacherWithPassword(school.id, email, PASSWORD, name);
  const response = await login(school.slug, email);
  expect(response.status).toBe(200);
  return { teacher, email, cookie: cookieFrom(response) };
}

const login = (slug: string, email: string, password = PASSWORD) =>
  client({ ip: `10.9.${Math.floor(Math.random() * 250)}.1` }).api.teacher.login.$post({ json: { email, password, slug } });

/** Each write endpoint: method and path suffix. */
const WRITES = [
  { method: "POST", action: "disable" },
  { method: "POST", action: "enable" },
  { method: "POST", action: "sign-out" },
  { method: "POST", action: "send-reset" },
  { method: "DELETE", action: "" },
] as const;

const write = (
  schoolId: number | string,
  teacherId: number | string,
  action: (typeof WRITES)[number]["action"],
  call: { cookie?: string | null; origin?: string | null } = {},
) => {
  // Ids go into the path as they are: malformed ones ("%2027", "0x1b") reach the route as sent.
  const row = client({ cookie, ...call }).api.schools[":id"].teachers[":teacherId"];
  const param = { param: { id: String(schoolId), teacherId: String(teacherId) } };
  return action ? row[action].$post(param) : row.$delete(param);
};

const audits = (action: string, teacherId: number) => auditEntriesOf("teacher", teacherId, action);

const verify = (teacherCookie: string) => client({ cookie: teacherCookie }).api.teacher["verify-token"].$get();
/** The teacher's sessions that still sign in, in their school's object (an ended one's row stays a while, to tell its teacher why). */
const sessionCount = async (teacher: { id: number; schoolId: number }) =>
  (await objectSessions(teacher.schoolId)).filter((s) => s.teacher_id === teacher.id && s.ended === null && s.expires_at > Date.now())
    .length;
/** The typed client, as the signed-in admin. */
const asAdmin = () => client({ cookie });
/** A teacher's row of the school's API, as the typed client names it. */
const teacherApi = () => asAdmin().api.schools[":id"].teachers[":teacherId"];
const teacherParam = (schoolId: number, teacherId: number) => ({ param: { id: String(schoolId), teacherId: String(teacherId) } });
/** What the mail catcher (another server) answers for GET /messages; read by a schema that must fit its CaughtMessage. */
const Caught = z.array(z.object({ text: z.string() })) satisfies z.ZodType<Pick<CaughtMessage, "text">[]>;

describe("GET /api/schools/:id/teachers", () => {
  it("lists the school's teachers with their state, last login and live sessions", async () => {
    const school = await createSchool();
    const other = await createSchool();
    const { teacher } = await teacherAt(school, "Avery Active");
    const { teacher: off } = await teacherAt(school, "Blake Benched");
    await teacherAt(other, "Other School Teacher");
    expect((await write(school.id, off.id, "disable")).status).toBe(200);

    const response = await asAdmin().api.schools[":id"].teachers.$get({ param: { id: String(school.id) } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const { teachers: listed } = await okBody(response);
    expect(listed.map((t) => t.name)).toEqual(["Avery Active", "Blake Benched"]);
    expect(listed[0]).toEqual({
      id: teacher.id,
      name: "Avery Active",
      email: teacher.email,
      mobile: "5551234567",
      disabled: false,
      coordinator: false,
      createdAt: teacher.createdAt,
      lastLoginAt: expect.any(Number),
      sessions: 1,
    });
    expect(listed[1]).toMatchObject({ disabled: true, sessions: 0 });
  });

  it("is for admins only, and 404 for a school that does not exist or a malformed id", async () => {
    const school = await createSchool();
    const { cookie: teacherCookie } = await signedInTeacher(school);
    const list = (id: string, as?: string) => client({ cookie: as }).api.schools[":id"].teachers.$get({ param: { id } });
    expect((await list(String(school.id))).status).toBe(401);
    expect((await list(String(school.id), teacherCookie)).status).toBe(401);
    // Ids go into the path as they are: malformed ones reach the route as sent.
    for (const id of ["999999999", "%2027", "0x1b", "27.0", "-1", "0", "1e3"]) {
      const response = await list(id, cookie);
      expect(response.status, id).toBe(404);
    }
    // The school routes keep their paths.
    expect((await asAdmin().api.schools[":id"].$get({ param: { id: String(school.id) } })).status).toBe(200);
    expect((await client().api.schools.slug[":slug"].$get({ param: { slug: school.slug } })).status).toBe(200);
  });
});

describe("the write endpoints' guards", () => {
  it("answer 401 without an admin and for a teacher's cookie, 403 from another site, and write nothing", async () => {
    const school = await createSchool();
    const { teacher, cookie: teacherCookie } = await teacherAt(school);
    for (const { action } of WRITES) {
      expect((await write(school.id, teacher.id, action, { cookie: null })).status, action).toBe(401);
      expect((await write(school.id, teacher.id, action, { cookie: teacherCookie })).status, action).toBe(401);
      expect((await write(school.id, teacher.id, action, { origin: "https://evil.example" })).status, action).toBe(403);
    }
    expect((await verify(teacherCookie)).status).toBe(200);
    const [row] = await db().select().from(teachers).where(eq(teachers.id, teacher.id));
    expect(row!.disabled).toBe(false);
    expect(await auditEntriesOf("teacher", teacher.id)).toEqual([]);
  });

  it("answer 404 'Teacher not found' for another school's teacher, an unknown one and malformed ids", async () => {
    const school = await createSchool();
    const other = await createSchool();
    const { teacher: theirs, cookie: theirCookie } = await teacherAt(other);
    for (const { action } of WRITES) {
      for (const [schoolId, teacherId] of [
        [school.id, theirs.id],
        [school.id, 999_999_999],
        [school.id, "%2027"],
        [school.id, "0x1b"],
        [school.id, "27.0"],
        [school.id, `${theirs.id}.0`],
        ["%2027", theirs.id],
        ["0x1b", theirs.id],
        [`${other.id}.0`, theirs.id],
      ] as const) {
        const response = await write(schoolId, teacherId, action);
        expect(response.status, `${action} ${schoolId}/${teacherId}`).toBe(404);
        expect(await response.json()).toEqual({ error: "Teacher not found" });
      }
    }
    expect((await verify(theirCookie)).status).toBe(200);
    expect(await db().select().from(teachers).where(eq(teachers.id, theirs.id))).toHaveLength(1);
    expect(await auditEntriesOf("teacher", theirs.id)).toEqual([]);
  });
});

describe("disable and enable", () => {
  it("disabling ends every session at once and refuses sign-in; enabling lets the teacher sign in again", async () => {
    const school = await createSchool();
    const { teacher, email, cookie: first } = await teacherAt(school);
    const second = cookieFrom(await login(school.slug, email));
    expect(await sessionCount(teacher)).toBe(2);

    const disabled = await write(school.id, teacher.id, "disable");
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toEqual({
      teacher: { id: teacher.id, name: "Dana Reader", email, disabled: true },
      changed: true,
      message: "Dana Reader is disabled and has been signed out everywhere.",
    });
    expect(await sessionCount(teacher)).toBe(0);
    for (const teacherCookie of [first, second]) {
      // Signed out, and told why: the API, and the school's login page the pages send them to.
      const me = await verify(teacherCookie);
      expect(me.status).toBe(401);
      expect(await me.json()).toEqual({ error: DISABLED, disabled: true });
      const dashboard = await page(`/schools/${school.slug}/dashboard`, { cookie: teacherCookie });
      expect(dashboard.status).toBe(302);
      expect(dashboard.headers.get("Location")).toBe(
        `/schools/${school.slug}?redirectTo=${encodeURIComponent(`/schools/${school.slug}/dashboard`)}`,
      );
      const loginPage = await page(dashboard.headers.get("Location")!, { cookie: teacherCookie });
      expect(loginPage.status).toBe(200);
      expect(await loginPage.text()).toContain(DISABLED);
      const onHost = await page(`https://${school.slug}.lectern.test/`, { cookie: teacherCookie });
      expect(await onHost.text()).toContain(DISABLED);
    }
    // Anyone else's login page says nothing of it, nor does another school's to this cookie.
    expect(await (await page(`/schools/${school.slug}`)).text()).not.toContain(DISABLED);
    const elsewhere = await createSchool();
    expect(await (await page(`/schools/${elsewhere.slug}`, { cookie: first })).text()).not.toContain(DISABLED);
    const refused = await login(school.slug, email);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: DISABLED });
    // The wrong password still answers as for anyone: being disabled is told only to the owner.
    expect((await login(school.slug, email, "not the password")).status).toBe(401);
    expect(await sessionCount(teacher)).toBe(0);

    const [entry] = await audits("teacher.disable", teacher.id);
    expect(entry).toMatchObject({
      adminId: admin.id,
      adminEmail: admin.email,
      before: { name: "Dana Reader", email, disabled: false },
      after: { name: "Dana Reader", email, disabled: true },
    });

    // Again: nothing changes, no second entry.
    const again = await write(school.id, teacher.id, "disable");
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ changed: false, message: "Dana Reader was already disabled." });
    expect(await audits("teacher.disable", teacher.id)).toHaveLength(1);

    const enabled = await write(school.id, teacher.id, "enable");
    expect(enabled.status).toBe(200);
    expect(await enabled.json()).toMatchObject({
      teacher: { disabled: false },
      changed: true,
      message: "Dana Reader is enabled and can sign in again.",
    });
    const back = await login(school.slug, email);
    expect(back.status).toBe(200);
    expect((await verify(cookieFrom(back))).status).toBe(200);
    // An old cookie stays ended (its session expired, it is not revived), and no longer says disabled.
    const old = await verify(first);
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ error: "Not signed in" });
    expect(await (await page(`/schools/${school.slug}`, { cookie: first })).text()).not.toContain(DISABLED);
    expect(await audits("teacher.enable", teacher.id)).toHaveLength(1);
    expect(await (await write(school.id, teacher.id, "enable")).json()).toMatchObject({ changed: false });
    expect(await audits("teacher.enable", teacher.id)).toHaveLength(1);
  });

  it("a disabled teacher's cookie reads no book page and no library", async () => {
    const school = await createSchool();
    const { teacher, cookie: teacherCookie } = await teacherAt(school);
    await write(school.id, teacher.id, "disable");
    // A sign-in racing the disable (its password checked in D1 before the disable): the school's object opens no session.
    const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
    expect(await openTeacherSession(env, school, teacher, null)).toBeNull();
    for (const c of [teacherCookie]) {
      expect((await verify(c)).status).toBe(401);
      const books = await client({ cookie: c }).api.schools.slug[":slug"].books.$get({ param: { slug: school.slug }, query: {} });
      expect(books.status).toBe(401);
      expect(await books.json()).toEqual({ error: DISABLED, disabled: true });
    }
  });

  it("ten concurrent disables: every answer 200, one audit entry", async () => {
    const school = await createSchool();
    const { teacher } = await teacherAt(school);
    const answers = await Promise.all(Array.from({ length: 10 }, () => teacherApi().disable.$post(teacherParam(school.id, teacher.id))));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const changed = await Promise.all(answers.map(async (r) => (await okBody(r)).changed));
    expect(changed.filter(Boolean)).toHaveLength(1);
    expect(await audits("teacher.disable", teacher.id)).toHaveLength(1);
  });
});

describe("end all sessions", () => {
  it("ends every session of the teacher (not others'), audited with how many; they can sign in again", async () => {
    const school = await createSchool();
    const { teacher, email, cookie: first } = await teacherAt(school);
    const second = cookieFrom(await login(school.slug, email));
    const { cookie: colleague } = await teacherAt(school, "Casey Colleague");

    const response = await write(school.id, teacher.id, "sign-out");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      teacher: { id: teacher.id, name: "Dana Reader", email, disabled: false },
      sessionsEnded: 2,
      message: "Ended 2 sessions of Dana Reader.",
    });
    expect((await verify(first)).status).toBe(401);
    expect((await verify(second)).status).toBe(401);
    expect((await verify(colleague)).status).toBe(200);
    const [entry] = await audits("teacher.sign-out", teacher.id);
    expect(entry).toMatchObject({ adminEmail: admin.email, before: { name: "Dana Reader", email }, after: { sessionsEnded: 2 } });

    expect(await (await write(school.id, teacher.id, "sign-out")).json()).toMatchObject({
      sessionsEnded: 0,
      message: "Dana Reader had no sessions to end.",
    });
    expect((await login(school.slug, email)).status).toBe(200);
  });
});

describe("send a password-reset code", () => {
  it("in Development Mode writes the code to the server's log, not into the admin's answer; it resets the teacher's password", async () => {
    const school = await createSchool();
    const { teacher, email } = await teacherAt(school);
    const { result: response, lines } = await withLoggedLines(() => teacherApi()["send-reset"].$post(teacherParam(school.id, teacher.id)));
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(z.object({ message: z.string() }).loose().parse(JSON.parse(body)).message).toBe(
      "Development Mode: email delivery is not configured, so the password-reset code for Dana Reader was sent to the server's log, not shown here.",
    );
    // The code is the teacher's alone (issue 41 item 9): an admin's answer never carries it.
    const otp = loggedCode(lines, email, "reset")!;
    expect(otp).toMatch(/^\d{6}$/);
    expect(body).not.toContain(otp);
    const [code] = await db()
      .select()
      .from(otpCodes)
      .where(and(eq(otpCodes.schoolId, school.id), eq(otpCodes.email, email)));
    expect(code).toMatchObject({ purpose: "reset", usedAt: null });
    expect(code!.codeHash).not.toContain(otp);

    const newPassword = "a brand new passphrase";
    const reset = await client().api.teacher["reset-password"].$post({ json: { email, otp, newPassword, slug: school.slug } });
    expect(reset.status).toBe(200);
    expect((await login(school.slug, email, newPassword)).status).toBe(200);
    const [entry] = await audits("teacher.send-reset", teacher.id);
    expect(entry).toMatchObject({ adminEmail: admin.email, before: { name: "Dana Reader", email } });

    // The teacher's own throttle applies: a second code within the minute is refused, and not audited.
    const soon = await write(school.id, teacher.id, "send-reset");
    expect(soon.status).toBe(429);
    expect(await errorOf(soon)).toMatch(/^Please wait/);
    expect(await audits("teacher.send-reset", teacher.id)).toHaveLength(1);
  });

  it("with mail configured, e-mails the teacher the code as 'Forgot password' does", async () => {
    const school = await createSchool();
    const { teacher, email } = await teacherAt(school);
    const withMail = client({ cookie, env: { SMTP_URL: env.SMTP_TEST_URL, MAIL_FROM: "Lectern <no-reply@lectern.test>" } });
    const response = await withMail.api.schools[":id"].teachers[":teacherId"]["send-reset"].$post(teacherParam(school.id, teacher.id));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ message: `A password-reset code was e-mailed to Dana Reader (${email}).` });
    const caught = await jsonOf(fetch(`${env.MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(email)}`), Caught);
    expect(caught).toHaveLength(1);
    const otp = extractCode(caught[0]!.text);
    expect(otp).toMatch(/^\d{6}$/);
    const reset = await client().api.teacher["reset-password"].$post({
      json: { email, otp: otp ?? "", newPassword: "mailed passphrase ok", slug: school.slug },
    });
    expect(reset.status).toBe(200);
  });
});

describe("remove", () => {
  it("deletes the teacher with their sessions, progress and codes, keeps the audit entry, and frees the slot", async () => {
    const school = await createSchool({ teacherLimit: 1 });
    const { teacher, email, cookie: teacherCookie } = await teacherAt(school);
    const [book] = await db()
      .insert(books)
      .values({ title: `Removal Book ${tag()}`, author1: "A" })
      .returning();
    await db().batch([
      db().insert(readingProgress).values({ teacherId: teacher.id, bookId: book!.id, page: 4, updatedAt: Date.now() }),
      db().insert(readingDaily).values({ day: "2025-01-01", schoolId: school.id, bookId: book!.id, teacherId: teacher.id, pages: 3 }),
    ]);
    const sendOtp = client().api.teacher["send-otp"];
    await devModeCode(await sendOtp.$post({ json: { email, slug: school.slug, purpose: "reset" } }));

    // The school is full: nobody else may register.
    const newcomer = `newcomer-${tag()}@school.test`;
    const full = await sendOtp.$post({ json: { email: newcomer, slug: school.slug, purpose: "register" } });
    expect(full.status).toBe(403);

    const response = await write(school.id, teacher.id, "");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      teacher: { id: teacher.id, name: "Dana Reader", email, disabled: false },
      message: `Dana Reader (${email}) was removed; their place at the school is free.`,
    });
    expect((await verify(teacherCookie)).status).toBe(401);
    expect(await db().select().from(teachers).where(eq(teachers.id, teacher.id))).toEqual([]);
    expect(await sessionCount(teacher)).toBe(0);
    expect(await db().select().from(readingProgress).where(eq(readingProgress.teacherId, teacher.id))).toEqual([]);
    expect(await db().select().from(readingDaily).where(eq(readingDaily.teacherId, teacher.id))).toEqual([]);
    expect(
      await db()
        .select()
        .from(otpCodes)
        .where(and(eq(otpCodes.schoolId, school.id), eq(otpCodes.email, email))),
    ).toEqual([]);
    // The school's login history keeps the count, without the teacher.
    const events = await db().select().from(loginEvents).where(eq(loginEvents.schoolId, school.id));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.teacherId === null)).toBe(true);
    const [entry, ...more] = await audits("teacher.delete", teacher.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ adminId: admin.id, before: { id: teacher.id, name: "Dana Reader", email } });

    // The slot is free: a new teacher registers.
    const otp = await devModeCode(await sendOtp.$post({ json: { email: newcomer, slug: school.slug, purpose: "register" } }));
    const registered = await client().api.teacher.register.$post({
      json: { name: "New Comer", mobile: "5551234567", email: newcomer, password: PASSWORD, otp, slug: school.slug },
    });
    expect(registered.status).toBe(201);

    // Again: 404, and no second entry.
    const again = await write(school.id, teacher.id, "");
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "Teacher not found" });
    expect(await audits("teacher.delete", teacher.id)).toHaveLength(1);
    for (const { action } of WRITES.filter((w) => w.action)) expect((await write(school.id, teacher.id, action)).status, action).toBe(404);
  });

  it("ten concurrent removals: one 200, nine 404, one audit entry", async () => {
    const school = await createSchool();
    const { teacher } = await teacherAt(school);
    const answers = await Promise.all(Array.from({ length: 10 }, () => write(school.id, teacher.id, "")));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(404)]);
    expect(await audits("teacher.delete", teacher.id)).toHaveLength(1);
  });

  it("concurrent disables and removals: the teacher is gone, with one removal entry", async () => {
    const school = await createSchool();
    const { teacher } = await teacherAt(school);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => write(school.id, teacher.id, i % 2 ? "disable" : "")));
    const removals = answers.filter((_, i) => i % 2 === 0).map((r) => r.status);
    expect(removals.filter((s) => s === 200)).toHaveLength(1);
    expect(await db().select().from(teachers).where(eq(teachers.id, teacher.id))).toEqual([]);
    expect(await audits("teacher.delete", teacher.id)).toHaveLength(1);
    expect((await audits("teacher.disable", teacher.id)).length).toBeLessThanOrEqual(1);
  });
});

describe("the school page's teachers", () => {
  const post = (schoolId: number, fields: Record<string, string>, who = cookie, suffix = "") =>
    page(`/admin/school/${schoolId}${suffix}`, { method: "POST", cookie: who, body: new URLSearchParams(fields) });

  it("lists each teacher with actions named after them", async () => {
    const school = await createSchool();
    await teacherAt(school, "Dana Reader");
    const { teacher: off } = await teacherAt(school, "Evan Enabled-Later");
    await write(school.id, off.id, "disable");
    const response = await page(`/admin/school/${school.id}`, { cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const label of [
      "Disable Dana Reader",
      "End all sessions Dana Reader",
      "Send password reset Dana Reader",
      "Remove Dana Reader",
      "Enable Evan Enabled-Later",
    ])
      expect(html).toContain(`aria-label="${label}"`);
    expect(html).not.toContain('aria-label="Disable Evan Enabled-Later"');
    expect(html).toContain("Disabled");
  });

  it("runs each action through a form post, with the API's rules and messages", async () => {
    const school = await createSchool();
    const { teacher, email, cookie: teacherCookie } = await teacherAt(school);

    const disabled = await post(school.id, { intent: "teacher-disable", teacherId: String(teacher.id) });
    expect(disabled.status).toBe(200);
    expect(await disabled.text()).toContain("Dana Reader is disabled and has been signed out everywhere.");
    expect((await verify(teacherCookie)).status).toBe(401);
    expect((await login(school.slug, email)).status).toBe(403);
    expect(await audits("teacher.disable", teacher.id)).toHaveLength(1);

    const enabled = await post(school.id, { intent: "teacher-enable", teacherId: String(teacher.id) }, cookie, ".data");
    expect(enabled.status).toBe(200);
    expect(await enabled.text()).toContain("Dana Reader is enabled and can sign in again.");
    const signedIn = cookieFrom(await login(school.slug, email));

    const ended = await post(school.id, { intent: "teacher-sign-out", teacherId: String(teacher.id) }, cookie, ".data");
    expect(await ended.text()).toContain("Ended 1 session of Dana Reader.");
    expect((await verify(signedIn)).status).toBe(401);

    const { result: reset, lines } = await withLoggedLines(() =>
      post(school.id, { intent: "teacher-send-reset", teacherId: String(teacher.id) }, cookie, ".data"),
    );
    expect(reset.status).toBe(200);
    const answer = await reset.text();
    expect(answer).toContain(
      "Development Mode: email delivery is not configured, so the password-reset code for Dana Reader was sent to the server",
    );
    expect(answer).not.toContain(loggedCode(lines, email, "reset")!);
    expect(await audits("teacher.send-reset", teacher.id)).toHaveLength(1);

    const removed = await post(school.id, { intent: "teacher-delete", teacherId: String(teacher.id) });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain(`Dana Reader (${email}) was removed; their place at the school is free.`);
    expect(await db().select().from(teachers).where(eq(teachers.id, teacher.id))).toEqual([]);
    const again = await post(school.id, { intent: "teacher-delete", teacherId: String(teacher.id) }, cookie, ".data");
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("Teacher not found");
    expect(await audits("teacher.delete", teacher.id)).toHaveLength(1);
  });

  it("refuses another school's teacher, a malformed id, a teacher's cookie and another site", async () => {
    const school = await createSchool();
    const other = await createSchool();
    const { teacher: theirs, cookie: theirCookie } = await teacherAt(other);
    for (const teacherId of [String(theirs.id), "%2027", " 27", "0x1b", "27.0", ""]) {
      const response = await post(school.id, { intent: "teacher-disable", teacherId }, cookie, ".data");
      expect(response.status, teacherId).toBe(404);
      expect(await response.text()).toContain("Teacher not found");
    }
    expect((await verify(theirCookie)).status).toBe(200);

    const { teacher: mine } = await teacherAt(school);
    const asTeacher = await post(school.id, { intent: "teacher-delete", teacherId: String(mine.id) }, theirCookie);
    expect(asTeacher.status).toBe(302);
    const crossSite = await page(`/admin/school/${school.id}`, {
      method: "POST",
      cookie,
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ intent: "teacher-delete", teacherId: String(mine.id) }),
    });
    expect(crossSite.status).toBe(403);
    expect(await db().select().from(teachers).where(eq(teachers.id, mine.id))).toHaveLength(1);
    expect(await audits("teacher.delete", mine.id)).toEqual([]);
  });
});

// Throttles, enumeration and races on a school's real day (issue 15): a staff room signing up
// together, strangers who cannot lock anyone out or learn who has an account, and writes that hold
// when ten arrive at once.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { OTP_HOURLY_LIMIT } from "../../workers/auth/otp.ts";
import { admins, auditLog, schools, teachers } from "../../workers/db/schema.ts";
import { readConfig } from "../../workers/kernel/config.ts";
import { OTP_LIMITS, sendTeacherOtp } from "../../workers/teachers/send-otp.ts";
import { client, createBook, createSchool, db, devModeCode, errorOf, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

const PASSWORD = "correct horse battery";
const STAFF_ROOM = "203.0.113.40";
const MAIL = { SMTP_URL: env.SMTP_TEST_URL, MAIL_FROM: "Lectern <no-reply@lectern.test>" };
let counter = 0;
const freshEmail = () => `staff-${++counter}-${crypto.randomUUID().slice(0, 6)}@school.test`;

describe("one-time codes for a school building", () => {
  it("lets 40 teachers of one school register from one address within minutes", async () => {
    const school = await createSchool({ teacherLimit: 40 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const email = freshEmail();
      const staffRoom = client({ ip: STAFF_ROOM }).api.teacher;
      const otp = await devModeCode(await staffRoom["send-otp"].$post({ json: { email, slug: school.slug } }));
      const registered = await staffRoom.register.$post({
        json: { name: `Teacher ${i}`, mobile: "5551234567", email, password: PASSWORD, otp, slug: school.slug },
      });
      statuses.push(registered.status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(40);
  }, 120_000);

  it("stops one address sending codes to hundreds of inboxes, and counts no refused request", async () => {
    const school = await createSchool({ teacherLimit: 500 });
    const ip = "198.51.100.99";
    let sent = 0;
    let first429 = 0;
    for (let i = 0; i < OTP_LIMITS.client.limit + 5; i++) {
      const response = await client({ ip }).api.teacher["send-otp"].$post({ json: { email: freshEmail(), slug: school.slug } });
      if (response.status === 200) sent++;
      else if (!first429) {
        first429 = i + 1;
        expect(response.status).toBe(429);
        expect(await errorOf(response)).toMatch(/^Too many codes requested\. Please try again in \d+ minutes?\.$/);
      }
    }
    expect(sent).toBe(OTP_LIMITS.client.limit);
    expect(first429).toBe(OTP_LIMITS.client.limit + 1);
    // Another address of the same school is not affected.
    const elsewhere = client({ ip: "198.51.100.100" }).api.teacher["send-otp"];
    expect((await elsewhere.$post({ json: { email: freshEmail(), slug: school.slug } })).status).toBe(200);
  }, 120_000);

  it("limits codes to one inbox without touching the others", async () => {
    const school = await createSchool();
    const email = freshEmail();
    const config = readConfig(env as unknown as Record<string, unknown>);
    const send = (to: string, at: number) =>
      sendTeacherOtp(
        db(),
        config,
        config.authSecret,
        { school, email: to, purpose: "reset", clientIp: "192.0.2.9", loginUrl: "https://lectern.test/", requester: "teacher" },
        at,
      );
    const start = Date.now();
    // A minute apart (the resend gap), from one address: the inbox's hourly limit is reached.
    const kindOf = async (to: string, at: number) => {
      const sent = await send(to, at);
      return sent.ok ? "sent" : sent.failure.kind;
    };
    const kinds: string[] = [];
    for (let i = 0; i < OTP_HOURLY_LIMIT + 2; i++) kinds.push(await kindOf(email, start + i * 61_000));
    expect(kinds).toEqual([...Array(OTP_HOURLY_LIMIT).fill("sent"), "throttled", "throttled"]);
    expect(await kindOf(freshEmail(), start + 9 * 61_000)).toBe("sent");
    // The window ends within the hour: no longer block.
    expect(await kindOf(email, start + 3600_000 + 1000)).toBe("sent");
  });
});

describe("nothing tells a stranger who has an account", () => {
  it("answers send-otp for a registration at a full school alike for registered and unknown addresses", async () => {
    const school = await createSchool({ teacherLimit: 1 });
    const email = freshEmail();
    const teacherApi = client().api.teacher;
    const otp = await devModeCode(await teacherApi["send-otp"].$post({ json: { email, slug: school.slug } }));
    const body = { name: "Only One", mobile: "5551234567", email, password: PASSWORD, otp, slug: school.slug };
    expect((await teacherApi.register.$post({ json: body })).status).toBe(201);
    const known = await teacherApi["send-otp"].$post({ json: { email, slug: school.slug } });
    const unknown = await teacherApi["send-otp"].$post({ json: { email: freshEmail(), slug: school.slug } });
    expect(known.status).toBe(403);
    expect(await known.text()).toBe(await unknown.text());
  });

  it("answers send-otp (register and reset) byte for byte alike, with mail configured", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school);
    for (const purpose of ["register", "reset"] as const) {
      const known = await client({ env: MAIL, ip: "192.0.2.201" }).api.teacher["send-otp"].$post({
        json: { email: teacher.email, slug: school.slug, purpose },
      });
      const unknown = await client({ env: MAIL, ip: "192.0.2.202" }).api.teacher["send-otp"].$post({
        json: { email: freshEmail(), slug: school.slug, purpose },
      });
      expect(known.status, purpose).toBe(200);
      expect(await known.text(), purpose).toBe(await unknown.text());
    }
  });

  it("answers reset-password alike for known and unknown addresses", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school);
    const reset = (email: string) =>
      client().api.teacher["reset-password"].$post({
        json: { email, otp: "123456", newPassword: "a new passphrase 42", slug: school.slug },
      });
    const known = await reset(teacher.email);
    const unknown = await reset(freshEmail());
    expect(known.status).toBe(400);
    expect(await known.text()).toBe(await unknown.text());
  });
});

describe("writes that hold under concurrency", () => {
  it("adds every one of 10 concurrent 'increase by 1'", async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const { cookie } = await signedInAdmin();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client({ cookie }).api.schools.logins[":id"]["increase-login-count"].$post({ param: { id: String(school.id) }, json: { by: 1 } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const [row] = await db().select({ limit: schools.teacherLimit }).from(schools).where(eq(schools.id, school.id));
    expect(row!.limit).toBe(15);
  });

  it("creates an admin once when 10 identical creations race: one 201, nine 409", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const email = `racing-${crypto.randomUUID().slice(0, 8)}@lectern.test`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client({ cookie }).api.superadmin.admins.$post({ json: { email, name: "Racing Admin", password: "a long admin passphrase" } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });

  it("deletes a book once when 10 deletes race: one 200, nine 404, one audit entry", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: "Racing Deletes" });
    const remove = () => client({ cookie }).api.books[":id"].$delete({ param: { id: String(book.id) } });
    const answers = await Promise.all(Array.from({ length: 10 }, remove));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(404)]);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(book.id)));
    expect(entries.filter((entry) => entry.action === "book.delete")).toHaveLength(1);
  });
});

describe("the last superadmin", () => {
  it("cannot be disabled by two superadmins disabling each other at once", async () => {
    const [a, b] = [await signedInAdmin("superadmin"), await signedInAdmin("superadmin")];
    // Only these two (and any other test's) superadmins exist: disable every other one first.
    const others = await db().select({ id: admins.id }).from(admins).where(eq(admins.role, "superadmin"));
    for (const { id } of others)
      if (id !== a.admin.id && id !== b.admin.id) await db().update(admins).set({ disabled: true }).where(eq(admins.id, id));
    const [first, second] = await Promise.all([
      client(a).api.superadmin.admins[":id"].$put({ param: { id: String(b.admin.id) }, json: { disabled: true } }),
      client(b).api.superadmin.admins[":id"].$put({ param: { id: String(a.admin.id) }, json: { disabled: true } }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toContain(200);
    const active = await db()
      .select()
      .from(admins)
      .where(and(eq(admins.role, "superadmin"), eq(admins.disabled, false)));
    expect(active.length).toBeGreaterThanOrEqual(1);
    for (const { id } of others) await db().update(admins).set({ disabled: false }).where(eq(admins.id, id));
  });
});

describe("racing revokes", () => {
  it("revokes an assignment once when 10 revokes race: one 200, nine 404, one audit entry", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: "Racing Revokes" }, [school.id]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client({ cookie }).api.books.access[":schoolId"][":bookId"].$delete({
          param: { schoolId: String(school.id), bookId: String(book.id) },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(404)]);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, `${school.id}:${book.id}`));
    expect(entries).toHaveLength(1);
  });
});

describe("strict ids, private pages, plain text", () => {
  it("reads a school id only in its canonical form", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    const read = (id: string) => client({ cookie }).api.schools[":id"].$get({ param: { id } });
    expect((await read(String(school.id))).status).toBe(200);
    // Ids go into the path as they are: the malformed ones below reach the route as sent.
    for (const id of [
      `%20${school.id}`,
      `0x${school.id.toString(16)}`,
      `${school.id}.0`,
      `+${school.id}`,
      `${school.id}e0`,
      `0b${school.id.toString(2)}`,
      `0${school.id}`,
    ]) {
      const response = await read(id);
      expect(response.status, id).toBe(400);
    }
    const access = await client({ cookie }).api.books.access.$get({ query: { schoolId: `0x${school.id.toString(16)}` } });
    expect(access.status).toBe(400);
  });

  it("marks signed-in pages and their data answers private, no-store", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    for (const path of [`/schools/${school.slug}/dashboard`, `/schools/${school.slug}/dashboard.data`]) {
      expect((await page(path, { cookie })).headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    const admin = await signedInAdmin();
    for (const path of ["/admin/books", "/admin/books.data", `/admin/school/${school.id}`]) {
      expect((await page(path, { cookie: admin.cookie })).headers.get("Cache-Control"), path).toBe("private, no-store");
    }
  });

  it("refuses control characters in names, through the API and the page's form", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const renamed = await client({ cookie }).api.schools[":id"].$put({
      param: { id: String(school.id) },
      json: { schoolName: "Evil\u0000School" },
    });
    expect(renamed.status).toBe(400);
    expect(await errorOf(renamed)).toMatch(/control characters/);
    const [row] = await db().select({ name: schools.name }).from(schools).where(eq(schools.id, school.id));
    expect(row!.name).toBe(school.name);
    const name = await client().api.teacher.register.$post({
      json: { name: "Bell\u0007Ringer", mobile: "5551234567", email: freshEmail(), password: PASSWORD, otp: "123456", slug: school.slug },
    });
    expect(name.status).toBe(400);
    expect(await db().select().from(teachers).where(eq(teachers.name, "Bell\u0007Ringer"))).toEqual([]);
  });
});

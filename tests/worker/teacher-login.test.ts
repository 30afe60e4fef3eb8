import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOGIN_THROTTLE } from "../../workers/auth/login-guard.ts";
import { issueOtp } from "../../workers/auth/otp.ts";
import { ENDED_SESSION_KEPT_MS } from "../../workers/school-object/policy.ts";
import { loginTeacher } from "../../workers/teachers/sign-up-and-login.ts";
import { teacherWithPassword } from "./fixtures-teachers.ts";
import { client, cookieFrom, createSchool, db, devModeCode, errorOf, objectSessions } from "./helpers.ts";

const PASSWORD = "correct horse battery";
let counter = 0;

async function teacherAt(school: { id: number }, password = PASSWORD) {
  const email = `login-${++counter}-${crypto.randomUUID().slice(0, 6)}@school.test`;
  await teacherWithPassword(school.id, email, password);
  return email;
}

function login(slug: string, email: string, password: string, call: { ip?: string; cookie?: string } = {}) {
  return client(call).api.teacher.login.$post({ json: { email, password, slug } });
}

const verifyToken = (cookie: string) => client({ cookie }).api.teacher["verify-token"].$get();

describe("POST /api/teacher/login", () => {
  it("returns the teacher's name and a session; records the login", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const response = await login(school.slug, email.toUpperCase(), PASSWORD);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ teacherName: "Grace Hopper" });
    expect((await verifyToken(cookieFrom(response))).status).toBe(200);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM login_events WHERE school_id = ?").bind(school.id).first("n");
    expect(events).toBe(1);
    expect(await env.DB.prepare("SELECT total_logins FROM schools WHERE id = ?").bind(school.id).first("total_logins")).toBe(1);
  });

  it("gives a new token at every login and ends the browser's previous session", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const first = cookieFrom(await login(school.slug, email, PASSWORD));
    const second = cookieFrom(await login(school.slug, email, PASSWORD, { cookie: first }));
    expect(second).not.toBe(first);
    expect((await verifyToken(first)).status).toBe(401);
    expect((await verifyToken(second)).status).toBe(200);
  });

  it("answers a wrong password and an unknown e-mail identically, with the same work", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const timings = { wrong: [] as number[], unknown: [] as number[] };
    const bodies = new Set<string>();
    for (let i = 0; i < 3; i++) {
      for (const [kind, address] of [
        ["wrong", email],
        ["unknown", `nobody-${i}@school.test`],
      ] as const) {
        const started = performance.now();
        const response = await login(school.slug, address, "not the password", { ip: `10.0.${i}.${kind.length}` });
        timings[kind].push(performance.now() - started);
        expect(response.status).toBe(401);
        bodies.add(await response.text());
      }
    }
    expect([...bodies]).toEqual([JSON.stringify({ error: "Invalid email or password" })]);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    const ratio = median(timings.unknown) / median(timings.wrong);
    // Both verify a PBKDF2 hash; without the dummy hash an unknown e-mail would answer ~100x faster.
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(2.5);
  });

  it("a teacher of one school cannot log in at another", async () => {
    const school = await createSchool();
    const other = await createSchool();
    const email = await teacherAt(school);
    expect((await login(other.slug, email, PASSWORD)).status).toBe(401);
  });
});

describe("login throttling", () => {
  it("refuses a client after 5 failures on one account, for a while only", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    for (let i = 0; i < LOGIN_THROTTLE.pair.limit; i++)
      expect((await login(school.slug, email, "wrong password", { ip: "203.0.113.9" })).status).toBe(401);
    const blocked = await login(school.slug, email, PASSWORD, { ip: "203.0.113.9" });
    expect(blocked.status).toBe(429);
    expect(await errorOf(blocked)).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
    // The teacher, from their own computer, is not locked out by a stranger's guesses.
    expect((await login(school.slug, email, PASSWORD, { ip: "198.51.100.7" })).status).toBe(200);
    // And the block ends.
    const later = Date.now() + LOGIN_THROTTLE.pair.blockMs + 1000;
    const result = await loginTeacher(db(), env, { school, email, password: PASSWORD, clientIp: "203.0.113.9" }, later);
    expect(result.ok).toBe(true);
  });

  it("refuses a client that tries many accounts", async () => {
    const school = await createSchool();
    const ip = "192.0.2.44";
    for (let i = 0; i < LOGIN_THROTTLE.client.limit; i++) await login(school.slug, `guess-${i}@school.test`, "x", { ip });
    expect((await login(school.slug, "another@school.test", "x", { ip })).status).toBe(429);
  }, 60_000);

  it("never locks the owner out: a stranger's guesses from many clients slow only those clients", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    // 24 wrong passwords in the hour from 4 clients (6 each; each client is blocked for this account after 5).
    for (let i = 0; i < 24; i++) await login(school.slug, email, "wrong", { ip: `100.64.${i % 4}.1` });
    // The account is under attack: a client with failures on it is refused, even with the right password...
    expect((await login(school.slug, email, PASSWORD, { ip: "100.64.0.1" })).status).toBe(429);
    // ...but the owner, from a client that has not failed, signs in.
    expect((await login(school.slug, email, PASSWORD, { ip: "198.51.100.23" })).status).toBe(200);
  });

  it("under attack gives each new client one guess, then refuses it", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    for (let i = 0; i < LOGIN_THROTTLE.account.underAttack; i++) await login(school.slug, email, "wrong", { ip: `100.65.${i}.1` });
    const ip = "100.65.200.1";
    expect((await login(school.slug, email, "wrong", { ip })).status).toBe(401);
    expect((await login(school.slug, email, "wrong again", { ip })).status).toBe(401);
    expect((await login(school.slug, email, PASSWORD, { ip })).status).toBe(429);
    // An hour later the account's window has passed.
    const later = Date.now() + LOGIN_THROTTLE.account.windowMs + 1000;
    expect((await loginTeacher(db(), env, { school, email, password: PASSWORD, clientIp: ip }, later)).ok).toBe(true);
  });
});

const resetPassword = (json: { email: string; otp: string; newPassword: string; slug: string }) =>
  client().api.teacher["reset-password"].$post({ json });

describe("POST /api/teacher/reset-password", () => {
  it("sets the new password, spends the code, and signs the teacher out everywhere", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const session = cookieFrom(await login(school.slug, email, PASSWORD));
    const otp = await devModeCode(await client().api.teacher["send-otp"].$post({ json: { email, slug: school.slug, purpose: "reset" } }));
    const newPassword = "a brand new passphrase";
    const response = await resetPassword({ email, otp, newPassword, slug: school.slug });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Password reset successful! You can now log in with your new password." });
    expect((await verifyToken(session)).status).toBe(401);
    expect((await login(school.slug, email, PASSWORD)).status).toBe(401);
    expect((await login(school.slug, email, newPassword)).status).toBe(200);

    const reuse = await resetPassword({ email, otp, newPassword: "yet another passphrase", slug: school.slug });
    expect(reuse.status).toBe(400);
    expect((await login(school.slug, email, newPassword)).status).toBe(200);
  });

  it("does not accept a registration code", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const issued = await issueOtp(db(), env.AUTH_SECRET, { schoolId: school.id, email, purpose: "register" });
    if (!issued.ok) throw new Error("not issued");
    const response = await resetPassword({ email, otp: issued.code, newPassword: "another good one", slug: school.slug });
    expect(response.status).toBe(400);
  });

  it("tells nobody whether an address has an account", async () => {
    const school = await createSchool();
    const known = await teacherAt(school);
    const answers = [];
    for (const email of [known, "stranger@school.test"]) {
      const response = await client().api.teacher["send-otp"].$post({ json: { email, slug: school.slug, purpose: "reset" } });
      answers.push({ status: response.status, shape: (await errorOf(response)).replace(/\d{6}/, "######") });
    }
    expect(answers[0]).toEqual(answers[1]);
  });
});

describe("sign-in housekeeping", () => {
  it("a login removes (D1's, from before the school objects) sessions that ended over 14 days ago and stale throttle counters, and keeps live ones", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const now = Date.now();
    const teacherId = (await env.DB.prepare("SELECT id FROM teachers WHERE email = ?").bind(email).first<{ id: number }>())!.id;
    const session = (hash: string, expiresAt: number) =>
      env.DB.prepare(
        "INSERT INTO sessions (token_hash, kind, teacher_id, school_id, created_at, last_seen_at, expires_at) VALUES (?, 'teacher', ?, ?, ?, ?, ?)",
      ).bind(hash, teacherId, school.id, expiresAt - 1e7, expiresAt - 1e7, expiresAt);
    await env.DB.batch([
      session("expired-one", now - ENDED_SESSION_KEPT_MS - 1000),
      // Ended recently (as disabling ends them): kept a while, so its teacher can be told why.
      session("ended-recently", now - 1000),
      env.DB.prepare(
        "INSERT INTO rate_limits (key, count, window_start, blocked_until) VALUES ('stale-counter', 3, ?, NULL), ('live-block', 30, ?, ?)",
      ).bind(now - 2 * 86_400_000, now - 2 * 86_400_000, now + 600_000),
    ]);
    expect((await login(school.slug, email, PASSWORD)).status).toBe(200);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE token_hash = 'expired-one'").first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT key FROM rate_limits WHERE key IN ('stale-counter', 'live-block')").all()).toMatchObject({
      results: [{ key: "live-block" }],
    });
    expect(
      await env.DB.prepare("SELECT token_hash FROM sessions WHERE teacher_id = ? AND expires_at <= ?").bind(teacherId, now).all(),
    ).toMatchObject({
      results: [{ token_hash: "ended-recently" }],
    });
    // The new session is in the school's object, not in D1.
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE teacher_id = ? AND expires_at > ?").bind(teacherId, now).first("n"),
    ).toBe(0);
    expect((await objectSessions(school.id)).filter((s) => s.expires_at > now)).toHaveLength(1);
  });

  it("a login removes one-time codes that expired a day ago, and keeps recent ones (the hourly limit counts them)", async () => {
    const school = await createSchool();
    const email = await teacherAt(school);
    const now = Date.now();
    const code = (hash: string, expiresAt: number) =>
      env.DB.prepare(
        "INSERT INTO otp_codes (school_id, email, purpose, code_hash, expires_at, attempts, created_at) VALUES (?, 'someone@school.test', 'register', ?, ?, 0, ?)",
      ).bind(school.id, hash, expiresAt, expiresAt - 600_000);
    await env.DB.batch([code("old-code", now - 2 * 86_400_000), code("expired-recently", now - 60_000), code("live-code", now + 540_000)]);
    expect((await login(school.slug, email, PASSWORD)).status).toBe(200);
    const left = await env.DB.prepare("SELECT code_hash FROM otp_codes WHERE school_id = ? ORDER BY code_hash").bind(school.id).all();
    expect(left.results).toEqual([{ code_hash: "expired-recently" }, { code_hash: "live-code" }]);
  });
});

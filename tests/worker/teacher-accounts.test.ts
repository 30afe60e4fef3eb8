import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { issueOtp } from "../../workers/auth/otp.ts";
import { getTeacherSession, SESSION_LIFETIME } from "../../workers/auth/sessions.ts";
import { api, client, cookieFrom, createSchool, db, devModeCode, errorOf, objectSessions } from "./helpers.ts";

let counter = 0;
const freshEmail = () => `teacher-${++counter}-${crypto.randomUUID().slice(0, 6)}@school.test`;
const PASSWORD = "correct horse battery";

async function codeFor(slug: string, email: string, purpose: "register" | "reset" = "register") {
  return devModeCode(await client().api.teacher["send-otp"].$post({ json: { email, slug, purpose } }));
}

async function register(slug: string, email = freshEmail()) {
  const otp = await codeFor(slug, email);
  return signUp({ name: "Ada Lovelace", mobile: "5551234567", email, password: PASSWORD, otp, slug });
}

/** POST /api/teacher/register with this body. */
const signUp = (json: { name: string; mobile: string; email: string; password: string; otp: string; slug: string }) =>
  client().api.teacher.register.$post({ json });
const verifyToken = (cookie: string) => client({ cookie }).api.teacher["verify-token"].$get();

describe("registration", () => {
  it("creates the teacher, signs them in with a hashed-token session cookie", async () => {
    const school = await createSchool();
    const email = freshEmail();
    const response = await register(school.slug, email);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ teacherName: "Ada Lovelace" });
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    // The school's id (which object holds the session), then the token.
    expect(setCookie).toMatch(
      new RegExp(`^__Host-lectern_teacher=${school.id}\\.[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Lax; Max-Age=\\d+; Secure$`),
    );
    const token = cookieFrom(response).split(".")[1]!;
    const sessions = await objectSessions(school.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.token_hash).not.toContain(token);
    const inD1 = "SELECT count(*) AS n FROM sessions WHERE kind = 'teacher' AND school_id = ?";
    expect(await env.DB.prepare(inD1).bind(school.id).first("n")).toBe(0);

    const me = await verifyToken(cookieFrom(response));
    expect(await me.json()).toEqual({ teacherName: "Ada Lovelace", email, school: { slug: school.slug, name: school.name } });
  });

  it("uses a plain HttpOnly cookie over http (local development)", async () => {
    const school = await createSchool();
    const email = freshEmail();
    const otp = await codeFor(school.slug, email);
    // Raw: an http URL, which the typed client (bound to our https origin) does not call.
    const response = await api("http://lectern.test/api/teacher/register", {
      body: { name: "Ada", mobile: "5551234567", email, password: PASSWORD, otp, slug: school.slug },
    });
    expect(response.headers.get("Set-Cookie")).toMatch(
      /^lectern_teacher=\d+\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
  });

  it("verifies the code on the server", async () => {
    const school = await createSchool();
    const email = freshEmail();
    const otp = await codeFor(school.slug, email);
    const wrong = otp === "123456" ? "654321" : "123456";
    const response = await signUp({ name: "A", mobile: "5551234567", email, password: PASSWORD, otp: wrong, slug: school.slug });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/^Invalid OTP/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM teachers WHERE email = ?").bind(email).first("n")).toBe(0);
  });

  it("answers a registered e-mail exactly as a wrong code, so nothing tells who has an account", async () => {
    const school = await createSchool();
    const email = freshEmail();
    expect((await register(school.slug, email)).status).toBe(201);
    const body = (address: string) => ({
      name: "B",
      mobile: "5551234567",
      email: address,
      password: PASSWORD,
      otp: "123456",
      slug: school.slug,
    });
    const known = await signUp(body(email.toUpperCase()));
    const unknown = await signUp(body(freshEmail()));
    expect(known.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(await known.text()).toBe(await unknown.text());
  });

  it("allows the same e-mail at another school", async () => {
    const email = freshEmail();
    expect((await register((await createSchool()).slug, email)).status).toBe(201);
    expect((await register((await createSchool()).slug, email)).status).toBe(201);
  });

  it.each([
    [{ mobile: "555123456" }, "Mobile number must be exactly 10 digits"],
    [{ mobile: "55512345678" }, "Mobile number must be exactly 10 digits"],
    [{ password: "short" }, "Password must be at least 8 characters"],
    [{ password: "x".repeat(129) }, "Password must be at most 128 characters"],
    [{ password: "Password123" }, "This password is too common. Please choose one that is harder to guess."],
    [{ name: "  " }, "Please enter your full name"],
  ])("validates %o: a sentence, and the field apart from it", async (override, message) => {
    const school = await createSchool();
    const response = await signUp({
      ...{ name: "A", mobile: "5551234567", email: freshEmail(), password: PASSWORD, otp: "123456", slug: school.slug },
      ...override,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message, field: Object.keys(override)[0] });
  });
});

describe("the teacher limit", () => {
  it("answers 403 limit_reached when the school is full, already at send-otp", async () => {
    const school = await createSchool({ teacherLimit: 1 });
    expect((await register(school.slug)).status).toBe(201);
    const send = await client().api.teacher["send-otp"].$post({ json: { email: freshEmail(), slug: school.slug } });
    expect(send.status).toBe(403);
    expect(await send.json()).toEqual({ error: "limit_reached" });

    const email = freshEmail();
    const issued = await issueOtp(db(), env.AUTH_SECRET, { schoolId: school.id, email, purpose: "register" });
    if (!issued.ok) throw new Error("not issued");
    const late = { name: "Late", mobile: "5551234567", email, password: PASSWORD, otp: issued.code, slug: school.slug };
    const response = await signUp(late);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "limit_reached" });
    // The code was not spent on a refused registration: it still works once the limit is raised.
    await env.DB.prepare("UPDATE schools SET teacher_limit = 2 WHERE id = ?").bind(school.id).run();
    const retry = await signUp(late);
    expect(retry.status).toBe(201);
  });

  it("holds when 30 registrations race for a school with room for 5", { timeout: 60_000 }, async () => {
    const school = await createSchool({ teacherLimit: 5 });
    const entrants = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const email = freshEmail();
        const issued = await issueOtp(db(), env.AUTH_SECRET, { schoolId: school.id, email, purpose: "register" });
        if (!issued.ok) throw new Error("not issued");
        return { email, otp: issued.code };
      }),
    );
    const responses = await Promise.all(
      entrants.map(({ email, otp }) => signUp({ name: "Racer", mobile: "5551234567", email, password: PASSWORD, otp, slug: school.slug })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(25);
    for (const r of responses.filter((r) => r.status === 403)) expect(await r.json()).toEqual({ error: "limit_reached" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM teachers WHERE school_id = ?").bind(school.id).first("n")).toBe(5);
    expect(await objectSessions(school.id)).toHaveLength(5);
  });
});

describe("sessions", () => {
  it("sign-out revokes the session on the server", async () => {
    const school = await createSchool();
    const cookie = cookieFrom(await register(school.slug));
    expect((await verifyToken(cookie)).status).toBe(200);
    const out = await client({ cookie }).api.teacher["sign-out"].$post();
    expect(out.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
    expect((await verifyToken(cookie)).status).toBe(401);
  });

  it("expire after the idle time and after the absolute lifetime", async () => {
    const school = await createSchool();
    const cookie = cookieFrom(await register(school.slug));
    const request = new Request("https://lectern.test/", { headers: { Cookie: cookie } });
    const now = Date.now();
    const { idleMs, absoluteMs } = SESSION_LIFETIME.teacher;
    expect(await getTeacherSession(db(), env, request, now + idleMs - 60_000)).not.toBeNull();
    // Being used keeps it alive past the idle time, but never past the absolute lifetime.
    expect(await getTeacherSession(db(), env, request, now + 2 * idleMs - 120_000)).not.toBeNull();
    expect(await getTeacherSession(db(), env, request, now + absoluteMs + 1)).toBeNull();

    const idle = cookieFrom(await register(school.slug));
    const idleRequest = new Request("https://lectern.test/", { headers: { Cookie: idle } });
    expect(await getTeacherSession(db(), env, idleRequest, Date.now() + idleMs + 1)).toBeNull();
    expect(await getTeacherSession(db(), env, idleRequest, Date.now())).toBeNull();
  });

  it("refuses state changes from another origin or without one", async () => {
    const school = await createSchool();
    const body = { email: freshEmail(), password: PASSWORD, slug: school.slug };
    for (const origin of ["https://evil.example", `https://${school.slug}.lectern.test`, "null", null]) {
      const response = await client({ origin }).api.teacher.login.$post({ json: body });
      expect(response.status, String(origin)).toBe(403);
    }
    const login = client({ origin: null }).api.teacher.login;
    const sameSite = await login.$post({ json: body }, { headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(sameSite.status).toBe(401);
    const crossSite = await login.$post({ json: body }, { headers: { "Sec-Fetch-Site": "same-site" } });
    expect(crossSite.status).toBe(403);
  });
});

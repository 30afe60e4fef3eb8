import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeDevice } from "../../workers/auth/device.ts";
import { sha256Hex } from "../../workers/auth/tokens.ts";
import { teacherWithPassword } from "./fixtures-teachers.ts";
import { api, client, cookieFrom, createSchool, devModeCode, errorOf, objectSessions, okBody, page } from "./helpers.ts";

// The teacher's account page and /api/teacher/account, /password, /sessions, /sign-out-everywhere
// (issue 16, docs/decisions/0017-teacher-account.md).

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

const UA = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxUbuntu: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  safariIpad:
    "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  samsungAndroid:
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
  headlessChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
};

let counter = 0;
/** A fresh client address per test: the login throttle counts per address. */
const freshIp = () => `10.16.${Math.floor(++counter / 250)}.${counter % 250}`;

/** A teacher with a real password, at a fresh school. */
async function teacherAt(school?: { id: number; slug: string }) {
  const at = school ?? (await createSchool());
  const email = `account-${++counter}-${crypto.randomUUID().slice(0, 6)}@school.test`;
  const teacher = await teacherWithPassword(at.id, email, PASSWORD, "Ada Lovelace");
  return { school: at, teacher, email };
}

/** Signs in through the real login API from a browser with `userAgent`; returns the cookie. */
async function signIn(slug: string, email: string, userAgent = UA.chromeWindows, password = PASSWORD, ip = freshIp()) {
  const response = await client({ ip }).api.teacher.login.$post(
    { json: { email, password, slug } },
    { headers: { "User-Agent": userAgent } },
  );
  expect(response.status).toBe(200);
  return cookieFrom(response);
}

/** A teacher signed in on a phone and then here (the default browser), and a colleague of the same school signed in once. */
async function signedInTwiceBesideAColleague(phoneAgent: string) {
  const { school, email } = await teacherAt();
  const { email: colleagueEmail } = await teacherAt(school);
  const phone = await signIn(school.slug, email, phoneAgent);
  const here = await signIn(school.slug, email);
  const colleague = await signIn(school.slug, colleagueEmail);
  return { school, phone, here, colleague };
}

const verify = (cookie: string) =>
  client({ cookie })
    .api.teacher["verify-token"].$get()
    .then((r) => r.status);
/** What the signed-in teacher's own account calls go through. */
const own = (cookie: string, ip?: string) => client({ cookie, ip }).api.teacher;

async function storedHash(teacherId: number) {
  return env.DB.prepare("SELECT password_hash FROM teachers WHERE id = ?").bind(teacherId).first<string>("password_hash");
}

async function listSessions(cookie: string) {
  const response = await client({ cookie }).api.teacher.sessions.$get();
  expect(response.status).toBe(200);
  return (await okBody(response)).sessions;
}

describe("describeDevice", () => {
  it.each([
    [UA.chromeWindows, "Chrome on Windows"],
    [UA.edgeWindows, "Edge on Windows"],
    [UA.firefoxLinux, "Firefox on Linux"],
    [UA.firefoxUbuntu, "Firefox on Linux"],
    [UA.safariIphone, "Safari on iPhone"],
    [UA.chromeIphone, "Chrome on iPhone"],
    [UA.safariIpad, "Safari on iPad"],
    [UA.safariMac, "Safari on macOS"],
    [UA.chromeAndroid, "Chrome on Android"],
    [UA.samsungAndroid, "Samsung Internet on Android"],
    [UA.chromeOs, "Chrome on ChromeOS"],
    [UA.firefoxAndroid, "Firefox on Android"],
    [UA.headlessChrome, "Chrome on Linux"],
  ])("%s -> %s", (userAgent, expected) => {
    expect(describeDevice(userAgent)).toBe(expected);
  });

  it("has nothing to say about no User-Agent or one that names no browser", () => {
    expect(describeDevice(null)).toBeNull();
    expect(describeDevice(undefined)).toBeNull();
    expect(describeDevice("   ")).toBeNull();
    expect(describeDevice("curl/8.5.0")).toBeNull();
    expect(describeDevice("x".repeat(100_000))).toBeNull();
  });
});

describe("the device is recorded at sign-in", () => {
  it("from the login's User-Agent, as a description (the raw header is not kept)", async () => {
    const { school, teacher, email } = await teacherAt();
    await signIn(school.slug, email, UA.safariIphone);
    const [row] = (await objectSessions(school.id)).filter((s) => s.teacher_id === teacher.id);
    expect(row?.device).toBe("Safari on iPhone");
  });

  it("from the registration's User-Agent", async () => {
    const school = await createSchool();
    const email = `register-${crypto.randomUUID().slice(0, 8)}@school.test`;
    const otp = await devModeCode(await client().api.teacher["send-otp"].$post({ json: { email, slug: school.slug } }));
    const response = await client().api.teacher.register.$post(
      { json: { name: "Ada Lovelace", mobile: "5551234567", email, password: PASSWORD, otp, slug: school.slug } },
      { headers: { "User-Agent": UA.chromeOs } },
    );
    expect(response.status).toBe(201);
    const sessions = await objectSessions(school.id);
    expect(sessions.map((s) => s.device)).toEqual(["Chrome on ChromeOS"]);
  });

  it("as nothing when the browser sends no User-Agent", async () => {
    const { school, teacher, email } = await teacherAt();
    const response = await client({ ip: freshIp() }).api.teacher.login.$post({ json: { email, password: PASSWORD, slug: school.slug } });
    expect(response.status).toBe(200);
    const sessions = (await objectSessions(school.id)).filter((s) => s.teacher_id === teacher.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.device).toBeNull();
  });
});

describe("GET and PUT /api/teacher/account", () => {
  it("shows the teacher's own details and saves name and mobile (trimmed)", async () => {
    const { school, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const read = await own(cookie).account.$get();
    expect(read.status).toBe(200);
    expect(read.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await read.json()).toEqual({ name: "Ada Lovelace", email, mobile: "5551234567" });

    const saved = await own(cookie).account.$put({ json: { name: "  Ada King  ", mobile: " 5559876543 " } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      name: "Ada King",
      email,
      mobile: "5559876543",
      message: "Your name and mobile number have been saved.",
    });
    const me = await okBody(client({ cookie }).api.teacher["verify-token"].$get());
    expect(me.teacherName).toBe("Ada King");
  });

  it("refuses what registration refuses, with a sentence, and changes nothing", async () => {
    const { school, teacher, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "", mobile: "5551234567" }, "Please enter your full name"],
      [{ name: "   ", mobile: "5551234567" }, "Please enter your full name"],
      [{ name: "x".repeat(101), mobile: "5551234567" }, "Name must be at most 100 characters"],
      [{ name: "Ada\u0000", mobile: "5551234567" }, "control characters"],
      [{ name: "Ada", mobile: "12345" }, "Mobile number must be exactly 10 digits"],
      [{ name: "Ada", mobile: "555-123-4567" }, "Mobile number must be exactly 10 digits"],
      [{ name: "Ada" }, "Please enter your mobile number"],
    ];
    for (const [body, message] of cases) {
      // Raw: the table holds bodies of the wrong shape too (a field missing), which the typed client would not send.
      const response = await api("/api/teacher/account", { method: "PUT", cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toContain(message);
    }
    const [row] = await env.DB.prepare("SELECT name, mobile FROM teachers WHERE id = ?").bind(teacher.id).raw();
    expect(row).toEqual(["Ada Lovelace", "5551234567"]);
  });
});

describe("POST /api/teacher/password", () => {
  it("refuses a wrong current password with a sentence, and changes nothing", async () => {
    const { school, teacher, email } = await teacherAt();
    const ip = freshIp();
    const here = await signIn(school.slug, email, UA.chromeWindows, PASSWORD, ip);
    const there = await signIn(school.slug, email, UA.safariIphone);
    const before = await storedHash(teacher.id);

    const response = await own(here, ip).password.$post({ json: { currentPassword: "not my password", newPassword: NEW_PASSWORD } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Your current password is not correct." });
    expect(await storedHash(teacher.id)).toBe(before);
    expect(await verify(here)).toBe(200);
    expect(await verify(there)).toBe(200);
  });

  it("counts wrong current passwords against the login throttle", async () => {
    const { school, email } = await teacherAt();
    const ip = freshIp();
    const cookie = await signIn(school.slug, email, UA.chromeWindows, PASSWORD, ip);
    for (let i = 0; i < 5; i++) {
      const wrong = await own(cookie, ip).password.$post({ json: { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD } });
      expect(wrong.status).toBe(400);
    }
    // The sixth try is blocked, even with the right password; so is the login from the same client.
    const blocked = await own(cookie, ip).password.$post({ json: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(await errorOf(blocked)).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
    const login = await client({ ip }).api.teacher.login.$post({ json: { email, password: PASSWORD, slug: school.slug } });
    expect(login.status).toBe(429);
  });

  it("changes it, ends every other session of the teacher and keeps this one", async () => {
    const { school, teacher, email } = await teacherAt();
    const { teacher: colleague, email: colleagueEmail } = await teacherAt(school);
    const here = await signIn(school.slug, email, UA.chromeWindows);
    const phone = await signIn(school.slug, email, UA.safariIphone);
    const laptop = await signIn(school.slug, email, UA.firefoxLinux);
    const theirs = await signIn(school.slug, colleagueEmail);

    const response = await own(here).password.$post({ json: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      message: "Your password has been changed, and you have been signed out on 2 other devices.",
      sessionsEnded: 2,
    });
    expect(await verify(here)).toBe(200);
    expect(await verify(phone)).toBe(401);
    expect(await verify(laptop)).toBe(401);
    // Another teacher's sessions are not touched.
    expect(await verify(theirs)).toBe(200);
    expect(await storedHash(colleague.id)).not.toBe(await storedHash(teacher.id));

    const old = await client({ ip: freshIp() }).api.teacher.login.$post({ json: { email, password: PASSWORD, slug: school.slug } });
    expect(old.status).toBe(401);
    await signIn(school.slug, email, UA.chromeWindows, NEW_PASSWORD);
  });

  it("applies the password rules to the new one, and wants it different", async () => {
    const { school, teacher, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const before = await storedHash(teacher.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ currentPassword: PASSWORD, newPassword: "short" }, "Password must be at least 8 characters"],
      [{ currentPassword: PASSWORD, newPassword: "password123" }, "This password is too common"],
      [{ currentPassword: "", newPassword: NEW_PASSWORD }, "Please enter your current password"],
      [{ newPassword: NEW_PASSWORD }, "Please enter your current password"],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD }, "Your new password must be different from your current password."],
    ];
    for (const [body, message] of cases) {
      // Raw: the table holds a body with a field missing, which the typed client would not send.
      const response = await api("/api/teacher/password", { cookie, body, ip: freshIp() });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toContain(message);
    }
    expect(await storedHash(teacher.id)).toBe(before);
  });
});

describe("sessions", () => {
  it("lists the teacher's live sessions with their device, this one first and marked, by opaque ids", async () => {
    const { school, teacher, email } = await teacherAt();
    const phone = await signIn(school.slug, email, UA.chromeAndroid);
    const here = await signIn(school.slug, email, UA.edgeWindows);
    const listed = await listSessions(here);
    expect(listed.map((s) => [s.device, s.current])).toEqual([
      ["Edge on Windows", true],
      ["Chrome on Android", false],
    ]);
    const hashes = (await env.DB.prepare("SELECT token_hash FROM sessions WHERE teacher_id = ?").bind(teacher.id).raw()).flat() as string[];
    const tokens = [here, phone].map((cookie) => cookie.split("=")[1]!);
    for (const session of listed) {
      expect(session.id).toMatch(/^[0-9a-f]{32}$/);
      for (const secret of [...hashes, ...tokens])
        expect(secret.includes(session.id) || session.id.includes(secret.slice(0, 16))).toBe(false);
      expect(session.signedInAt).toBeGreaterThan(Date.now() - 60_000);
    }
    // Another teacher's list never shows these.
    const { email: otherEmail } = await teacherAt(school);
    const theirs = await listSessions(await signIn(school.slug, otherEmail));
    expect(theirs).toHaveLength(1);
    expect(theirs.map((s) => s.id)).not.toContain(listed[1]!.id);
  });

  it("ends one of the teacher's own other sessions; the rest stay", async () => {
    const { school, email } = await teacherAt();
    const phone = await signIn(school.slug, email, UA.chromeAndroid);
    const tablet = await signIn(school.slug, email, UA.safariIpad);
    const here = await signIn(school.slug, email, UA.chromeWindows);
    const target = (await listSessions(here)).find((s) => s.device === "Chrome on Android")!;

    const ended = await own(here).sessions[":id"].$delete({ param: { id: target.id } });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ message: "The session on Chrome on Android has been ended.", current: false });
    expect(ended.headers.get("Set-Cookie")).toBeNull();
    expect(await verify(phone)).toBe(401);
    expect(await verify(tablet)).toBe(200);
    expect(await verify(here)).toBe(200);

    const again = await own(here).sessions[":id"].$delete({ param: { id: target.id } });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "This session has already ended." });
  });

  it("never ends another teacher's session: 404, and it stays signed in", async () => {
    const school = await createSchool();
    const mine = await teacherAt(school);
    const theirs = await teacherAt(school);
    const other = await teacherAt();
    const here = await signIn(school.slug, mine.email);
    const colleague = await signIn(school.slug, theirs.email);
    const elsewhere = await signIn(other.school.slug, other.email);
    for (const victim of [colleague, elsewhere]) {
      const [session] = await listSessions(victim);
      const response = await own(here).sessions[":id"].$delete({ param: { id: session!.id } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "This session has already ended." });
      expect(await verify(victim)).toBe(200);
    }
    // Nor by the token hash, a prefix of it, or anything else that is not an id from this teacher's list.
    const hash = (await objectSessions(school.id)).find((s) => s.teacher_id === theirs.teacher.id)?.token_hash;
    const token = colleague.split("=")[1]!;
    for (const id of [hash!, hash!.slice(0, 32), hash!.slice(0, 16), await sha256Hex(hash!), token, "1", "%00", "x".repeat(32)]) {
      const response = await own(here).sessions[":id"].$delete({ param: { id: encodeURIComponent(id) } });
      expect(response.status, id).toBe(404);
    }
    expect(await verify(colleague)).toBe(200);
  });

  it("ending this very session signs this browser out", async () => {
    const { school, email } = await teacherAt();
    const here = await signIn(school.slug, email);
    const [current] = await listSessions(here);
    const response = await own(here).sessions[":id"].$delete({ param: { id: current!.id } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "You have been signed out on this device.", current: true });
    expect(response.headers.get("Set-Cookie")).toMatch(/^__Host-lectern_teacher=; .*Max-Age=0/);
    expect(await verify(here)).toBe(401);
  });

  it("sign out everywhere ends every session of the teacher, this one too, and clears the cookie", async () => {
    const { phone, here, colleague } = await signedInTwiceBesideAColleague(UA.safariIphone);
    const response = await own(here)["sign-out-everywhere"].$post();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "You have been signed out everywhere.", sessionsEnded: 2 });
    expect(response.headers.get("Set-Cookie")).toMatch(/^__Host-lectern_teacher=; .*Max-Age=0/);
    expect(await verify(here)).toBe(401);
    expect(await verify(phone)).toBe(401);
    expect(await verify(colleague)).toBe(200);
  });
});

describe("the account API's guards", () => {
  const calls: { method: string; path: string; body?: unknown }[] = [
    { method: "GET", path: "/api/teacher/account" },
    { method: "PUT", path: "/api/teacher/account", body: { name: "Mallory", mobile: "5550000000" } },
    { method: "POST", path: "/api/teacher/password", body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } },
    { method: "GET", path: "/api/teacher/sessions" },
    { method: "DELETE", path: `/api/teacher/sessions/${"0".repeat(32)}` },
    { method: "POST", path: "/api/teacher/sign-out-everywhere" },
  ];

  // Raw: every route of the table, walked by its method and path.
  it.each(calls)("$method $path: 401 without a session", async ({ method, path, body }) => {
    const response = await api(path, { method, body });
    expect(response.status).toBe(401);
  });

  it("writes from another site are refused (403) and change nothing", async () => {
    const { school, teacher, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const before = await storedHash(teacher.id);
    for (const call of calls.filter((c) => c.method !== "GET")) {
      for (const origin of ["https://evil.example", `https://other-school.lectern.test`, null]) {
        // Raw: every write of the table, walked by its method and path.
        const response = await api(call.path, { method: call.method, body: call.body, cookie, origin });
        expect(response.status, `${call.method} ${call.path} from ${origin}`).toBe(403);
      }
    }
    expect(await verify(cookie)).toBe(200);
    expect(await storedHash(teacher.id)).toBe(before);
    const [row] = await env.DB.prepare("SELECT name FROM teachers WHERE id = ?").bind(teacher.id).raw();
    expect(row).toEqual(["Ada Lovelace"]);
  });

  it("on a school's host, a teacher of another school is not signed in there (404)", async () => {
    const { school, email } = await teacherAt();
    const other = await createSchool();
    const cookie = await signIn(school.slug, email);
    // Raw: the typed client calls our own origin, not a school's host.
    const response = await api(`https://${other.slug}.lectern.test/api/teacher/sessions`, { cookie });
    expect(response.status).toBe(404);
  });
});

describe("the account page (/schools/{slug}/account and /account on the school's host)", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  it("shows the details and the sessions, by path and on the subdomain; sends a visitor to the login", async () => {
    const { school, email } = await teacherAt();
    await signIn(school.slug, email, UA.chromeAndroid);
    const cookie = await signIn(school.slug, email, UA.firefoxLinux);
    for (const url of [`/schools/${school.slug}/account`, `https://${school.slug}.lectern.test/account`]) {
      const response = await page(url, { cookie });
      expect(response.status, url).toBe(200);
      const html = await response.text();
      for (const text of ["My account", "Ada Lovelace", "5551234567", email, "Firefox on Linux", "This device", "Chrome on Android"])
        expect(html, text).toContain(text);
      expect(html).toContain('aria-label="End the session on Chrome on Android"');
      expect(html).toContain('<span class="sr-only">Account menu for <!-- -->Ada Lovelace</span>');
      expect(html).toContain('href="#main-content"');
      expect(html).toContain('id="main-content"');
    }
    const visitor = await page(`/schools/${school.slug}/account`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(
      `/schools/${school.slug}?redirectTo=${encodeURIComponent(`/schools/${school.slug}/account`)}`,
    );
  });

  it("saves name and mobile through a form post (before hydration) and a fetcher's .data post", async () => {
    const { school, teacher, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const url = `/schools/${school.slug}/account`;
    const posted = await page(url, { method: "POST", cookie, body: form({ intent: "profile", name: "Ada King", mobile: "5559876543" }) });
    expect(posted.status).toBe(200);
    const html = await posted.text();
    expect(html).toContain("Your name and mobile number have been saved.");
    // The header greets the teacher by the new name in the same answer.
    expect(html).toMatch(/Welcome, (<!-- -->)?Ada King/);

    const refused = await page(`${url}.data`, { method: "POST", cookie, body: form({ intent: "profile", name: "Ada", mobile: "12" }) });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("Mobile number must be exactly 10 digits");
    expect(text).not.toContain("mobile:");
    const [row] = await env.DB.prepare("SELECT name, mobile FROM teachers WHERE id = ?").bind(teacher.id).raw();
    expect(row).toEqual(["Ada King", "5559876543"]);
  });

  it("changes the password: a mismatch and a wrong current password are refused; success ends the other sessions", async () => {
    const { school, teacher, email } = await teacherAt();
    const phone = await signIn(school.slug, email, UA.safariIphone);
    const cookie = await signIn(school.slug, email);
    const url = `https://${school.slug}.lectern.test/account.data`;
    const before = await storedHash(teacher.id);
    const change = (fields: Record<string, string>) =>
      page(url, { method: "POST", cookie, body: form({ intent: "password", ...fields }), headers: { "CF-Connecting-IP": freshIp() } });

    const mismatch = await change({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match");
    const wrong = await change({ currentPassword: "nope nope nope", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Your current password is not correct.");
    expect(await storedHash(teacher.id)).toBe(before);
    expect(await verify(phone)).toBe(200);

    const changed = await change({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("Your password has been changed, and you have been signed out on 1 other device.");
    expect(await verify(phone)).toBe(401);
    expect(await verify(cookie)).toBe(200);
  });

  it("ends a session by its id, never another teacher's", async () => {
    const { school, phone, here: cookie, colleague } = await signedInTwiceBesideAColleague(UA.chromeAndroid);
    const url = `/schools/${school.slug}/account.data`;
    const [theirs] = await listSessions(colleague);
    const refused = await page(url, { method: "POST", cookie, body: form({ intent: "end-session", sessionId: theirs!.id }) });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("This session has already ended.");
    expect(await verify(colleague)).toBe(200);

    const target = (await listSessions(cookie)).find((s) => !s.current)!;
    const ended = await page(url, { method: "POST", cookie, body: form({ intent: "end-session", sessionId: target.id }) });
    expect(ended.status).toBe(200);
    expect(await ended.text()).toContain("The session on Chrome on Android has been ended.");
    expect(await verify(phone)).toBe(401);
    expect(await verify(cookie)).toBe(200);
  });

  it("signs out everywhere and goes to the school's login page, with the cookie cleared", async () => {
    const { school, email } = await teacherAt();
    const phone = await signIn(school.slug, email, UA.safariIphone);
    const cookie = await signIn(school.slug, email);
    const response = await page(`/schools/${school.slug}/account`, {
      method: "POST",
      cookie,
      body: form({ intent: "sign-out-everywhere" }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/schools/${school.slug}`);
    expect(response.headers.get("Set-Cookie")).toMatch(/^__Host-lectern_teacher=; .*Max-Age=0/);
    expect(await verify(cookie)).toBe(401);
    expect(await verify(phone)).toBe(401);

    // On the school's host, through a fetcher-style .data post: the login page is its root.
    const again = await signIn(school.slug, email);
    const viaData = await page(`https://${school.slug}.lectern.test/account.data`, {
      method: "POST",
      cookie: again,
      body: form({ intent: "sign-out-everywhere" }),
    });
    expect(viaData.status).toBe(202);
    expect(await viaData.text()).toContain('"/"');
    expect(viaData.headers.get("Set-Cookie")).toMatch(/^__Host-lectern_teacher=; .*Max-Age=0/);
    expect(await verify(again)).toBe(401);
  });

  it("refuses a post from another site, and an unknown intent", async () => {
    const { school, teacher, email } = await teacherAt();
    const cookie = await signIn(school.slug, email);
    const before = await storedHash(teacher.id);
    // Both posts carry a valid password change: had either reached the password command, the
    // stored hash would differ afterwards.
    const change = { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    const crossSite = await page(`/schools/${school.slug}/account`, {
      method: "POST",
      cookie,
      headers: { Origin: "https://evil.example" },
      body: form({ intent: "sign-out-everywhere" }),
    });
    expect(crossSite.status).toBe(403);
    expect(await verify(cookie)).toBe(200);
    const crossSitePassword = await page(`/schools/${school.slug}/account`, {
      method: "POST",
      cookie,
      headers: { Origin: "https://evil.example" },
      body: form({ intent: "password", ...change }),
    });
    expect(crossSitePassword.status).toBe(403);
    const unknown = await page(`/schools/${school.slug}/account.data`, {
      method: "POST",
      cookie,
      body: form({ intent: "drop-tables", ...change }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Please choose what to do on this page.");
    expect(await storedHash(teacher.id)).toBe(before);
  });
});

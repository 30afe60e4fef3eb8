import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getAdminSession, SESSION_LIFETIME } from "../../workers/auth/sessions.ts";
import { client, cookieFrom, createSchool, db, signedInAdmin, signedInTeacher } from "./helpers.ts";

const login = (email: string, password: string, role?: "admin" | "superadmin", ip?: string) =>
  client({ ip }).api.admin.login.$post({ json: { email, password, role } });
/** GET /api/admin/me: whether `cookie` opens the console. */
const me = (cookie: string) => client({ cookie }).api.admin.me.$get();

describe("admin sign-in", () => {
  it("signs in, answers /me, and signs out on the server", async () => {
    const { admin, password } = await signedInAdmin();
    const response = await login(admin.email.toUpperCase(), password);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ admin: { id: admin.id, email: admin.email, role: "admin" } });
    expect(response.headers.get("Set-Cookie")).toMatch(
      /^__Host-lectern_admin=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=9000; Secure$/,
    );
    const cookie = cookieFrom(response);
    expect((await me(cookie)).status).toBe(200);
    expect((await client({ cookie }).api.admin.logout.$post()).status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM login_events WHERE admin_id = ?").bind(admin.id).first("n");
    expect(events).toBe(1);
  });

  it("answers unknown e-mail and wrong password the same way", async () => {
    const { admin } = await signedInAdmin();
    const a = await login(admin.email, "wrong password");
    const b = await login("nobody@lectern.test", "wrong password");
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(await a.text()).toBe(await b.text());
  });

  it("says the tries left in the sentence only (no triesLeft field, as the teachers' answer has), and its pause sends no Retry-After", async () => {
    const ip = "203.0.113.19";
    const email = `tries-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    const bodies: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await login(email, "wrong password", undefined, ip);
      expect(response.status).toBe(401);
      bodies.push(await response.json());
    }
    expect(bodies).toEqual([
      { error: "Invalid email or password" },
      { error: "Invalid email or password" },
      { error: "Invalid email or password. 2 tries left before sign-in from this device is paused for 15 minutes." },
      { error: "Invalid email or password. 1 try left before sign-in from this device is paused for 15 minutes." },
      { error: "Invalid email or password. Sign-in from this device is now paused for 15 minutes." },
    ]);
    const paused = await login(email, "wrong password", undefined, ip);
    expect(paused.status).toBe(429);
    expect(paused.headers.get("Retry-After")).toBeNull();
    expect(Object.keys((await paused.json()) as object)).toEqual(["error"]);
  });

  it("refuses a disabled account and a plain admin at the superadmin door", async () => {
    const { admin, password } = await signedInAdmin();
    expect((await login(admin.email, password, "superadmin")).status).toBe(403);
    const superadmin = await signedInAdmin("superadmin");
    expect((await login(superadmin.admin.email, superadmin.password, "superadmin")).status).toBe(200);
    await env.DB.prepare("UPDATE admins SET disabled = 1 WHERE id = ?").bind(admin.id).run();
    expect((await login(admin.email, password)).status).toBe(403);
  });

  it("a disabled admin's existing session stops working", async () => {
    const { admin, cookie } = await signedInAdmin();
    expect((await me(cookie)).status).toBe(200);
    await env.DB.prepare("UPDATE admins SET disabled = 1 WHERE id = ?").bind(admin.id).run();
    expect((await me(cookie)).status).toBe(401);
  });

  it("a teacher session is no admin session", async () => {
    const { cookie } = await signedInTeacher(await createSchool());
    expect((await me(cookie.replace("teacher", "admin"))).status).toBe(401);
    expect((await me(cookie)).status).toBe(401);
  });

  it("ends 2.5 hours after sign-in, whatever the activity", async () => {
    const { cookie } = await signedInAdmin();
    const request = new Request("https://lectern.test/", { headers: { Cookie: cookie } });
    const now = Date.now();
    for (let t = now + 50 * 60_000; t < now + SESSION_LIFETIME.admin.absoluteMs; t += 50 * 60_000) {
      expect(await getAdminSession(db(), request, t)).not.toBeNull();
    }
    expect(await getAdminSession(db(), request, now + 9_000_000 + 1)).toBeNull();
  });
});

describe("sign-ins in the audit log", () => {
  const entriesOf = (email: string) =>
    env.DB.prepare(
      "SELECT admin_id AS adminId, admin_email AS adminEmail, action, entity_id AS entityId, before, after FROM audit_log WHERE admin_email = ? ORDER BY id",
    )
      .bind(email)
      .all<{ adminId: number | null; adminEmail: string; action: string; entityId: string | null; before: string | null; after: string }>()
      .then((result) => result.results);

  it("records a success and each refusal that reached the password check, with the e-mail tried and never the password", async () => {
    const { admin, password } = await signedInAdmin();
    const unknown = `nobody-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    expect((await login(admin.email, password)).status).toBe(200);
    expect((await login(admin.email, "the wrong password", "admin")).status).toBe(401);
    expect((await login(admin.email, password, "superadmin")).status).toBe(403);
    expect((await login(unknown, "a guessed password")).status).toBe(401);
    await env.DB.prepare("UPDATE admins SET disabled = 1 WHERE id = ?").bind(admin.id).run();
    expect((await login(admin.email, password)).status).toBe(403);

    const rows = await entriesOf(admin.email);
    expect(rows.map((row) => [row.action, JSON.parse(row.after)])).toEqual([
      ["sign in", { door: "admin" }],
      ["sign-in failed", { door: "admin", reason: "wrong password" }],
      ["sign-in failed", { door: "superadmin", reason: "not a superadmin" }],
      ["sign-in failed", { door: "admin", reason: "account disabled" }],
    ]);
    expect(rows.every((row) => row.adminId === admin.id && row.entityId === String(admin.id) && row.before === null)).toBe(true);
    expect(await entriesOf(unknown)).toEqual([
      {
        adminId: null,
        adminEmail: unknown,
        action: "sign-in failed",
        entityId: null,
        before: null,
        after: '{"door":"admin","reason":"unknown account"}',
      },
    ]);
    const all = JSON.stringify(await env.DB.prepare("SELECT * FROM audit_log").all());
    expect(all).not.toContain(password);
    expect(all).not.toContain("the wrong password");
    expect(all).not.toContain("a guessed password");
  });

  it("records a superadmin's sign-in at the superadmin door; attempts the throttle refuses are not recorded", async () => {
    const superadmin = await signedInAdmin("superadmin");
    expect((await login(superadmin.admin.email, superadmin.password, "superadmin")).status).toBe(200);
    expect((await entriesOf(superadmin.admin.email)).map((row) => [row.action, JSON.parse(row.after)])).toEqual([
      ["sign in", { door: "superadmin" }],
    ]);

    const target = `throttled-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    const ip = "203.0.113.9";
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await login(target, `guess ${i}`, undefined, ip)).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(await entriesOf(target)).toHaveLength(statuses.filter((status) => status === 401).length);
  });
});

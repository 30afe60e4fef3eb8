import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getAdminSession, SESSION_LIFETIME } from "../../workers/auth/sessions.ts";
import { api, cookieFrom, createSchool, db, signedInAdmin, signedInTeacher } from "./helpers.ts";

const login = (email: string, password: string, role?: string) => api("/api/admin/login", { body: { email, password, role } });

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
    expect((await api("/api/admin/me", { cookie })).status).toBe(200);
    expect((await api("/api/admin/logout", { method: "POST", cookie })).status).toBe(200);
    expect((await api("/api/admin/me", { cookie })).status).toBe(401);
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
    expect((await api("/api/admin/me", { cookie })).status).toBe(200);
    await env.DB.prepare("UPDATE admins SET disabled = 1 WHERE id = ?").bind(admin.id).run();
    expect((await api("/api/admin/me", { cookie })).status).toBe(401);
  });

  it("a teacher session is no admin session", async () => {
    const { cookie } = await signedInTeacher(await createSchool());
    expect((await api("/api/admin/me", { cookie: cookie.replace("teacher", "admin") })).status).toBe(401);
    expect((await api("/api/admin/me", { cookie })).status).toBe(401);
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

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createSchool, signedInAdmin, signedInTeacher } from "./helpers.ts";

describe("superadmin API", () => {
  it("refuses plain admins, teachers and strangers", async () => {
    const admin = await signedInAdmin("admin");
    const teacher = await signedInTeacher(await createSchool());
    for (const path of ["/api/superadmin/admins", "/api/superadmin/audit", "/api/superadmin/stats"]) {
      expect((await api(path)).status, path).toBe(401);
      expect((await api(path, { cookie: teacher.cookie })).status, path).toBe(401);
      expect((await api(path, { cookie: admin.cookie })).status, path).toBe(403);
    }
  });

  it("creates an admin who can sign in, and records it in the audit log", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const email = `new-${crypto.randomUUID().slice(0, 6)}@lectern.test`;
    const created = await api("/api/superadmin/admins", { cookie, body: { email, name: "New Admin", password: "a long new passphrase" } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ admin: { email, role: "admin", disabled: false } });
    expect(JSON.stringify(await (await api("/api/superadmin/admins", { cookie })).json())).not.toContain("passwordHash");
    expect((await api("/api/admin/login", { body: { email, password: "a long new passphrase" } })).status).toBe(200);
    expect(
      (await api("/api/superadmin/admins", { cookie, body: { email, name: "Again", password: "a long new passphrase" } })).status,
    ).toBe(409);

    const audit = (await (await api("/api/superadmin/audit", { cookie })).json()) as {
      entries: { adminEmail: string; action: string; entityType: string }[];
    };
    expect(audit.entries[0]).toMatchObject({ adminEmail: superadmin.email, action: "create", entityType: "admin" });
  });

  it("disables (ending sessions), re-enables and resets passwords; never disables itself", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    expect((await api("/api/admin/me", { cookie: target.cookie })).status).toBe(200);
    expect((await api(`/api/superadmin/admins/${target.admin.id}`, { cookie, method: "PUT", body: { disabled: true } })).status).toBe(200);
    expect((await api("/api/admin/me", { cookie: target.cookie })).status).toBe(401);
    expect((await api("/api/admin/login", { body: { email: target.admin.email, password: target.password } })).status).toBe(403);
    expect((await api(`/api/superadmin/admins/${target.admin.id}`, { cookie, method: "PUT", body: { disabled: false } })).status).toBe(200);
    expect(
      (await api(`/api/superadmin/admins/${target.admin.id}`, { cookie, method: "PUT", body: { password: "brand new passphrase" } }))
        .status,
    ).toBe(200);
    expect((await api("/api/admin/login", { body: { email: target.admin.email, password: "brand new passphrase" } })).status).toBe(200);
    const self = await api(`/api/superadmin/admins/${superadmin.id}`, { cookie, method: "PUT", body: { disabled: true } });
    expect(self.status).toBe(400);
    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE entity_type = 'admin' AND entity_id = ? ORDER BY id")
      .bind(String(target.admin.id))
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(["disable", "enable", "reset-password"]);
  });

  it("validates input", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const response = await api("/api/superadmin/admins", { cookie, body: { email: "bad", name: "X", password: "short" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "email: Please enter a valid email address" });
  });

  it("answers the global figures", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const stats = (await (await api("/api/superadmin/stats", { cookie })).json()) as Record<string, number>;
    expect(Object.keys(stats).sort()).toEqual(["books", "loginsThisWeek", "schools", "teachers"]);
    expect(stats.schools).toBeGreaterThanOrEqual(1);
  });
});

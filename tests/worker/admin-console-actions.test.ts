// The admin console's actions (issue #15 item 6, "the admin console finished"): assign-to-all's
// count, a school's assigned books (listed, unassigned from its page), the reset-password dialog's
// post, and deleting admin accounts (API and dashboard). Audit-log names, filters and CSV are in superadmin.test.ts, sign-ins in
// admin-auth.test.ts, import row numbers in school-import.test.ts.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteAdmin } from "../../workers/admins/superadmin.ts";
import { admins, auditLog, bookAccess } from "../../workers/db/schema.ts";
import { api, client, createBook, createSchool, db, hasAccess, okBody, page, signedInAdmin } from "./helpers.ts";

/** GET /api/admin/me with `cookie`, typed: whether the session still opens the console. */
const me = (cookie: string) => client({ cookie }).api.admin.me.$get();
/** DELETE /api/superadmin/admins/:id, typed. */
const deleteAdminCall = (id: number | string, cookie: string | null, origin?: string) =>
  client({ cookie, origin }).api.superadmin.admins[":id"].$delete({ param: { id: String(id) } });

const tag = () => crypto.randomUUID().slice(0, 8);
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const schoolTotal = async () => Number(await env.DB.prepare("SELECT count(*) AS n FROM schools").first("n"));
const audits = (action: string, entityId: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));

describe("assign to all schools: the count the confirmation names", () => {
  it("the book page and the Assign Book page load how many schools there are", async () => {
    const { cookie } = await signedInAdmin();
    for (let i = 0; i < 3; i++) await createSchool();
    const book = await createBook({ title: `Algebra ${tag()}` });
    const total = await schoolTotal();
    for (const url of [`/admin/book/${book.id}.data`, "/admin/assign-book.data"]) {
      const response = await page(url, { cookie });
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toContain(`"schoolCount",${total}`);
    }
    // The page paints the button; the dialog opens from it (no school is assigned until Assign).
    const html = await (await page(`/admin/book/${book.id}`, { cookie })).text();
    expect(html).toContain("Assign to all schools");
    expect(await db().select().from(bookAccess).where(eq(bookAccess.bookId, book.id))).toHaveLength(0);
  });
});

describe("Assign Books for a school: what it has, and unassigning", () => {
  it("lists the school's books, marked Assigned, and not another school's", async () => {
    const { cookie } = await signedInAdmin();
    const [school, other] = [await createSchool(), await createSchool()];
    const mine = await createBook({ title: `Owned ${tag()}` }, [school.id]);
    const theirs = await createBook({ title: `Theirs ${tag()}` }, [other.id]);
    const html = await (await page(`/admin/assign-books/${school.id}`, { cookie })).text();
    expect(html).toContain("Assigned books (1)");
    expect(html).toContain(mine.title);
    expect(html).toContain(`Unassign ${mine.title}`);
    expect(html).not.toContain(theirs.title);
  });

  it("unassigns through the page's action as the API does: same core, same audit entry; a second time is a 404", async () => {
    const { cookie, admin } = await signedInAdmin();
    const school = await createSchool();
    const [a, b] = [
      await createBook({ title: `Drop A ${tag()}` }, [school.id]),
      await createBook({ title: `Drop B ${tag()}` }, [school.id]),
    ];
    const url = `/admin/assign-books/${school.id}`;
    const removed = await page(`${url}.data`, { cookie, method: "POST", body: form({ intent: "unassign", bookId: String(a.id) }) });
    expect(removed.status).toBe(200);
    expect(await hasAccess(school.id, a.id)).toBe(false);
    expect(await hasAccess(school.id, b.id)).toBe(true);
    const again = await page(url, { cookie, method: "POST", body: form({ intent: "unassign", bookId: String(a.id) }) });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("That school does not have that book");
    const malformed = await page(url, { cookie, method: "POST", body: form({ intent: "unassign", bookId: "01" }) });
    expect(malformed.status).toBe(400);

    // The API's DELETE writes the same entry.
    const revoked = await client({ cookie }).api.books.access[":schoolId"][":bookId"].$delete({
      param: { schoolId: String(school.id), bookId: String(b.id) },
    });
    expect(revoked.status).toBe(200);
    const [viaPage] = await audits("book_access.revoke", `${school.id}:${a.id}`);
    const [viaApi] = await audits("book_access.revoke", `${school.id}:${b.id}`);
    expect(await audits("book_access.revoke", `${school.id}:${a.id}`)).toHaveLength(1);
    expect(viaPage).toMatchObject({ adminId: admin.id, entityType: "book_access", before: { schoolId: school.id, bookId: a.id } });
    expect(viaApi).toMatchObject({ adminId: admin.id, entityType: "book_access", before: { schoolId: school.id, bookId: b.id } });
  });

  it("refuses an unassign from another site", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: `Kept ${tag()}` }, [school.id]);
    const forged = await page(`/admin/assign-books/${school.id}`, {
      cookie,
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: form({ intent: "unassign", bookId: String(book.id) }),
    });
    expect(forged.status).toBe(403);
    expect(await hasAccess(school.id, book.id)).toBe(true);
  });
});

describe("Import Schools' action numbers rows as its preview does", () => {
  it("takes the file's row numbers with the rows, and names both rows of a duplicate by them", async () => {
    const { cookie } = await signedInAdmin();
    const slug = `dup-${tag()}`;
    const school = { address1: "1 St", city: "Salem", state: "OR", zipCode: "97301", email: "a@b.example", teacherLimit: "5" };
    const rows = [
      { ...school, schoolName: `First ${tag()}`, slug },
      { ...school, schoolName: `Second ${tag()}`, slug },
    ];
    const response = await page("/admin/preview-add-schools.data", {
      cookie,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "validate", rows, rowNumbers: [6, 7] }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("Row 6 has the same slug as row 7");
    expect(text).toContain("Row 7 has the same slug as row 6");
  });
});

describe("the reset-password dialog's post", () => {
  it("wants the password twice, in the server's rules, and ends the admin's sessions", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    const reset = (password: string, confirm: string) =>
      page("/superadmin/dashboard.data", {
        cookie,
        method: "POST",
        body: form({ intent: "update", id: String(target.admin.id), password, confirm }),
      });

    const mismatch = await reset("a long enough passphrase", "a long enough passphrase!");
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("The two passwords do not match");
    const weak = await reset("short", "short");
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("Password must be at least 8 characters");
    const common = await reset("password123", "password123");
    expect(await common.text()).toContain("This password is too common");
    expect(await audits("reset-password", String(target.admin.id))).toHaveLength(0);
    expect((await me(target.cookie)).status).toBe(200);

    const done = await reset("a long enough passphrase", "a long enough passphrase");
    expect(done.status).toBe(200);
    expect(await audits("reset-password", String(target.admin.id))).toHaveLength(1);
    expect((await me(target.cookie)).status).toBe(401);
    const login = await client().api.admin.login.$post({ json: { email: target.admin.email, password: "a long enough passphrase" } });
    expect(login.status).toBe(200);
  });
});

describe("DELETE /api/superadmin/admins/:id", () => {
  it("deletes the account, ends its sessions, audits once; a repeat is a 404 with no second entry", async () => {
    const { cookie, admin: superadmin } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    const deleted = await deleteAdminCall(target.admin.id, cookie);
    expect(deleted.status).toBe(200);
    expect(await okBody(deleted)).toMatchObject({ deleted: { id: target.admin.id, email: target.admin.email } });
    expect(await db().select().from(admins).where(eq(admins.id, target.admin.id))).toHaveLength(0);
    expect((await me(target.cookie)).status).toBe(401);
    const remaining = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE admin_id = ?").bind(target.admin.id).first("n");
    expect(remaining).toBe(0);
    const [entry] = await audits("delete", String(target.admin.id));
    expect(entry).toMatchObject({ adminId: superadmin.id, entityType: "admin", before: { email: target.admin.email, role: "admin" } });
    expect(JSON.stringify(entry)).not.toContain("passwordHash");

    const repeat = await deleteAdminCall(target.admin.id, cookie);
    expect(repeat.status).toBe(404);
    expect(await repeat.json()).toEqual({ error: "Admin not found" });
    expect(await audits("delete", String(target.admin.id))).toHaveLength(1);
  });

  it("reads the id strictly, refuses its own account (409), plain admins and strangers", async () => {
    const { cookie, admin: self } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    // Malformed ids, encoded into the path as they stand: raw.
    for (const id of ["05", "1.0", "-1", "abc", "1e3", " 7"]) {
      const response = await api(`/api/superadmin/admins/${encodeURIComponent(id)}`, { method: "DELETE", cookie });
      expect(response.status, id).toBe(400);
    }
    expect((await deleteAdminCall(987654321, cookie)).status).toBe(404);
    const own = await deleteAdminCall(self.id, cookie);
    expect(own.status).toBe(409);
    expect(await own.json()).toEqual({ error: "You cannot delete your own account." });
    expect((await deleteAdminCall(target.admin.id, target.cookie)).status).toBe(403);
    expect((await deleteAdminCall(target.admin.id, null)).status).toBe(401);
    expect((await deleteAdminCall(target.admin.id, cookie, "https://evil.example")).status).toBe(403);
    expect(await db().select().from(admins).where(eq(admins.id, target.admin.id))).toHaveLength(1);
    expect(await audits("delete", String(self.id))).toHaveLength(0);
  });

  it("deletes from the dashboard's action, and refuses a post from another site", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    const body = form({ intent: "delete", id: String(target.admin.id) });
    const forged = await page("/superadmin/dashboard", { cookie, method: "POST", headers: { Origin: "https://evil.example" }, body });
    expect(forged.status).toBe(403);
    const done = await page("/superadmin/dashboard", { cookie, method: "POST", body });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`The account of ${target.admin.email} was deleted.`);
    const again = await page("/superadmin/dashboard.data", { cookie, method: "POST", body });
    expect(again.status).toBe(404);
    expect(await audits("delete", String(target.admin.id))).toHaveLength(1);
  });

  it("never deletes the last active superadmin, even when two delete each other at once", async () => {
    const [a, b] = [await signedInAdmin("superadmin"), await signedInAdmin("superadmin")];
    const plain = await signedInAdmin("admin");
    // Only a and b are active superadmins in this file's database from here on.
    await env.DB.prepare("UPDATE admins SET disabled = 1 WHERE role = 'superadmin' AND id NOT IN (?, ?)")
      .bind(a.admin.id, b.admin.id)
      .run();
    const results = await Promise.all([
      deleteAdmin(db(), { id: a.admin.id, email: a.admin.email }, b.admin.id),
      deleteAdmin(db(), { id: b.admin.id, email: b.admin.email }, a.admin.id),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const survivor = results[0]?.ok ? a : b;
    // The one left cannot be deleted by anyone (here by an actor the guard does not know as a superadmin).
    const last = await deleteAdmin(db(), { id: plain.admin.id, email: plain.admin.email }, survivor.admin.id);
    expect(last).toEqual({
      ok: false,
      failure: {
        kind: "conflict",
        error: `${survivor.admin.email} is the last active superadmin and cannot be deleted. Make another account a superadmin first.`,
      },
    });
    expect(await db().select().from(admins).where(eq(admins.id, survivor.admin.id))).toHaveLength(1);
    expect(await audits("delete", String(survivor.admin.id))).toHaveLength(0);
  });
});

// The admin book pages and the superadmin dashboard through the real pipeline and React Router
// build: their loaders paint the data into the first HTML, their actions write D1 (with the audit
// entry) from plain form posts and from `.data` posts (how fetchers send them), and refuse what the
// API refuses, in the API's words.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { and, desc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { admins, auditLog, books } from "../../workers/db/schema.ts";
import { handleApp } from "./entry.ts";
import { createBook, createSchool, db, hasAccess, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

const location = (response: Response) => response.headers.get("Location");
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const unique = () => crypto.randomUUID().slice(0, 8);

/**
 * The statuses of a form post another site made the admin's browser send: with that site's
 * Origin, and without an Origin but with Sec-Fetch-Site: cross-site. The pipeline refuses both
 * (403) before any action reads the form.
 */
async function forged(url: string, cookie: string, fields: Record<string, string>): Promise<number[]> {
  const withOrigin = await page(url, { cookie, method: "POST", headers: { Origin: "https://evil.example" }, body: form(fields) });
  const ctx = createExecutionContext();
  const headers = { Cookie: cookie, "Sec-Fetch-Site": "cross-site" };
  const request = new Request(`https://lectern.test${url}`, { method: "POST", headers, body: form(fields), redirect: "manual" });
  const withoutOrigin = await handleApp(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return [withOrigin.status, withoutOrigin.status];
}
const REFUSED = [403, 403];

/** The audit rows `adminId` wrote with `action`, newest first. */
const auditOf = (adminId: number, action: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.adminId, adminId), eq(auditLog.action, action)))
    .orderBy(desc(auditLog.id));

describe("who may open the pages", () => {
  it("sends visitors and teachers to the admin login from every book page, and their posts too", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const book = await createBook({ title: `Guarded ${unique()}` });
    for (const path of ["/admin/books", `/admin/book/${book.id}`, "/admin/add-books", "/admin/assign-book"]) {
      for (const cookie of [undefined, teacher.cookie]) {
        const response = await page(path, { cookie });
        expect(response.status, path).toBe(302);
        expect(location(response), path).toBe(`/admin/login?redirectTo=${encodeURIComponent(path)}`);
      }
    }
    const post = await page(`/admin/book/${book.id}`, { cookie: teacher.cookie, method: "POST", body: form({ intent: "delete" }) });
    expect(post.status).toBe(302);
    expect(location(post)).toBe(`/admin/login?redirectTo=${encodeURIComponent(`/admin/book/${book.id}`)}`);
    expect(await db().select().from(books).where(eq(books.id, book.id))).toHaveLength(1);
  });

  it("keeps the superadmin dashboard and its actions from plain admins, teachers and visitors", async () => {
    const teacher = await signedInTeacher(await createSchool());
    for (const cookie of [undefined, teacher.cookie]) {
      const response = await page("/superadmin/dashboard", { cookie });
      expect(response.status).toBe(302);
      expect(location(response)).toBe(`/superadmin/login?redirectTo=${encodeURIComponent("/superadmin/dashboard")}`);
    }
    const { cookie, admin } = await signedInAdmin("admin");
    const dashboard = await page("/superadmin/dashboard", { cookie });
    expect(dashboard.status).toBe(302);
    expect(location(dashboard)).toBe("/superadmin/login");

    const email = `sneaky-${unique()}@lectern.test`;
    const create = { intent: "create", name: "Sneaky", email, password: "a long sneaky passphrase", role: "superadmin" };
    // Its forms send a plain admin to the superadmin login too, and change nothing.
    const posted = await page("/superadmin/dashboard", { cookie, method: "POST", body: form(create) });
    expect(posted.status).toBe(302);
    expect(location(posted)).toBe("/superadmin/login");
    const viaData = await page("/superadmin/dashboard.data", { cookie, method: "POST", body: form(create) });
    expect([202, 204, 302]).toContain(viaData.status);
    const update = await page("/superadmin/dashboard.data", {
      cookie,
      method: "POST",
      body: form({ intent: "update", id: String(admin.id), password: "my own new passphrase" }),
    });
    expect([202, 204, 302]).toContain(update.status);
    expect(await db().select().from(admins).where(eq(admins.email, email))).toHaveLength(0);
    expect(await auditOf(admin.id, "reset-password")).toHaveLength(0);
  });
});

describe("the Books page", () => {
  it("paints the catalogue's search results, sorts and pages into the first HTML", async () => {
    const { cookie } = await signedInAdmin();
    const tag = unique();
    const school = await createSchool();
    await createBook({ title: `Loader Botany ${tag}`, isbn: "9780306406157" }, [school.id]);
    const html = await (await page(`/admin/books?query=${tag}`, { cookie })).text();
    expect(html).toContain(`Loader Botany ${tag}`);
    expect(html).toContain("9780306406157");
    expect(html).toContain(`value="${tag}"`);
    const newest = await createBook({ title: `Newest Shelf ${tag}` });
    expect(await (await page("/admin/books?sort=createdAt", { cookie })).text()).toContain(newest.title);
    // A search that finds nothing says so, and a URL the page did not make still shows a page.
    expect(await (await page(`/admin/books?query=nothing${tag}zzz`, { cookie })).text()).toContain("Nothing here yet.");
    expect((await page("/admin/books?page=-4&sort=sideways", { cookie })).status).toBe(200);
    const data = await page(`/admin/books.data?query=${tag}`, { cookie });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain(`Loader Botany ${tag}`);
  });
});

describe("a book's page", () => {
  it("paints the book, its schools and the state of its pages into the first HTML", async () => {
    const { cookie } = await signedInAdmin();
    const school = await createSchool({ name: `Assigned Academy ${unique()}` });
    const book = await createBook({ title: `Server Painted ${unique()}`, author2: "Second Writer" }, [school.id]);
    for (const path of [`/admin/book/${book.id}`, `/admin/books/${book.id}`]) {
      const response = await page(path, { cookie });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(book.title);
      expect(html).toContain("Second Writer");
      expect(html).toContain(school.name);
      expect(html).toContain("Assigned to <!-- -->1<!-- --> school(s)");
      expect(html).toContain("Pages for teachers");
    }
    const missing = await page("/admin/book/987654321", { cookie });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Book not found");
  });

  it("saves the details from a form post, with the audit entry, and refuses invalid ones in the API's words", async () => {
    const { cookie, admin } = await signedInAdmin();
    const book = await createBook({ title: `Before Edit ${unique()}` });
    const fields = { intent: "update", title: "  After Edit  ", author1: "New Author", author2: "", isbn: "", subject: "Maths" };
    const saved = await page(`/admin/book/${book.id}`, {
      cookie,
      method: "POST",
      body: form({ ...fields, gradeLevel: "4", description: "" }),
    });
    expect(saved.status).toBe(200);
    const html = await saved.text();
    expect(html).toContain("Saved.");
    expect(html).toContain("After Edit");
    const [row] = await db().select().from(books).where(eq(books.id, book.id));
    expect(row).toMatchObject({ title: "After Edit", author1: "New Author", author2: null, subject: "Maths", gradeLevel: 4 });
    const [entry] = await auditOf(admin.id, "book.update");
    expect(entry).toMatchObject({ adminEmail: admin.email, entityType: "book", entityId: String(book.id) });

    const blank = await page(`/admin/book/${book.id}`, { cookie, method: "POST", body: form({ ...fields, title: " " }) });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Enter a title");
    const badIsbn = await page(`/admin/book/${book.id}.data`, { cookie, method: "POST", body: form({ ...fields, isbn: "12345" }) });
    expect(badIsbn.status).toBe(400);
    expect(await badIsbn.text()).toContain("Enter a 10- or 13-digit ISBN");
    const [after] = await db().select().from(books).where(eq(books.id, book.id));
    expect(after!.title).toBe("After Edit");
  });

  it("assigns (through a fetcher's .data post), assigns to all, unassigns, with audit entries", async () => {
    const { cookie, admin } = await signedInAdmin();
    const [first, second] = [await createSchool(), await createSchool()];
    const book = await createBook({ title: `Assignments ${unique()}` });
    const url = `/admin/book/${book.id}`;

    const assigned = await page(`${url}.data`, { cookie, method: "POST", body: form({ intent: "assign", schoolIds: `${first.id}` }) });
    expect(assigned.status).toBe(200);
    expect(await hasAccess(first.id, book.id)).toBe(true);
    expect((await auditOf(admin.id, "book_access.grant"))[0]?.after).toMatchObject({ schoolIds: [first.id], bookIds: [book.id] });
    const unknown = await page(`${url}.data`, { cookie, method: "POST", body: form({ intent: "assign", schoolIds: "987654321" }) });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("No school with id 987654321");
    const none = await page(`${url}.data`, { cookie, method: "POST", body: form({ intent: "assign", schoolIds: "" }) });
    expect(await none.text()).toContain("Choose at least one school");

    const all = await page(url, { cookie, method: "POST", body: form({ intent: "assign-all" }) });
    expect(all.status).toBe(200);
    expect(await all.text()).toMatch(/Assigned to \d+ more school\(s\)\./);
    expect(await hasAccess(second.id, book.id)).toBe(true);
    expect(await auditOf(admin.id, "book.assign_all")).toHaveLength(1);

    const removed = await page(url, { cookie, method: "POST", body: form({ intent: "unassign", schoolId: String(first.id) }) });
    expect(removed.status).toBe(200);
    expect(await hasAccess(first.id, book.id)).toBe(false);
    const [revoke] = await auditOf(admin.id, "book_access.revoke");
    expect(revoke?.entityId).toBe(`${first.id}:${book.id}`);
    const again = await page(url, { cookie, method: "POST", body: form({ intent: "unassign", schoolId: String(first.id) }) });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("That school does not have that book");
  });

  it("deletes the book and goes to the list; refuses cross-origin posts", async () => {
    const { cookie, admin } = await signedInAdmin();
    const book = await createBook({ title: `Doomed ${unique()}` });
    const url = `/admin/book/${book.id}`;
    for (const intent of ["delete", "update", "assign-all"]) {
      expect(await forged(url, cookie, { intent, title: "Forged", author1: "X" }), intent).toEqual(REFUSED);
    }
    expect(await forged(`${url}.data`, cookie, { intent: "delete" })).toEqual(REFUSED);
    expect((await db().select().from(books).where(eq(books.id, book.id)))[0]?.title).toBe(book.title);

    const deleted = await page(url, { cookie, method: "POST", body: form({ intent: "delete" }) });
    expect(deleted.status).toBe(302);
    expect(location(deleted)).toBe("/admin/books");
    expect(await db().select().from(books).where(eq(books.id, book.id))).toHaveLength(0);
    expect((await auditOf(admin.id, "book.delete"))[0]?.entityId).toBe(String(book.id));
    const gone = await page(url, { cookie, method: "POST", body: form({ intent: "delete" }) });
    expect(gone.status).toBe(404);
  });
});

describe("the Add Books page", () => {
  it("creates a book from a plain form post and goes to its page; the script's post gets the book back", async () => {
    const { cookie, admin } = await signedInAdmin();
    const title = `Form Made ${unique()}`;
    const fields = { title: ` ${title} `, author1: "Form Author", author2: "", isbn: "", subject: "History", gradeLevel: "7" };
    const created = await page("/admin/add-books", { cookie, method: "POST", body: form({ ...fields, description: "" }) });
    expect(created.status).toBe(302);
    const [row] = await db().select().from(books).where(eq(books.title, title));
    expect(row).toMatchObject({ author1: "Form Author", author2: null, subject: "History", gradeLevel: 7 });
    expect(location(created)).toBe(`/admin/book/${row!.id}`);
    expect((await auditOf(admin.id, "book.create"))[0]?.entityId).toBe(String(row!.id));

    const forUpload = await page("/admin/add-books.data", {
      cookie,
      method: "POST",
      body: form({ ...fields, title: `${title} Two`, next: "upload" }),
    });
    expect(forUpload.status).toBe(201);
    const [second] = await db()
      .select()
      .from(books)
      .where(eq(books.title, `${title} Two`));
    expect(await forUpload.text()).toContain(String(second!.id));
  });

  it("makes the book provisional when the page's script says a PDF follows, and only then", async () => {
    const { cookie } = await signedInAdmin();
    const title = `With Pdf ${unique()}`;
    const post = (fields: Record<string, string>) =>
      page("/admin/add-books.data", { cookie, method: "POST", body: form({ author1: "Form Author", next: "upload", ...fields }) });
    expect((await post({ title, provisional: "true" })).status).toBe(201);
    expect((await post({ title: `${title} Details Only` })).status).toBe(201);
    const rows = await db()
      .select({ title: books.title, provisional: books.provisional })
      .from(books)
      .where(like(books.title, `${title}%`))
      .orderBy(books.id);
    expect(rows).toEqual([
      { title, provisional: true },
      { title: `${title} Details Only`, provisional: false },
    ]);
  });

  it("refuses missing details and cross-origin posts", async () => {
    const { cookie } = await signedInAdmin();
    const title = `Never Made ${unique()}`;
    const noAuthor = await page("/admin/add-books", { cookie, method: "POST", body: form({ title, author1: "" }) });
    expect(noAuthor.status).toBe(400);
    expect(await noAuthor.text()).toContain("Enter the first author");
    const badGrade = await page("/admin/add-books", { cookie, method: "POST", body: form({ title, author1: "A", gradeLevel: "13" }) });
    expect(await badGrade.text()).toContain("Grade must be 1 to 12");
    expect(await forged("/admin/add-books", cookie, { title, author1: "A" })).toEqual(REFUSED);
    expect(await db().select().from(books).where(eq(books.title, title))).toHaveLength(0);
  });
});

describe("the Assign Book page", () => {
  it("paints the picker's first books, assigns picked schools and all schools, with audit entries", async () => {
    const { cookie, admin } = await signedInAdmin();
    const book = await createBook({ title: `000 Picker First ${unique()}` });
    expect(await (await page("/admin/assign-book", { cookie })).text()).toContain(book.title);
    const school = await createSchool();

    const picked = { intent: "assign", bookId: String(book.id), schoolIds: String(school.id) };
    const assigned = await page("/admin/assign-book.data", { cookie, method: "POST", body: form(picked) });
    expect(assigned.status).toBe(200);
    expect(await hasAccess(school.id, book.id)).toBe(true);
    expect(await auditOf(admin.id, "book_access.grant")).toHaveLength(1);
    const twice = await page("/admin/assign-book.data", { cookie, method: "POST", body: form(picked) });
    expect(twice.status).toBe(200);
    const [second] = await auditOf(admin.id, "book_access.grant");
    expect(second?.after).toMatchObject({ created: 0 });

    const all = await page("/admin/assign-book", { cookie, method: "POST", body: form({ intent: "assign-all", bookId: String(book.id) }) });
    expect(all.status).toBe(200);
    expect(await all.text()).toMatch(/Assigned to every school \(\d+ new\)\./);
    expect(await auditOf(admin.id, "book.assign_all")).toHaveLength(1);

    const noBook = await page("/admin/assign-book", { cookie, method: "POST", body: form({ intent: "assign-all", bookId: "987654321" }) });
    expect(noBook.status).toBe(404);
    const noSchools = await page("/admin/assign-book", { cookie, method: "POST", body: form({ ...picked, schoolIds: "" }) });
    expect(noSchools.status).toBe(400);
    expect(await noSchools.text()).toContain("Choose at least one school");
    expect(await forged("/admin/assign-book", cookie, picked)).toEqual(REFUSED);
    expect(await forged("/admin/assign-book.data", cookie, picked)).toEqual(REFUSED);
    expect(await auditOf(admin.id, "book_access.grant")).toHaveLength(2);
  });
});

describe("the superadmin dashboard", () => {
  it("paints the figures, the accounts and the audit log into the first HTML", async () => {
    const { cookie, admin } = await signedInAdmin("superadmin");
    const other = await signedInAdmin("admin");
    const email = `painted-${unique()}@lectern.test`;
    const body = form({ intent: "create", name: "Painted Admin", email, password: "a painted passphrase" });
    expect((await page("/superadmin/dashboard", { cookie, method: "POST", body })).status).toBe(200);
    const html = await (await page("/superadmin/dashboard", { cookie })).text();
    expect(html).toContain(`Signed in as ${admin.email}`);
    expect(html).toContain(other.admin.email);
    expect(html).toContain("Logins this week");
    expect(html).toContain("Audit log");
    // The audit row names the new account by its e-mail.
    expect(html).toContain(`create admin ${email}`);
  });

  it("creates accounts from a form post and refuses invalid ones in the API's words", async () => {
    const { cookie, admin } = await signedInAdmin("superadmin");
    const email = `made-${unique()}@lectern.test`;
    const fields = { intent: "create", name: "Made Here", email, password: "a long made passphrase", role: "admin" };
    const created = await page("/superadmin/dashboard", { cookie, method: "POST", body: form(fields) });
    expect(created.status).toBe(200);
    expect(await created.text()).toContain(`Account created for ${email}.`);
    const [row] = await db().select().from(admins).where(eq(admins.email, email));
    expect(row).toMatchObject({ name: "Made Here", role: "admin", disabled: false });
    expect((await auditOf(admin.id, "create"))[0]).toMatchObject({ entityType: "admin", entityId: String(row!.id) });

    const again = await page("/superadmin/dashboard", { cookie, method: "POST", body: form(fields) });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("An account with this e-mail already exists");
    const short = await page("/superadmin/dashboard", {
      cookie,
      method: "POST",
      body: form({ ...fields, email: `x${email}`, password: "short" }),
    });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Password must be at least 8 characters");
    expect(await forged("/superadmin/dashboard", cookie, { ...fields, email: `y${email}` })).toEqual(REFUSED);
    expect(
      await db()
        .select()
        .from(admins)
        .where(eq(admins.email, `y${email}`)),
    ).toHaveLength(0);
  });

  it("disables, enables and resets passwords (the prompt's post goes to .data); never disables itself", async () => {
    const { cookie, admin } = await signedInAdmin("superadmin");
    const target = await signedInAdmin("admin");
    const update = (fields: Record<string, string>, url = "/superadmin/dashboard") =>
      page(url, { cookie, method: "POST", body: form({ intent: "update", id: String(target.admin.id), ...fields }) });

    const disabled = await update({ disabled: "true" });
    expect(disabled.status).toBe(200);
    expect(await disabled.text()).toContain("Account updated.");
    expect((await db().select().from(admins).where(eq(admins.id, target.admin.id)))[0]?.disabled).toBe(true);
    expect((await auditOf(admin.id, "disable"))[0]?.entityId).toBe(String(target.admin.id));
    expect((await page("/admin/books", { cookie: target.cookie })).status).toBe(302);

    expect((await update({ disabled: "false" })).status).toBe(200);
    expect((await db().select().from(admins).where(eq(admins.id, target.admin.id)))[0]?.disabled).toBe(false);
    expect(await auditOf(admin.id, "enable")).toHaveLength(1);

    const reset = await update({ password: "a brand new passphrase" }, "/superadmin/dashboard.data");
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain("passwordReset");
    expect(await auditOf(admin.id, "reset-password")).toHaveLength(1);
    const weak = await update({ password: "short" }, "/superadmin/dashboard.data");
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("Password must be at least 8 characters");

    const self = await page("/superadmin/dashboard", {
      cookie,
      method: "POST",
      body: form({ intent: "update", id: String(admin.id), disabled: "true" }),
    });
    expect(self.status).toBe(400);
    expect(await self.text()).toContain("You cannot disable your own account");
    expect(await forged("/superadmin/dashboard", cookie, { intent: "update", id: String(target.admin.id), disabled: "true" })).toEqual(
      REFUSED,
    );
    expect((await db().select().from(admins).where(eq(admins.id, target.admin.id)))[0]?.disabled).toBe(false);
  });
});

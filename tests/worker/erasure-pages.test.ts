// The erasure's two screens through the real route modules: the teacher's account page and the
// admin's school page (docs/decisions/0045).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teachers } from "../../workers/db/schema.ts";
import { d1RowsNaming, person, teacherOf } from "./fixtures-erasure.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { createSchool, db, page } from "./helpers.ts";

const admin = adminForTheFile();
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("the account page's Delete my account", () => {
  it("shows what goes and what stays, refuses a wrong address beside its field, then deletes and says so on the login page", async () => {
    const school = await createSchool();
    const { who, cookie, teacher } = await teacherOf(school, person("Page"));
    const url = `/schools/${school.slug}/account`;
    const html = await (await page(url, { cookie })).text();
    expect(html).toContain("Delete my account");
    expect(html).toContain(`Type your e-mail address, ${who.email}, to confirm`);
    expect(html).toContain("Kept, without your name:");

    const refused = await page(`${url}.data`, { method: "POST", cookie, body: form({ intent: "delete-account", confirm: "nope" }) });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain(`Type your e-mail address, ${who.email}, to confirm.`);
    expect(text).toContain('"confirm"');

    const deleted = await page(url, { method: "POST", cookie, body: form({ intent: "delete-account", confirm: who.email }) });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/schools/${school.slug}?account=deleted`);
    expect(deleted.headers.get("Set-Cookie")).toMatch(/^__Host-lectern_teacher=; .*Max-Age=0/);
    const login = await (await page(`/schools/${school.slug}?account=deleted`)).text();
    expect(login).toContain("Your account has been deleted and you have been signed out everywhere.");
    expect(await (await page(`/schools/${school.slug}?account=other`)).text()).not.toContain("Your account has been deleted");
    // On the school's own host, its root is the login page.
    const onHost = await (await page(`https://${school.slug}.lectern.test/?account=deleted`)).text();
    expect(onHost).toContain("Your account has been deleted and you have been signed out everywhere.");
    expect((await page(url, { cookie })).status).toBe(302);
    const [row] = await db().select().from(teachers).where(eq(teachers.id, teacher.id));
    expect(row?.erasedAt).not.toBeNull();
    expect(await d1RowsNaming([who.name, who.email, who.mobile])).toEqual([]);
  });
});

describe("the admin's school page's Erase personal data", () => {
  it("names the school and what goes and stays, needs the slug typed, and erases", async () => {
    const school = await createSchool();
    const { who } = await teacherOf(school, person("Admin Page"));
    const url = `/admin/school/${school.id}`;
    // React may put a comment between a text and the value inside it.
    const html = (await (await page(url, { cookie: admin.cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Erase personal data");
    // The confirmation names the school.
    expect(html).toContain(`to erase the personal data of ${school.name}. This cannot be undone.`);
    expect(html).toContain("It has 1 teacher account. Of each account:");

    const wrong = await page(`${url}.data`, {
      method: "POST",
      cookie: admin.cookie,
      body: form({ intent: "erase-personal-data", confirm: "x" }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(`Type ${school.slug} to confirm.`);
    expect(await d1RowsNaming([who.email])).not.toEqual([]);

    const erased = await page(`${url}.data`, {
      method: "POST",
      cookie: admin.cookie,
      body: form({ intent: "erase-personal-data", confirm: school.slug }),
    });
    expect(erased.status).toBe(200);
    expect(await erased.text()).toContain(`The personal data of ${school.name} was erased: 1 teacher account`);
    expect(await d1RowsNaming([who.name, who.email, who.mobile])).toEqual([]);
  });
});

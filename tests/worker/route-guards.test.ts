// The route layer through the real pipeline and the real React Router build: the school, teacher
// and admin middlewares of the pages, their loaders' `.data` answers, against real D1.
import { describe, expect, it } from "vitest";
import { createBook, createSchool, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

const location = (response: Response) => response.headers.get("Location");

describe("school pages (requireSchool, requireTeacher)", () => {
  it("shows a teacher their own school's dashboard, with its books", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school, "Dana Reader");
    await createBook({ title: "Route Layer Algebra" }, [school.id]);
    const response = await page(`/schools/${school.slug}/dashboard`, { cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Dana Reader");
    expect(html).toContain("Route Layer Algebra");
    const data = await page(`/schools/${school.slug}/dashboard.data`, { cookie });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain("Route Layer Algebra");
  });

  it("sends a teacher of another school to that school's login, by path and by host", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const { cookie } = await signedInTeacher(mine);
    await createBook({ title: "Not Yours" }, [other.id]);
    const byPath = await page(`/schools/${other.slug}/dashboard`, { cookie });
    expect(byPath.status).toBe(302);
    expect(location(byPath)).toBe(`/schools/${other.slug}?redirectTo=${encodeURIComponent(`/schools/${other.slug}/dashboard`)}`);
    const byHost = await page(`https://${other.slug}.lectern.test/dashboard`, { cookie });
    expect(byHost.status).toBe(302);
    expect(location(byHost)).toBe(`/?redirectTo=${encodeURIComponent("/dashboard")}`);
    // The loaders' data answers too: React Router answers a redirect as a 204 with the target.
    const data = await page(`/schools/${other.slug}/dashboard.data`, { cookie });
    expect(await data.text()).not.toContain("Not Yours");
    expect([202, 204, 302]).toContain(data.status);
  });

  it("answers 404 for a school that does not exist, and for path-form URLs on a school's host", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    expect((await page("/schools/no-such-school-here/dashboard", { cookie })).status).toBe(404);
    expect((await page(`https://${school.slug}.lectern.test/schools/${school.slug}/dashboard`, { cookie })).status).toBe(404);
  });

  it("keeps a book of another school out of a teacher's book page", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const { cookie } = await signedInTeacher(mine);
    const book = await createBook({ title: "Other School Only" }, [other.id]);
    const response = await page(`/schools/${mine.slug}/dashboard/book/${book.id}`, { cookie });
    expect(await response.text()).not.toContain("Other School Only");
    expect(response.status).toBe(404);
  });

  it("sends a signed-in teacher from the login page to the dashboard", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const response = await page(`/${school.slug}`, { cookie });
    expect(response.status).toBe(302);
    expect(location(response)).toBe(`/schools/${school.slug}/dashboard`);
  });
});

describe("admin pages (requireAdmin)", () => {
  it("sends a visitor and a teacher to the admin login, and lets an admin in", async () => {
    const school = await createSchool();
    const { cookie: teacherCookie } = await signedInTeacher(school);
    for (const cookie of [undefined, teacherCookie]) {
      const response = await page("/admin/books", { cookie });
      expect(response.status).toBe(302);
      expect(location(response)).toBe(`/admin/login?redirectTo=${encodeURIComponent("/admin/books")}`);
    }
    const { cookie } = await signedInAdmin();
    expect((await page("/admin/books", { cookie })).status).toBe(200);
  });

  it("never serves the admin area on a school's host, whatever the cookie", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    expect((await page(`https://${school.slug}.lectern.test/admin/books`, { cookie })).status).toBe(404);
  });

  it("keeps plain admins out of the superadmin dashboard", async () => {
    const { cookie } = await signedInAdmin("admin");
    const response = await page("/superadmin/dashboard", { cookie });
    expect(response.status).not.toBe(200);
    const { cookie: superCookie } = await signedInAdmin("superadmin");
    expect((await page("/superadmin/dashboard", { cookie: superCookie })).status).toBe(200);
  });
});

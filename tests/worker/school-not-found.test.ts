import { beforeAll, describe, expect, it } from "vitest";
import { createSchool, page, signedInTeacher } from "./helpers.ts";

// An unknown page under a school is the school's 'Page Not Found' for its signed-in teachers,
// inside the school's layout (sidebar, header), on the path and on the subdomain; to anyone else
// it is the site-wide 404 it always was.
let school: Awaited<ReturnType<typeof createSchool>>;
let cookie: string;

beforeAll(async () => {
  school = await createSchool({ name: "Lost Page Academy" });
  cookie = (await signedInTeacher(school, "Ada Lovelace")).cookie;
});

const mainOf = (html: string) => html.slice(html.indexOf('<main id="main-content"'), html.indexOf("</main>"));

async function expectSchoolNotFound(url: string, base: string) {
  const response = await page(url, { cookie });
  expect(response.status).toBe(404);
  const html = await response.text();
  // The school's layout: its sidebar and the greeting.
  expect(html).toContain('id="school-sidebar"');
  expect(html).toContain("Lost Page Academy");
  expect(html).toMatch(/Welcome, (<!-- -->)?Ada Lovelace/);
  const main = mainOf(html);
  expect(main).toContain("Page Not Found");
  expect(main).toContain("The page you are looking for does not exist or has been moved.");
  expect(main).toContain(`href="${base}/dashboard"`);
}

describe("an unknown page of a school", () => {
  it("/schools/{slug}/dashboard/nothing-here says 'Page Not Found' inside the school's layout", async () => {
    await expectSchoolNotFound(`/schools/${school.slug}/dashboard/nothing-here`, `/schools/${school.slug}`);
    await expectSchoolNotFound(`/schools/${school.slug}/no/such/page`, `/schools/${school.slug}`);
  });

  it("/dashboard/nothing-here on the school's subdomain says so inside the layout too", async () => {
    await expectSchoolNotFound(`https://${school.slug}.lectern.test/dashboard/nothing-here`, "");
    await expectSchoolNotFound(`https://${school.slug}.lectern.test/books/1/nothing-here`, "");
  });

  it("the client-side visit's data answers 404 the same way", async () => {
    const response = await page(`/schools/${school.slug}/dashboard/nothing-here.data`, { cookie });
    expect(response.status).toBe(404);
  });

  it("to a visitor who is not signed in it is the site-wide 404, not a login", async () => {
    const response = await page(`/schools/${school.slug}/dashboard/nothing-here`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page Not Found");
    expect(html).not.toContain('id="school-sidebar"');
  });

  it("a teacher of another school gets the site-wide 404 there", async () => {
    const other = await createSchool();
    const response = await page(`/schools/${other.slug}/dashboard/nothing-here`, { cookie });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).not.toContain('id="school-sidebar"');
    expect(html).not.toContain("Lost Page Academy");
  });
});

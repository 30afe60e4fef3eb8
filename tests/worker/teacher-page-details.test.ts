import { describe, expect, it } from "vitest";
import { createSchool, page, signedInTeacher } from "./helpers.ts";

// Issue 16, item 8 (part): the footer names the publisher once, the limit-reached page says how to
// reach the school, and the library page (/books) is linked from the school's navigation.

const footerOf = (html: string) => html.slice(html.lastIndexOf("<footer"), html.lastIndexOf("</footer>"));

describe("smaller things a teacher meets", () => {
  it("the footer names the publisher once, with its address, phones and e-mail", async () => {
    const response = await page("/");
    const footer = footerOf(await response.text());
    expect(footer.match(/Lectern Press/g)).toHaveLength(1);
    expect(footer).toContain("1200 Printers Row, Suite 400, Chicago, IL 60605");
    expect(footer).toContain("All rights reserved.");
  });

  it("the limit-reached page gives the school's e-mail as a mailto link", async () => {
    const school = await createSchool({ email: "office@full-school.example.org" });
    const response = await page(`/schools/${school.slug}/limit-reached`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).toContain("Teacher Registration Limit Reached");
    expect(main).toContain('href="mailto:office@full-school.example.org"');
  });

  it("a school without an e-mail on record shows no contact line", async () => {
    const school = await createSchool({ email: "" });
    const html = await (await page(`/schools/${school.slug}/limit-reached`)).text();
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).toContain("Teacher Registration Limit Reached");
    expect(main).not.toContain("mailto:");
  });

  it("the school's navigation links the library page, on the path and on the subdomain", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const onPath = await (await page(`/schools/${school.slug}/dashboard`, { cookie })).text();
    expect(onPath).toMatch(new RegExp(`<a[^>]*href="/schools/${school.slug}/books"[^>]*>.*?Library</a>`, "s"));
    const onHost = await (await page(`https://${school.slug}.lectern.test/dashboard`, { cookie })).text();
    expect(onHost).toMatch(/<a[^>]*href="\/books"[^>]*>.*?Library<\/a>/s);
  });
});

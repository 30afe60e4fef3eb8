import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, openPage, setupBrowser, subdomainURL } from "./browser.ts";
import { signInDemoTeacher } from "./support.ts";

setupBrowser();

// Teacher A is Lincoln High's demo teacher. School B is Washington Elementary (grades 1-5), whose
// books Lincoln High does not have. Every school page is asked for with B's slug and B's book ids.
const B_ONLY = ["Counting Creatures", "Letters and Sounds", "Shapes Everywhere"];
let bookIds: number[] = [];

beforeAll(async () => {
  const page = await openPage();
  await signInDemoTeacher(page, baseURL(), "washington-elementary");
  const html = await (await page.request.get(`${baseURL()}/schools/washington-elementary/dashboard`)).text();
  bookIds = [
    ...html.matchAll(/\/dashboard\/book\/(\d+)"[^>]*>(?:(?!<\/article>).)*?(Counting Creatures|Letters and Sounds|Shapes Everywhere)/gs),
  ].map((m) => Number(m[1]));
  expect(bookIds.length).toBe(3);
});

const PAGES: ((id: number) => string)[] = [
  () => `${baseURL()}/schools/washington-elementary/dashboard`,
  () => `${baseURL()}/schools/washington-elementary/books`,
  (id) => `${baseURL()}/schools/washington-elementary/dashboard/book/${id}`,
  (id) => `${baseURL()}/schools/washington-elementary/books/${id}`,
  (id) => `${baseURL()}/schools/lincoln-high/dashboard/book/${id}`,
  (id) => `${baseURL()}/schools/lincoln-high/books/${id}`,
  () => `${baseURL()}/schools/lincoln-high/books?search=counting`,
  (id) => `${baseURL()}/schools/lincoln-high/dashboard/book/${id}.data`,
  (id) => subdomainURL("lincoln-high", `/dashboard/book/${id}`),
  () => subdomainURL("washington-elementary", "/dashboard"),
  (id) => subdomainURL("washington-elementary", `/dashboard/book/${id}`),
];

describe("school pages never show another school's books", () => {
  for (const [who, signIn] of [
    ["teacher A", true],
    ["no one", false],
  ] as const) {
    it(`to ${who}`, async () => {
      const page = await openPage({ allowStatus: [404] });
      if (signIn) {
        await signInDemoTeacher(page, baseURL(), "lincoln-high");
        await signInDemoTeacher(page, subdomainURL("lincoln-high", "").replace(/\/$/, ""), "lincoln-high");
      }
      for (const url of PAGES.map((p) => p(bookIds[0]!))) {
        // Fetch from a page of the URL's own origin, so the browser sends that host's cookie.
        await page.goto(`${new URL(url).origin}/api/health`);
        const { status, text } = await page.evaluate(async (u) => {
          const response = await fetch(u, { redirect: "manual" });
          return { status: response.status, text: await response.text() };
        }, url);
        // 200 only for A's own search page; 202 is React Router's data answer carrying a redirect or 404.
        // 0 is how fetch reports a redirect it was told not to follow.
        const allowed = [
          0,
          302,
          404,
          ...(url.endsWith(".data") ? [202] : []),
          ...(signIn && url.includes("/lincoln-high/books?") ? [200] : []),
        ];
        expect(allowed, url).toContain(status);
        for (const title of B_ONLY) expect(text, url).not.toContain(title);
      }
    });
  }

  it("while teacher A sees their own books (so the denials are real)", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    const html = await (await page.request.get(`${baseURL()}/schools/lincoln-high/dashboard`)).text();
    expect(html).toContain("Algebra I");
  });
});

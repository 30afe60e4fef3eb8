// Issue 16: the library on a phone (390 px, touch). The teacher filters by subject and grade with
// the compact selects, stars a book, opens it from 'My books', and Back brings the same list back;
// the filters live in the URL, so a shared link paints the same list from the server.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { execSql, hydratedAt, serverHtml, signInTeacher, uniqueEmail } from "./support.ts";

setupBrowser();

const SLUG = "roosevelt-elementary";
const BASE = () => `${baseURL()}/schools/${SLUG}`;
const PHONE = { width: 390, height: 844, context: { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } };
const email = uniqueEmail("library-phone");

// A teacher of their own, so no other test's stars or reading change what this one sees.
beforeAll(() =>
  execSql(
    `INSERT INTO teachers (school_id, name, email, mobile, password_hash) SELECT id, 'Phone Reader', '${email}', '5550000000', (SELECT password_hash FROM teachers WHERE email = 'demo.teacher@${SLUG}.example.org') FROM schools WHERE slug = '${SLUG}'`,
  ),
);

async function signIn(page: Page) {
  await signInTeacher(page, baseURL(), SLUG, email, inject("demo").teacherPassword);
}

/** Waits until React has hydrated the library's controls. */
const hydrated = (page: Page) => hydratedAt(page, "#dashboard-search");

const cards = (page: Page) => page.locator("main article h3");
const search = (page: Page) => new URL(page.url()).search;

describe("the library on a phone", () => {
  it("filters by subject and grade, stars a book, opens it from My books, and Back keeps the filters", async () => {
    const page = await openPage(PHONE);
    await signIn(page);
    await page.goto(`${BASE()}/dashboard`);
    await hydrated(page);

    // The first screen still shows books: compact selects, not rows of chips.
    expect(await page.getByRole("radiogroup", { name: "Subject" }).isVisible()).toBe(false);
    const subject = page.getByRole("combobox", { name: "Subject" });
    const grade = page.getByRole("combobox", { name: "Grade" });
    expect(await subject.isVisible()).toBe(true);
    const firstCover = await page.locator("main article").first().boundingBox();
    expect(firstCover!.y).toBeLessThan(844 - 120);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // Two boxes, two roles: the header searches (a dropdown), the grid's box filters this list;
    // both show the spec's 'Search books...', their names tell them apart.
    const filter = page.getByRole("searchbox", { name: "Filter this list" });
    expect(await filter.isVisible()).toBe(true);
    expect(await filter.getAttribute("placeholder")).toBe("Search books...");
    await screenshot(page, "library-phone-390");

    // Science, then Standard 3: both apply, the counts follow, the URL keeps them.
    await subject.selectOption("Science");
    await page.waitForURL(/\?subject=Science$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Plants and Seeds", "The Human Body Explained", "Weather Watchers"]);
    expect(await grade.locator("option").allTextContents()).toEqual(
      expect.arrayContaining(["All grades (3)", "Standard 3 (1)", "Standard 4 (1)", "Standard 6 (1)", "Standard 1 (0)"]),
    );
    await grade.selectOption("3");
    await page.waitForURL(/\?subject=Science&grade=3$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Plants and Seeds"]);
    expect(await page.getByText("1 book(s) available").isVisible()).toBe(true);
    expect(await subject.locator("option:checked").textContent()).toBe("Science (1)");

    // A tap on the star: pressed at once, saved by the API.
    const saved = page.waitForResponse((r) => r.url().includes("/favourite") && r.request().method() === "PUT");
    await page.getByRole("button", { name: "Add Plants and Seeds to My books" }).tap();
    expect(await page.getByRole("button", { name: "Remove Plants and Seeds from My books" }).getAttribute("aria-pressed")).toBe("true");
    expect((await saved).status()).toBe(200);
    await screenshot(page, "library-phone-390-filtered");

    // My books, within Science and Standard 3.
    await page.getByRole("radio", { name: "My books (1)" }).tap();
    await page.waitForURL(/\?subject=Science&grade=3&mine=1$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Plants and Seeds"]);
    // Clearing the subject and grade keeps only the starred book.
    await subject.selectOption("");
    await grade.selectOption("");
    await page.waitForURL(/\?mine=1$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Plants and Seeds"]);
    await subject.selectOption("Science");
    await grade.selectOption("3");
    await page.waitForURL(/\?subject=Science&grade=3&mine=1$/);

    // Open it from My books, then Back: the same filters, the same list.
    await page
      .locator("main article")
      .getByRole("link", { name: /Plants and Seeds/ })
      .tap();
    await page.getByRole("heading", { level: 1, name: "Plants and Seeds" }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/dashboard\?subject=Science&grade=3&mine=1$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Plants and Seeds"]);
    expect(await subject.inputValue()).toBe("Science");
    expect(await grade.inputValue()).toBe("3");
    expect(await page.getByRole("radio", { name: /^My books/ }).getAttribute("aria-checked")).toBe("true");
    expect(await page.getByRole("button", { name: "Remove Plants and Seeds from My books" }).getAttribute("aria-pressed")).toBe("true");

    // A shared link: the server's first HTML is already filtered.
    const html = await serverHtml(page, `${BASE()}/dashboard${search(page)}`);
    expect(html).toContain("Plants and Seeds");
    expect(html).not.toContain("Weather Watchers");
    expect(html).toContain("1 book(s) available");
  });

  it("sorts and filters the text through the URL; the filter box says what it does", async () => {
    const page = await openPage(PHONE);
    await signIn(page);
    await page.goto(`${BASE()}/dashboard?sort=added`);
    await hydrated(page);
    expect(await page.getByRole("combobox", { name: "Sort by" }).inputValue()).toBe("added");
    const box = page.getByRole("searchbox", { name: "Filter this list" });
    await box.fill("weath");
    await page.waitForURL(/\?sort=added&q=weath$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Weather Watchers"]);
    await page.getByRole("combobox", { name: "Sort by" }).selectOption("title");
    await page.waitForURL(/\?q=weath$/);
    await page.reload();
    await hydrated(page);
    expect(await box.inputValue()).toBe("weath");
    expect(await cards(page).allTextContents()).toEqual(["Weather Watchers"]);
  });

  it("looks right at 1280 px: chip rows with counts, the star on every card", async () => {
    const page = await openPage({ width: 1280, height: 900 });
    await signIn(page);
    await page.goto(`${BASE()}/dashboard?subject=Science`);
    await hydrated(page);
    const subjects = page.getByRole("radiogroup", { name: "Subject" });
    expect(await subjects.isVisible()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Subject" }).isVisible()).toBe(false);
    expect(await subjects.getByRole("radio", { name: "Science (3)" }).getAttribute("aria-checked")).toBe("true");
    // The grade row counts within Science; My books counts this teacher's star from the first test.
    expect(await page.getByRole("radio", { name: "Standard 3 (1)" }).isVisible()).toBe(true);
    expect(await page.getByRole("radio", { name: "My books (1)" }).isVisible()).toBe(true);
    expect(await cards(page).count()).toBe(3);
    expect(
      await page
        .locator("main article")
        .getByRole("button", { name: /My books$/ })
        .count(),
    ).toBe(3);
    await page.getByRole("radio", { name: "Standard 4 (1)" }).click();
    await page.waitForURL(/\?subject=Science&grade=4$/);
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Weather Watchers"]);
    await page.getByRole("radio", { name: /^All subjects/ }).click();
    await page.waitForURL(/\?grade=4$/);
    await expect.poll(() => cards(page).count()).toBe(2);
    await screenshot(page, "library-desktop-1280");
  });
});

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";
import { execSql, hydratedAt, serverHtml, signInDemoTeacher } from "./support.ts";

setupBrowser();

// These tests read the dashboard as a teacher who has not started a book: the reader's tests
// (whatever order the files run in) leave a 'Continue reading' row with a second link per book.
// Progress not yet flushed from the school's object still shows there, so the tests also look for
// a book's links and covers inside its card (main article) only.
beforeAll(() => execSql("DELETE FROM reading_progress WHERE teacher_id IN (SELECT id FROM teachers WHERE email LIKE 'demo.teacher@%')"));

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

const cards = (page: Page) => page.locator("main article h3");
/** The dashboard's filters and search work once React has hydrated them. */
const hydrated = (page: Page) => hydratedAt(page, "#dashboard-search");

describe.each([
  { name: "by path", slug: "lincoln-high", origin: () => baseURL(), base: () => `${baseURL()}/schools/lincoln-high` },
  {
    name: "on the subdomain",
    slug: "lincoln-high",
    origin: () => subdomainURL("lincoln-high", "").replace(/\/$/, ""),
    base: () => subdomainURL("lincoln-high", "").replace(/\/$/, ""),
  },
])("teacher library $name", ({ slug, origin, base }) => {
  /** A new page, signed in as the school's demo teacher, on the dashboard. */
  async function onDashboard() {
    const page = await openPage();
    await signInDemoTeacher(page, origin(), slug);
    await page.goto(`${base()}/dashboard`);
    return page;
  }

  it("the dashboard comes rendered from the server, and filters by text and category", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, origin(), slug);
    const html = await serverHtml(page, `${base()}/dashboard`);
    expect(html).toContain("Calculus: A First Course");
    expect(html).toContain("book(s) available");

    await page.goto(`${base()}/dashboard`);
    await hydrated(page);
    const total = await cards(page).count();
    expect(total).toBeGreaterThan(5);
    expect(await page.getByText(`${total} book(s) available`).isVisible()).toBe(true);

    await page.getByRole("radio", { name: "Standard 12" }).click();
    await expect.poll(() => cards(page).count()).toBeLessThan(total);
    const twelfth = await cards(page).allTextContents();
    expect(twelfth).toEqual(expect.arrayContaining(["Calculus: A First Course"]));
    expect(await page.getByText(`${twelfth.length} book(s) available`).isVisible()).toBe(true);
    // Subject and grade combine: Art has no Standard 12 book until the grade is cleared.
    await page.getByRole("radio", { name: "Art" }).click();
    await expect.poll(() => cards(page).count()).toBe(0);
    await page.getByRole("radio", { name: "All grades" }).click();
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Art Through the Ages"]);
    await page.getByRole("radio", { name: "All subjects" }).click();
    await expect.poll(() => cards(page).count()).toBe(total);

    await page.getByPlaceholder("Search books...").first().fill("calculus");
    await page.locator("#dashboard-search").fill("algebra");
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Algebra I"]);
    await page.locator("#dashboard-search").fill("zzzz nothing");
    await page.getByText("No books found").waitFor();
  });

  it("the header search opens after 3 characters and works from the keyboard", async () => {
    const page = await onDashboard();
    const box = page.getByRole("combobox", { name: "Search books" });
    await box.fill("ch");
    await page.waitForTimeout(500);
    expect(await page.getByRole("listbox").count()).toBe(0);
    await box.fill("chem");
    await page.getByRole("listbox").waitFor();
    expect(await page.getByRole("option").first().textContent()).toContain("Chemistry: Matter and Change");
    await box.press("Escape");
    await expect.poll(() => page.getByRole("listbox").count()).toBe(0);
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    expect(await box.getAttribute("aria-activedescendant")).toBeTruthy();
    await box.press("Enter");
    await page.waitForURL(/\/dashboard\/book\/\d+$/);
    expect(await box.inputValue()).toBe("");
    await page.getByRole("heading", { level: 1, name: "Chemistry: Matter and Change" }).waitFor();

    await box.fill("qwxz");
    await page.getByText("No books found").waitFor();
    await page.mouse.click(5, 500);
    await expect.poll(() => page.getByRole("listbox").count()).toBe(0);
  });

  it("Enter in the header search opens the first book for the typed title, at once or once the list shows it", async () => {
    const page = await onDashboard();
    const box = page.getByRole("combobox", { name: "Search books" });
    // Typed and Enter at once: the book opens when the answer for this text arrives.
    await box.fill("Chemistry: Matter and Change");
    await box.press("Enter");
    await page.waitForURL(/\/dashboard\/book\/\d+$/);
    await page.getByRole("heading", { level: 1, name: "Chemistry: Matter and Change" }).waitFor();
    expect(await box.inputValue()).toBe("");

    // Enter after the list shows the match: the first result opens.
    await box.fill("Algebra I");
    await page.getByRole("listbox").waitFor();
    const first = await page.getByRole("option").first().locator("span").first().textContent();
    expect(first).toBe("Algebra I");
    await box.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Algebra I", exact: true }).waitFor();

    // Nothing found: Enter opens nothing.
    const url = page.url();
    await box.fill("qwxz");
    await page.getByText("No books found").waitFor();
    await box.press("Enter");
    await page.waitForTimeout(300);
    expect(page.url()).toBe(url);
  });

  it("the book page shows the details and 'View Book'", async () => {
    const page = await onDashboard();
    await page
      .locator("main article")
      .getByRole("link", { name: /Fractions Made Friendly|Algebra I/ })
      .first()
      .click();
    await page.waitForURL(/\/dashboard\/book\/\d+$/);
    await page.getByRole("heading", { level: 1, name: "Algebra I" }).waitFor();
    expect(await page.getByText("by Ruth Adler, Carlos Mendes").isVisible()).toBe(true);
    expect(await page.getByText("Standard 9").first().isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "View Book" }).getAttribute("href")).toMatch(/\/dashboard\/book\/\d+\/view$/);
    await page.getByRole("link", { name: "Back to Books" }).click();
    await page.waitForURL(`${base()}/dashboard`);
  });
});

describe("teacher library details", () => {
  it("every demo book of a school opens its page", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "washington-high");
    await page.goto(`${baseURL()}/schools/washington-high/dashboard`);
    const hrefs = await page.locator("main article a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) {
      const response = await page.request.get(`${baseURL()}${href}`);
      expect(response.status(), href).toBe(200);
      expect(await response.text()).toContain("View Book");
    }
  });

  it("the book without a PDF has 'View Book' disabled, and a missing book says so", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "washington-high");
    await page.goto(`${baseURL()}/schools/washington-high/dashboard`);
    await hydrated(page);
    await page.locator("#dashboard-search").fill("atlas");
    // The book's own page, opened from the card's link as the server renders it (a click through the
    // shelf is the 'book page shows the details' tests' walk). Its heading is the page's h1: the
    // card's title is a heading too, and matched before the page had changed.
    const href = await page.getByRole("link", { name: /World Atlas for Schools/ }).getAttribute("href");
    await page.goto(`${baseURL()}${href}`);
    await page.getByRole("heading", { level: 1, name: "World Atlas for Schools" }).waitFor();
    expect(await page.getByRole("button", { name: "View Book" }).isDisabled()).toBe(true);
    expect(await page.getByText("Not available").count()).toBe(0);

    const response = await page.goto(`${baseURL()}/schools/washington-high/dashboard/book/999999`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Book Not Found" }).isVisible()).toBe(true);
    expect(await page.getByText("The requested book could not be found.").isVisible()).toBe(true);
  });

  it("the description tooltip opens on hover and closes 300 ms after leaving", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(`${baseURL()}/schools/lincoln-high/dashboard`);
    const about = page.getByRole("button", { name: "About Algebra I" });
    await about.hover();
    const tooltip = page.getByRole("tooltip").filter({ hasText: "Linear equations" });
    await tooltip.waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(150);
    expect(await tooltip.isVisible()).toBe(true);
    await page.waitForTimeout(300);
    expect(await tooltip.isVisible()).toBe(false);
  });

  it("the star and the (i) sit below the cover, covering none of it (its corners carry the publisher's name)", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(`${baseURL()}/schools/lincoln-high/dashboard`);
    const card = page.locator("main article").filter({ has: page.getByRole("heading", { name: "Algebra I", exact: true }) });
    const cover = (await card.getByRole("img", { name: /Algebra I/ }).boundingBox())!;
    for (const name of ["About Algebra I", /^(Add Algebra I to|Remove Algebra I from) My books$/]) {
      const button = (await card.getByRole("button", { name }).boundingBox())!;
      expect(button.y, String(name)).toBeGreaterThanOrEqual(cover.y + cover.height);
    }
    // Nor over the book's title and authors.
    const byline = (await card.getByText("Ruth Adler, Carlos Mendes").boundingBox())!;
    const star = (await card.getByRole("button", { name: /My books$/ }).boundingBox())!;
    expect(star.y).toBeGreaterThanOrEqual(byline.y + byline.height);
    // The category reads whole ('Standard 9', not 'Standar...').
    const category = card.getByText(/^Standard \d+$/);
    expect(await category.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });

  it("a broken cover becomes the placeholder icon", async () => {
    const page = await openPage({ allowStatus: [404, 500] });
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.route(/\/api\/books\/\d+\/thumbnail/, (route) => route.fulfill({ status: 500, body: "" }));
    await page.goto(`${baseURL()}/schools/lincoln-high/dashboard`);
    await page.locator("main article").getByRole("img", { name: "No cover for Algebra I" }).waitFor();
  });

  it("the library page searches explicitly and says when nothing matches", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "washington-elementary");
    await page.goto(`${baseURL()}/schools/washington-elementary/books`);
    expect(await page.getByRole("heading", { name: "Library" }).isVisible()).toBe(true);
    expect(await page.getByText("Browse all books available to your school").isVisible()).toBe(true);
    await page.locator("#library-search").fill("weather");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/search=weather/);
    // The URL changes before React paints the loader's result (the list shows its skeleton meanwhile).
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Weather Watchers"]);
    await page.locator("#library-search").fill("calculus");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No books found matching your search query").waitFor();
    await expectAccessible(page);
    await screenshot(page, "library-empty-1280");
  });

  it("a school with no books shows the empty state", async () => {
    await execSql(
      "INSERT OR IGNORE INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit) VALUES ('empty-shelf', 'Empty Shelf School', '1 Nowhere Rd', 'Dayton', 'OH', '45402', 'x@y.z', 5)",
    );
    const page = await openPage();
    await execSql(
      "INSERT OR IGNORE INTO teachers (school_id, name, email, mobile, password_hash) SELECT id, 'Demo Teacher', 'demo.teacher@empty-shelf.example.org', '5550000000', (SELECT password_hash FROM teachers WHERE email = 'demo.teacher@lincoln-high.example.org') FROM schools WHERE slug = 'empty-shelf'",
    );
    await signInDemoTeacher(page, baseURL(), "empty-shelf");
    await page.goto(`${baseURL()}/schools/empty-shelf/dashboard`);
    expect(await page.getByRole("heading", { name: "No Books Available" }).isVisible()).toBe(true);
    expect(await page.getByText("Books will appear here once they've been assigned by an administrator.").isVisible()).toBe(true);
    await page.goto(`${baseURL()}/schools/empty-shelf/books`);
    expect(await page.getByText("Your school doesn't have any books assigned yet").isVisible()).toBe(true);
  });

  it("is accessible and looks right at 375 and 1280 px, light and dark", async () => {
    for (const width of [375, 1280]) {
      for (const theme of ["light", "dark"]) {
        const page = await openPage({ width, height: width < 500 ? 812 : 900 });
        await page.addInitScript((t) => localStorage.setItem("vite-ui-theme", t), theme);
        await signInDemoTeacher(page, baseURL(), "lincoln-academy");
        await page.goto(`${baseURL()}/schools/lincoln-academy/dashboard`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
        await expectAccessible(page);
        await screenshot(page, `dashboard-${theme}-${width}`);
        await page
          .locator("main article")
          .getByRole("link", { name: /Pre-Algebra Foundations/ })
          .click();
        await page.getByRole("heading", { level: 1, name: "Pre-Algebra Foundations" }).waitFor();
        await expectAccessible(page);
        await screenshot(page, `book-${theme}-${width}`);
      }
    }
  });
});

describe("a large shelf", () => {
  it("paints the first 24 books, filters on the server, and fetches the next page on scroll", async () => {
    await execSql(
      "INSERT OR IGNORE INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit) VALUES ('wide-shelf', 'Wide Shelf School', '2 Stack St', 'Boston', 'MA', '02108', 'x@y.z', 5)",
    );
    await execSql(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 70) INSERT INTO books (title, author1, description, subject, grade_level) SELECT printf('Shelf Volume %03d', i), 'Wide Author', 'Volume ' || i, CASE WHEN i = 70 THEN 'Astronomy' ELSE 'Science' END, 7 FROM n",
    );
    await execSql(
      "INSERT OR IGNORE INTO book_access (school_id, book_id) SELECT (SELECT id FROM schools WHERE slug = 'wide-shelf'), id FROM books WHERE title LIKE 'Shelf Volume %'",
    );
    await execSql(
      "INSERT OR IGNORE INTO teachers (school_id, name, email, mobile, password_hash) SELECT id, 'Demo Teacher', 'demo.teacher@wide-shelf.example.org', '5550000000', (SELECT password_hash FROM teachers WHERE email = 'demo.teacher@lincoln-high.example.org') FROM schools WHERE slug = 'wide-shelf'",
    );
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "wide-shelf");
    await page.goto(`${baseURL()}/schools/wide-shelf/dashboard`);
    await hydrated(page);
    expect(await cards(page).count()).toBe(24);
    expect(await page.getByText("70 book(s) available").isVisible()).toBe(true);
    // Volume 070 is not on the first page, but the chip and the search find it.
    await page.getByRole("radio", { name: "Astronomy" }).click();
    await expect.poll(() => cards(page).allTextContents()).toEqual(["Shelf Volume 070"]);
    await page.getByRole("radio", { name: "All subjects" }).click();
    await expect.poll(() => cards(page).count()).toBe(24);
    await page.getByRole("button", { name: "Show more books" }).click();
    await expect.poll(() => cards(page).count()).toBe(70);
  });
});

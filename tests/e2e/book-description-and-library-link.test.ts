import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, openPage, setupBrowser } from "./browser.ts";
import { execSql, signInDemoTeacher } from "./support.ts";

setupBrowser();

// In Chromium (issue 16, items 2 and 8): a book's description tooltip on a touch screen and with a
// mouse, and the library page linked from the sidebar. (A dropped connection between pages is covered by
// tests/component/school-errors.test.tsx with the real route boundaries.)

// A teacher who has not started a book: no 'Continue reading' row with a second link per book.
beforeAll(() => execSql("DELETE FROM reading_progress WHERE teacher_id IN (SELECT id FROM teachers WHERE email LIKE 'demo.teacher@%')"));

const PHONE = { width: 390, height: 844, context: { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } };
const dashboard = () => `${baseURL()}/schools/lincoln-high/dashboard`;
const tooltip = (page: Page) => page.getByRole("tooltip").filter({ hasText: "Linear equations" });

describe("the (i) description", () => {
  it("a tap on a touch screen opens it and leaves it open; the next tap closes it", async () => {
    const page = await openPage(PHONE);
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(dashboard());
    const about = page.getByRole("button", { name: "About Algebra I" });
    await about.tap();
    await tooltip(page).waitFor();
    // Still open once the tap's emulated mouse events and the close delay have passed.
    await page.waitForTimeout(600);
    expect(await tooltip(page).isVisible()).toBe(true);
    expect(await about.getAttribute("aria-expanded")).toBe("true");
    await about.tap();
    await page.waitForTimeout(100);
    expect(await tooltip(page).isVisible()).toBe(false);
  });

  it("with a mouse, a click on (i) after hovering keeps it open, and the next click closes it", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(dashboard());
    const about = page.getByRole("button", { name: "About Algebra I" });
    await about.hover();
    await tooltip(page).waitFor();
    await about.click();
    await page.waitForTimeout(500);
    expect(await tooltip(page).isVisible()).toBe(true);
    await about.click();
    await page.waitForTimeout(100);
    expect(await tooltip(page).isVisible()).toBe(false);
  });
});

describe("the library page", () => {
  it("is linked from the school's sidebar", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(dashboard());
    await page.getByRole("navigation", { name: "School" }).getByRole("link", { name: "Library" }).click();
    await page.waitForURL(`${baseURL()}/schools/lincoln-high/books`);
    await page.getByRole("heading", { level: 1, name: "Library" }).waitFor();
  });
});

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";

setupBrowser();

async function expectSchoolPortal(page: Page, name: string, address: string) {
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(name);
  expect(await page.getByText(address, { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole("heading", { name: "Teacher Login" }).isVisible()).toBe(true);
  expect(await page.getByText(`Access books for ${name}`).isVisible()).toBe(true);
  expect(await page.getByLabel("Email").isVisible()).toBe(true);
  expect(await page.getByLabel("Password", { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Forgot Password?" }).isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Login" }).isVisible()).toBe(true);
  expect(await page.getByText("First time here?").isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Register here" }).isVisible()).toBe(true);
  expect(await page.locator("header").getByText("Lectern").isVisible()).toBe(true);
  expect(await page.locator("footer").textContent()).toContain("Lectern Press");
}

describe("school page", () => {
  it("by short path", async () => {
    const page = await openPage();
    expect((await page.goto(`${baseURL()}/lincoln-high`))?.status()).toBe(200);
    await expectSchoolPortal(page, "Lincoln High School", "1200 Lincoln Avenue, Springfield, IL, 62704");
    await screenshot(page, "school-lincoln-high-1280");
  });

  it("by /schools/{slug}, with the optional address parts it has", async () => {
    const page = await openPage({ width: 375, height: 812 });
    expect((await page.goto(`${baseURL()}/schools/lincoln-academy`))?.status()).toBe(200);
    await expectSchoolPortal(page, "Lincoln Academy", "88 Academy Road, Suite 2, North Campus, Lincoln, NE, 68508");
    await screenshot(page, "school-lincoln-academy-375");
  });

  it("on its own subdomain", async () => {
    const page = await openPage();
    expect((await page.goto(subdomainURL("washington-elementary")))?.status()).toBe(200);
    await expectSchoolPortal(page, "Washington Elementary", "45 Cherry Lane, Building B, Arlington, VA, 22201");
    await screenshot(page, "school-subdomain-1280");
  });

  it("keeps the subdomain form for its links", async () => {
    const page = await openPage();
    await page.goto(subdomainURL("lincoln-high", "/dashboard"));
    // No teacher is signed in, so the dashboard sends the visitor to the login at the subdomain root.
    expect(new URL(page.url()).host).toBe(new URL(subdomainURL("lincoln-high")).host);
    expect(new URL(page.url()).pathname).toBe("/");
  });

  it("hydrates only its login island, not the whole app", async () => {
    const page = await openPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${baseURL()}/lincoln-high`);
    expect(scripts.some((path) => /\/island-teacher-portal-[\w-]+\.js$/.test(path))).toBe(true);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    // The island is live: the dialog opens and its state is React's.
    await page.getByRole("button", { name: "Register here" }).click();
    await page.getByRole("dialog", { name: "Register as a Teacher" }).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
  });

  it("shows the login validation message without calling the server", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/lincoln-high`);
    await page.getByRole("button", { name: "Login" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Please enter both email and password");
  });

  it("an unknown school by path says 'School Not Found'", async () => {
    const page = await openPage();
    expect((await page.goto(`${baseURL()}/schools/atlantis-high`))?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "School Not Found" }).isVisible()).toBe(true);
    expect(await page.getByText("The school you're looking for doesn't exist or has been removed.").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Return to Home" }).getAttribute("href")).toBe("/");
    await screenshot(page, "school-not-found-1280");
  });

  it("an unknown subdomain says 'School Not Found'", async () => {
    const page = await openPage();
    expect((await page.goto(subdomainURL("atlantis-high")))?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "School Not Found" }).isVisible()).toBe(true);
  });
});

describe("theme", () => {
  it("is light by default, and dark survives a reload without a flash", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/lincoln-high`);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(await isDark()).toBe(false);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("vite-ui-theme"))).toBe("dark");

    // Record the theme at the moment <body> starts, before any module script can run: only the
    // inline head script can have applied it by then, so there is no flash of the light theme.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        (window as unknown as { darkAtBody: boolean }).darkAtBody = document.documentElement.classList.contains("dark");
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { darkAtBody: boolean }).darkAtBody)).toBe(true);
    expect(await isDark()).toBe(true);
    await screenshot(page, "school-dark-1280");

    await page.reload();
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await page.reload();
    expect(await isDark()).toBe(false);
  });
});

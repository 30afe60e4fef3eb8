import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";

setupBrowser();

describe("landing page", () => {
  it("shows the hero, demo schools, dashboards, features and publisher footer", async () => {
    const page = await openPage();
    const response = await page.goto(`${baseURL()}/`);
    expect(response?.status()).toBe(200);
    const hero = page.locator("main section").first();
    expect(await hero.getByRole("link", { name: "Admin Dashboard" }).getAttribute("href")).toBe("/admin");
    await expect.poll(() => page.getByRole("heading", { name: "Demo Schools" }).isVisible()).toBe(true);
    for (const [name, slug] of [
      ["Lincoln High School", "lincoln-high"],
      ["Washington Elementary", "washington-elementary"],
    ]) {
      const card = page.locator("article", { has: page.getByRole("heading", { name }) });
      expect(await card.getByRole("link", { name: "Access School Portal" }).getAttribute("href")).toBe(`/${slug}`);
    }
    const dashboards = await page.locator('a[href$="/dashboard"]').evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(dashboards).toEqual([
      "/schools/washington-high/dashboard",
      "/schools/lincoln-academy/dashboard",
      "/schools/roosevelt-elementary/dashboard",
    ]);
    await expect.poll(() => page.getByRole("heading", { name: "Key Features" }).isVisible()).toBe(true);
    for (const feature of ["Digital Book Management", "School-Specific Access", "Login Management"]) {
      expect(await page.getByRole("heading", { name: feature }).isVisible()).toBe(true);
    }
    const footer = page.locator("footer");
    expect(await footer.textContent()).toContain("1200 Printers Row");
    expect(await footer.locator('a[href^="tel:"]').count()).toBe(2);
    expect(await footer.locator('a[href="mailto:schools@lectern.example"]').count()).toBe(1);
    await screenshot(page, "landing-1280");
  });

  it("'Learn More' is a button that does nothing (the spec); the header's 'Features' link scrolls to Key Features", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/`);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const learnMore = page.getByRole("button", { name: "Learn More" });
    await learnMore.focus();
    await page.keyboard.press("Enter");
    await learnMore.click();
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${baseURL()}/`);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.locator("header").getByRole("link", { name: "Features" }).click();
    // Key Features sits near the end of the page, so "scrolled to" means: its heading is on screen.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    const heading = page.getByRole("heading", { name: "Key Features" });
    await expect.poll(async () => (await heading.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((await heading.boundingBox())!.y).toBeLessThan(900 - 100);
  });

  it("runs no script of the app: links, anchors and the theme toggle work as plain HTML", async () => {
    const page = await openPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(`${baseURL()}/`);
    expect(scripts).toEqual([]);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("vite-ui-theme"))).toBe("dark");
    await expect.poll(() => page.getByRole("button", { name: "Switch to light theme" }).count()).toBe(1);
    await page.getByRole("link", { name: "Admin Dashboard" }).click();
    await page.waitForURL(/\/admin\/login/);
  });

  it("every link leads somewhere real", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/`);
    const hrefs = [...new Set(await page.locator("a[href^='/']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!)))];
    expect(hrefs).toEqual(expect.arrayContaining(["/", "/admin", "/lincoln-high", "/washington-elementary"]));
    // /admin included: a visitor lands on the admin sign-in.
    for (const href of hrefs) {
      const response = await page.request.get(`${baseURL()}${href}`);
      expect(response.status(), href).toBe(200);
      expect(await response.text(), href).not.toContain("Page Not Found");
    }
  });

  it("the demo dashboard links take a visitor to that school's login", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/`);
    await page.getByRole("link", { name: /Lincoln Academy/ }).click();
    await page.waitForURL((url) => url.pathname === "/schools/lincoln-academy");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/schools/lincoln-academy/dashboard");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Lincoln Academy");
  });

  it("looks right on a phone", async () => {
    const page = await openPage({ width: 375, height: 812 });
    await page.goto(`${baseURL()}/`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, "landing-375");
  });
});

describe("not found", () => {
  it("shows 'Page Not Found' with a 404 and the way back", async () => {
    const page = await openPage();
    const response = await page.goto(`${baseURL()}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Page Not Found" }).isVisible()).toBe(true);
    expect(await page.getByText("The page you are looking for does not exist or has been moved.").isVisible()).toBe(true);
    const main = page.locator("main");
    expect(await main.locator('a[href="/admin"]').count()).toBe(1);
    expect(await main.locator('a[href="/"]').count()).toBe(1);
    await screenshot(page, "not-found-1280");
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { signInDemoTeacher } from "./support.ts";

setupBrowser();

const NO_MARK = "No mark found. The image may not come from Lectern, or too little of a page is left in it.";

/** A PNG of `width` x `height` that no Lectern page became: a holiday snapshot's sky, sea and sun. */
async function pngFile(name: string, width: number, height: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="60%" fill="#7ab8f5"/><rect y="60%" width="100%" height="40%" fill="#1d5f8a"/>
    <circle cx="${width * 0.75}" cy="${height * 0.3}" r="${Math.min(width, height) * 0.12}" fill="#ffd54a"/>
  </svg>`;
  const path = join(mkdtempSync(join(tmpdir(), "lectern-e2e-")), name);
  writeFileSync(path, await sharp(Buffer.from(svg)).png().toBuffer());
  return path;
}

/** Opens the page signed out: the admin login first, then back to the page. */
async function signInToTrace(page: Page) {
  await page.goto(`${baseURL()}/admin/leaks`);
  await page.waitForURL(/\/admin\/login/);
  await page.getByLabel("Email").fill(inject("demo").adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(inject("demo").adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Trace a leak" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/admin/leaks");
}

/** A full-page picture from the top: the sticky header would otherwise be drawn over the middle. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function expectAccessible(page: Page) {
  // Colours ease in over 150 ms (Tailwind's transition-colors): axe measured mid-transition reads a
  // button half-way between themes (a CI run failed so on .bg-indigo-600, dark theme).
  await page.waitForTimeout(400);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

describe("Trace a leak", () => {
  // A trace that finds nothing has tried every stored page of the day (about 20 to 30 s in the local
  // workerd, 31 s at this file's last two runs on a quiet machine); a run beside the other test
  // projects ran past 30 s, so the wait for the answer is 75 s and the test's own limit 120 s.
  it("an admin uploads an image that is no Lectern page and is told no mark was found", { timeout: 120_000 }, async () => {
    const page = await openPage();
    await signInToTrace(page);
    expect(await page.title()).toBe("Trace a leak · Lectern Admin");
    const link = page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Trace a leak" });
    expect(await link.getAttribute("aria-current")).toBe("page");

    await page.getByLabel("Leaked page image").setInputFiles(await pngFile("holiday.png", 800, 600));
    await page.getByRole("img", { name: "The chosen image, holiday.png" }).waitFor();
    await page.getByRole("button", { name: "Trace" }).click();
    await page.getByText(NO_MARK).waitFor({ timeout: 75_000 });
    expect(await page.getByRole("button", { name: "Trace another image" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await shoot(page, "admin-leaks-1280");
  });

  it("shows the server's refusal in an alert, and fits a phone in the dark theme", async () => {
    // The browser logs the refused request (400) as an error; the test expects it.
    const page = await openPage({ width: 390, height: 844, allowStatus: [400] });
    await page.addInitScript(() => localStorage.setItem("vite-ui-theme", "dark"));
    await signInToTrace(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

    // Too small to hold a page: the server says so, and the page shows its words.
    await page.getByLabel("Leaked page image").setInputFiles(await pngFile("icon.png", 16, 16));
    await page.getByRole("button", { name: "Trace" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("The image is too small to hold a page (at least 32 x 32 pixels)");

    await page.getByLabel("Leaked page image").setInputFiles(await pngFile("holiday.png", 600, 900));
    expect(await alert.count()).toBe(0);
    await page.getByRole("button", { name: "Trace" }).click();
    await page.getByText(NO_MARK).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expectAccessible(page);
    await shoot(page, "admin-leaks-dark-390");
  });

  it("traces a demo teacher's own page image back to them, the day and the book", async () => {
    const teacher = await openPage();
    await signInDemoTeacher(teacher, baseURL(), "lincoln-high");
    const taken = await teacher.evaluate(async () => {
      const { books } = (await (await fetch("/api/schools/slug/lincoln-high/books")).json()) as { books: { id: number; title: string }[] };
      for (const { id, title } of books) {
        if ((await fetch(`/api/books/${id}/pages`)).status !== 200) continue;
        const image = await fetch(`/api/books/${id}/pages/1?w=1024`);
        return { title, type: image.headers.get("Content-Type") ?? "", bytes: [...new Uint8Array(await image.arrayBuffer())] };
      }
      return null;
    });
    expect(taken?.type).toMatch(/^image\/(png|jpeg|webp)$/);
    const path = join(mkdtempSync(join(tmpdir(), "lectern-e2e-")), `page.${taken!.type.slice(6)}`);
    writeFileSync(path, Uint8Array.from(taken!.bytes));

    const page = await openPage();
    await signInToTrace(page);
    await page.getByLabel("Leaked page image").setInputFiles(path);
    await page.getByRole("button", { name: "Trace" }).click();
    await page.getByText("Tracing… this takes a few seconds").waitFor();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Demo Teacher" }) });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole("link", { name: "demo.teacher@lincoln-high.example.org" }).getAttribute("href")).toBe(
      "mailto:demo.teacher@lincoln-high.example.org",
    );
    const today = new Date().toLocaleDateString("en-US", {
      weekday: "short",
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    });
    const text = await card.textContent();
    expect(text).toContain(today);
    expect(text).toContain("Page1");
    expect(text).toMatch(/How sure(Certain|Very likely) \(99\.\d+ %\)/);
    expect(await card.getByRole("link", { name: taken!.title }).getAttribute("href")).toMatch(/^\/admin\/book\/\d+$/);
    await expectAccessible(page);
    await shoot(page, "admin-leaks-match-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expectAccessible(page);
    await shoot(page, "admin-leaks-match-dark-390");
  });
});

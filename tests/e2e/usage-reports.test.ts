// Usage reports end to end (issue #17): a teacher reads three pages; the admin's overview and the
// school's page count them; the reports download as CSV files that parse.

import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { adminLogin, registerTeacherByMail, uniqueEmail } from "./support.ts";

setupBrowser();

const SLUG = "washington-high";
const NAME = `Rory Usage ${Date.now().toString(36)}`;

/** The figure a card shows under its label, as a number ("4,281" → 4281). */
async function figure(page: Page, label: string): Promise<number> {
  const value = await page
    .locator("dl", { has: page.locator("dt", { hasText: label }) })
    .first()
    .locator("dd")
    .first()
    .textContent();
  return Number((value ?? "").replaceAll(",", ""));
}

/** RFC 4180 rows of a downloaded file (quoted cells, doubled quotes, CRLF), after its byte-order mark. */
function parseCsv(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ",") {
      endCell();
    } else if (!quoted && char === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else {
      cell += char;
    }
  }
  return rows;
}

async function download(page: Page, card: string, link = "Download CSV"): Promise<string[][]> {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page
      .locator(`section[aria-labelledby="report-${card.toLowerCase().replaceAll(" ", "-")}"]`)
      .getByRole("link", { name: link })
      .click(),
  ]);
  return parseCsv(readFileSync((await file.path())!, "utf8"));
}

describe("usage reports", () => {
  it("count three pages a teacher reads, on the overview and the school's page, and export them as CSV", { timeout: 120_000 }, async () => {
    const admin = await openPage({ allowStatus: [401] });
    await adminLogin(admin);
    // Reading the earlier test files did is sent to D1 by each school's object within five minutes:
    // every school's object flushes first (a report about one school does), so none lands mid-test.
    await admin.goto(`${baseURL()}/admin`);
    await admin.evaluate(async () => {
      const { schools } = (await (await fetch("/api/schools?pageSize=100")).json()) as { schools: { id: number }[] };
      const day = new Date().toISOString().slice(0, 10);
      for (const { id } of schools) await fetch(`/api/reports/usage?schoolId=${id}&from=${day}&to=${day}`);
    });
    await admin.goto(`${baseURL()}/admin?range=7`);
    const before = await figure(admin, "Pages read");

    // The teacher reads pages 1 to 3 of their school's first prepared book, as the reader asks for them.
    const reader = await openPage();
    await registerTeacherByMail(reader, baseURL(), { slug: SLUG, name: NAME, email: uniqueEmail("usage"), password: "orchard lantern 42" });
    const served = await reader.evaluate(async (slug) => {
      const { books } = (await (await fetch(`/api/schools/slug/${slug}/books`)).json()) as { books: { id: number }[] };
      for (const { id } of books) {
        if ((await fetch(`/api/books/${id}/pages`)).status !== 200) continue;
        const statuses = [];
        for (const n of [1, 2, 3]) statuses.push((await fetch(`/api/books/${id}/pages/${n}?w=1024`)).status);
        return { id, statuses };
      }
      return null;
    }, SLUG);
    expect(served?.statuses).toEqual([200, 200, 200]);

    // A school's own page is up to the minute: opening it flushes the school's object (docs/decisions/0024).
    const schoolId = await admin.evaluate(async (slug) => {
      const { schools } = (await (await fetch(`/api/schools?query=${slug}`)).json()) as { schools: { id: number; slug: string }[] };
      return schools.find((school) => school.slug === slug)?.id;
    }, SLUG);
    await admin.goto(`${baseURL()}/admin/school/${schoolId}`);
    const early = admin.locator('section[aria-labelledby="report-reading-by-teacher"] tr', { hasText: NAME });
    await early.waitFor();
    expect(await early.locator("td").nth(3).textContent()).toBe("3");

    // The overview (at most one flush behind, and that flush just ran) counts them: the 7-day figure
    // moves by exactly three, with its chart and text summary.
    await admin.goto(`${baseURL()}/admin?range=7`);
    expect(await figure(admin, "Pages read")).toBe(before + 3);
    const chart = admin.locator('section[aria-labelledby="usage-heading"] svg[role="img"]');
    expect(await chart.getAttribute("aria-label")).toMatch(/^Pages read per day for all schools, .+: [\d,]+ in total/);
    // On a busy machine the chart can be painted before React has hydrated it: hover once its
    // handlers are attached (React's props sit on the DOM nodes), and again if the first one was lost.
    await admin.waitForFunction(() => {
      const svg = document.querySelector('section[aria-labelledby="usage-heading"] svg[role="img"]');
      return (
        svg !== null && [svg, ...svg.querySelectorAll("*")].some((node) => Object.keys(node).some((key) => key.startsWith("__reactProps")))
      );
    });
    const tooltip = admin.getByRole("status").filter({ hasText: "Pages read:" });
    await vi.waitFor(
      async () => {
        await admin.mouse.move(0, 0);
        await chart.hover();
        await tooltip.waitFor({ timeout: 3_000 });
      },
      { timeout: 30_000, interval: 200 },
    );
    await screenshot(admin, "usage-overview-1280");
    const axe = await new AxeBuilder({ page: admin }).include('section[aria-labelledby="usage-heading"]').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Another range is a client-side visit: the overview follows with the longer range's figures.
    await admin.getByRole("navigation", { name: "Report range" }).getByRole("link", { name: "30 days" }).click();
    await admin.waitForURL(/range=30/);
    await admin.getByRole("link", { name: "30 days", exact: true }).and(admin.locator('[aria-current="page"]')).waitFor();
    expect(await figure(admin, "Pages read")).toBeGreaterThanOrEqual(before + 3);
    await admin.getByRole("navigation", { name: "Report range" }).getByRole("link", { name: "7 days" }).click();
    await admin.waitForURL(/range=7/);

    // The overview's day-by-day CSV: a header and one row per day of the range, today's holding the pages.
    const days = await download(admin, "Reading per day");
    expect(days[0]).toEqual(["date", "activeTeachers", "booksOpened", "pagesRead", "readingMinutes"]);
    expect(days).toHaveLength(8);
    expect(Number(days.at(-1)![3])).toBeGreaterThanOrEqual(3);

    // The school's page lists the teacher with their three pages; its teachers' CSV says the same.
    await admin.getByRole("link", { name: "Washington High School" }).first().click();
    await admin.waitForURL(/\/admin\/school\/\d+/);
    const row = admin.locator('section[aria-labelledby="report-reading-by-teacher"] tr', { hasText: NAME });
    await row.waitFor();
    expect(await row.locator("td").nth(3).textContent()).toBe("3");
    expect(await row.locator("td").nth(2).textContent()).toBe("1");
    const teachers = await download(admin, "Reading by teacher");
    expect(teachers[0]).toEqual(["teacherId", "name", "email", "status", "lastActive", "booksOpened", "pagesRead", "readingMinutes"]);
    const mine = teachers.find((cells) => cells[1] === NAME);
    expect(mine?.slice(3, 7)).toEqual(["active", new Date().toISOString().slice(0, 10), "1", "3"]);
    await screenshot(admin, "usage-school-1280");
  });
});

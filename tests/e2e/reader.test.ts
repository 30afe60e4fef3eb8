import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";
import { execSql, signInDemoTeacher } from "./support.ts";

setupBrowser();

const rendered = (page: Page, n: number) => page.locator(`[data-page-number="${n}"][data-rendered="true"]`).waitFor({ timeout: 30_000 });

/**
 * Opens a book of the demo teacher's school in the reader. By address rather than by clicks: the
 * 'Continue reading' row can shift the grid under the pointer (clicks are covered elsewhere).
 */
async function openBook(page: Page, origin: string, base: string, slug: string, title: string) {
  await signInDemoTeacher(page, origin, slug);
  await page.goto(`${base}/dashboard`);
  await page.locator("#dashboard-search").fill(title);
  const card = await page
    .locator("main article")
    .getByRole("link", { name: new RegExp(title) })
    .first()
    .getAttribute("href");
  await page.goto(new URL(`${card}/view`, page.url()).toString());
  // Not necessarily page 1: the reader opens where this teacher stopped last time.
  await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
  return Number(/book\/(\d+)\/view/.exec(page.url())?.[1]);
}

/** How much of a page's canvas is painted (not white), and how much is in the watermark's tone. */
function inspectCanvas(page: Page, n: number) {
  return page.evaluate((pageNumber) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`[data-page-number="${pageNumber}"] canvas`)!;
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    let watermark = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (r < 250 || g < 250 || b < 250) ink++;
      if (Math.abs(r - 230) <= 3 && Math.abs(g - 231) <= 3 && Math.abs(b - 233) <= 3) watermark++;
    }
    return { ink, watermark, pixels: data.length / 4 };
  }, n);
}

describe("the protected reader", () => {
  it("paints the book with the watermark, turns pages, and resumes where the teacher stopped", async () => {
    const page = await openPage();
    const base = `${baseURL()}/schools/lincoln-high`;
    const bookId = await openBook(page, baseURL(), base, "lincoln-high", "Algebra I");
    await rendered(page, 1);
    expect(await page.locator("[data-reader]").getAttribute("data-page-count")).toBe("24");
    const first = await inspectCanvas(page, 1);
    expect(first.ink / first.pixels).toBeGreaterThan(0.05);
    expect(first.watermark).toBeGreaterThan(10_000);
    await screenshot(page, "reader-1280");

    await page.getByRole("button", { name: "Next page" }).click();
    await rendered(page, 2);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("2");
    const second = await inspectCanvas(page, 2);
    expect(second.ink / second.pixels).toBeGreaterThan(0.05);
    await page.keyboard.press("ArrowRight");
    await rendered(page, 3);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("3");

    // The page is saved after a short pause; the next visit opens there.
    await page.waitForTimeout(2000);
    await page.goto(`${base}/dashboard/book/${bookId}/view`);
    await rendered(page, 3);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("3");
    await page.keyboard.press("End");
    await rendered(page, 24);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("24");

    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.goto(`${base}/dashboard`);
    const row = page.getByRole("region", { name: "Continue reading" });
    await row.getByText("Algebra I").waitFor();
    expect(await row.getByText(/^Page (3|24) of 24$/).count()).toBe(1);
  });

  it("offers nothing to save or print", async () => {
    const page = await openPage();
    await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Calculus");
    await rendered(page, 1);
    const prevented = await page.evaluate(() => {
      const event = new MouseEvent("contextmenu", { bubbles: true, cancelable: true });
      document.querySelector("[data-page-number='1'] canvas")!.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
    await page.keyboard.press("Control+s");
    expect(await page.getByRole("status").filter({ hasText: "Saving and printing are turned off for this book." }).isVisible()).toBe(true);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("[data-reader]").isVisible()).toBe(false);
    await page.emulateMedia({ media: "screen" });
    expect(await page.locator("text=Copy").count()).toBe(0);
    // No text layer: there is no selectable text of the book in the page.
    expect(await page.evaluate(() => document.querySelector("[data-reader]")!.textContent!.includes("Calculus: A First Course"))).toBe(
      true,
    );
    expect(await page.locator(".textLayer, [data-text-layer]").count()).toBe(0);
  });

  it("works on the school's subdomain and on a phone", async () => {
    const page = await openPage({ width: 375, height: 740 });
    const origin = subdomainURL("lincoln-high", "").replace(/\/$/, "");
    await openBook(page, origin, origin, "lincoln-high", "Geometry");
    await rendered(page, 1);
    const { ink } = await inspectCanvas(page, 1);
    expect(ink).toBeGreaterThan(1000);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await screenshot(page, "reader-375");
  });

  it("a direct visit to the PDF, or a frame of it, gets nothing", async () => {
    // The CSP's refusals of the embed, the object and the frame are logged: they are the point.
    const page = await openPage({ allowStatus: [403, 404], allowConsole: [/Content Security Policy/] });
    const bookId = await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Algebra I");
    const direct = await page.goto(`${baseURL()}/api/books/${bookId}/pdf`);
    expect(direct?.status()).toBe(403);
    expect(direct?.headers()["content-type"]).toContain("application/json");
    expect((await direct?.body())?.subarray(0, 5).toString()).not.toBe("%PDF-");

    await page.goto(`${baseURL()}/api/health`);
    const statuses: number[] = [];
    page.on("response", (r) => r.url().includes(`/api/books/${bookId}/pdf`) && statuses.push(r.status()));
    await page.evaluate((id) => {
      const url = `/api/books/${id}/pdf`;
      document.body.insertAdjacentHTML("beforeend", `<iframe src="${url}"></iframe><embed src="${url}"><object data="${url}"></object>`);
    }, bookId);
    // <embed> and <object> are stopped by the CSP (object-src 'none') before any request; the
    // frame's request reaches the server, which refuses it (Sec-Fetch-Dest: iframe).
    await expect.poll(() => statuses.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    expect(
      statuses.every((s) => s === 403),
      String(statuses),
    ).toBe(true);
  });

  it("a teacher of another school cannot read it", async () => {
    const page = await openPage({ allowStatus: [403, 404] });
    const bookId = await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Calculus");
    await signInDemoTeacher(page, baseURL(), "washington-elementary");
    const response = await page.goto(`${baseURL()}/schools/washington-elementary/dashboard/book/${bookId}/view`);
    expect(response?.status()).toBe(404);
    await page.getByText("Failed to load book details").waitFor();
    expect(await page.getByRole("heading", { name: "Error Loading PDF" }).isVisible()).toBe(true);
    const status = await page.evaluate(
      async (id) => (await fetch(`/api/books/${id}/pdf`, { method: "HEAD", headers: { "X-Lectern-Reader": "1" } })).status,
      bookId,
    );
    expect(status).toBe(404);
  });

  it("says so when a book has no PDF", async () => {
    const page = await openPage({ allowStatus: [404] });
    await signInDemoTeacher(page, baseURL(), "washington-high");
    await page.goto(`${baseURL()}/schools/washington-high/dashboard`);
    await page.locator("#dashboard-search").fill("atlas");
    const href = await page.getByRole("link", { name: /World Atlas/ }).getAttribute("href");
    await page.goto(`${baseURL()}${href}/view`);
    await page.getByText("This book does not have a PDF file available").waitFor();
  });
});

describe("the admin reader", () => {
  it("reads without the teacher restrictions and offers the download", async () => {
    const token = "e2e-admin-session-token-0123456789abcdefghijkl";
    const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
    const hex = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
    await execSql(
      `INSERT OR REPLACE INTO sessions (token_hash, kind, admin_id, created_at, last_seen_at, expires_at) SELECT '${hex}', 'admin', id, ${Date.now()}, ${Date.now()}, ${Date.now() + 3_600_000} FROM admins WHERE role = 'admin' LIMIT 1`,
    );
    const page = await openPage();
    await page.context().addCookies([{ name: "lectern_admin", value: token, url: baseURL() }]);
    await signInDemoTeacher(page, baseURL(), "lincoln-high");
    await page.goto(`${baseURL()}/schools/lincoln-high/dashboard`);
    await page.locator("#dashboard-search").fill("Algebra I");
    const bookId = /book\/(\d+)/.exec(
      (await page
        .getByRole("link", { name: /Algebra I/ })
        .first()
        .getAttribute("href")) ?? "",
    )?.[1];

    await page.goto(`${baseURL()}/admin/pdf-viewer/${bookId}`);
    await page.waitForURL(`${baseURL()}/admin/pdf/${bookId}`);
    await rendered(page, 1);
    expect(await page.getByRole("link", { name: "Back to Books" }).getAttribute("href")).toBe("/admin/books");
    const download = page.getByRole("link", { name: "Download" });
    expect(await download.getAttribute("href")).toBe(`/api/books/${bookId}/pdf`);
    const file = await page.request.get(`${baseURL()}/api/books/${bookId}/pdf`);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-disposition"]).toContain("attachment");
    expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");
    const { watermark } = await inspectCanvas(page, 1);
    expect(watermark).toBeLessThan(1000);
  });

  it("answers the spec's errors", async () => {
    const page = await openPage({ allowStatus: [404] });
    await page.context().addCookies([{ name: "lectern_admin", value: "e2e-admin-session-token-0123456789abcdefghijkl", url: baseURL() }]);
    await page.goto(`${baseURL()}/admin/pdf/99999999`);
    await page.getByText("Failed to load book details").waitFor();
    await page.goto(`${baseURL()}/admin/pdf/abc`);
    await page.getByText("No book ID provided").waitFor();
    await page.goto(`${baseURL()}/admin/pdf-viewer`);
    expect(new URL(page.url()).pathname).toBe("/admin/books");
  });
});

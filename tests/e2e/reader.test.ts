import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";
import { execSql, openBookFromDashboard, signInDemoTeacher } from "./support.ts";

setupBrowser();

const rendered = (page: Page, n: number) => page.locator(`[data-page-number="${n}"][data-rendered="true"]`).waitFor({ timeout: 30_000 });

/** Opens a book of the demo teacher's school in the reader, by its title; answers its id. */
async function openBook(page: Page, origin: string, base: string, slug: string, title: string) {
  await signInDemoTeacher(page, origin, slug);
  const bookId = await openBookFromDashboard(page, base, title);
  // Not necessarily page 1: the reader opens where this teacher stopped last time.
  await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
  return bookId;
}

/**
 * How much of a page is painted (not white), and how much is in the watermark's tone: its canvas in
 * the admin's pdf.js view, else its image (drawn onto a canvas to read it).
 */
function inspectCanvas(page: Page, n: number) {
  return page.evaluate((pageNumber) => {
    const shown = document.querySelector(`[data-page-number="${pageNumber}"]`)!;
    let canvas = shown.querySelector("canvas");
    if (!canvas) {
      const image = shown.querySelector("img")!;
      canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext("2d")!.drawImage(image, 0, 0);
    }
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

/** The decoded size of page n's image in the teacher reader (0 while it has none). */
const imageWidth = (page: Page, n: number) =>
  page.evaluate((pageNumber) => document.querySelector<HTMLImageElement>(`[data-page-number="${pageNumber}"] img`)?.naturalWidth ?? 0, n);

/** Every request the page makes for the book's files, to prove the PDF never leaves. */
function recordBookRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/books\/\d+\//.test(request.url())) urls.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  return urls;
}

/** A longish word of page n's text layer (what a screen reader reads there). */
async function wordOnPage(page: Page, n: number, total: number): Promise<string> {
  const region = page.getByRole("region", { name: `Page ${n} of ${total}` });
  await expect.poll(async () => (await region.innerText()).trim().length, { timeout: 15_000 }).toBeGreaterThan(20);
  const words = (await region.innerText()).match(/[A-Za-z]{7,}/g) ?? [];
  expect(words.length).toBeGreaterThan(0);
  return words[0]!;
}

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "region" || v.id === "scrollable-region-focusable")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(found).toEqual([]);
}

describe("the teacher's reader", () => {
  it("shows the book as page images with a text layer, never asks for the PDF, turns pages and resumes", async () => {
    const page = await openPage();
    const requests = recordBookRequests(page);
    const images: { status: number; type: string; cache: string }[] = [];
    page.on("response", (r) => {
      if (/\/api\/books\/\d+\/pages\/\d+\?w=/.test(r.url())) {
        images.push({ status: r.status(), type: r.headers()["content-type"] ?? "", cache: r.headers()["cache-control"] ?? "" });
      }
    });
    const loads: string[] = [];
    page.on("request", (r) => {
      if (/\/api\/books\/\d+\/pages/.test(r.url()))
        loads.push(`${r.resourceType()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    });
    const base = `${baseURL()}/schools/lincoln-high`;
    const bookId = await openBook(page, baseURL(), base, "lincoln-high", "Algebra I");
    await rendered(page, 1);
    expect(await page.locator("[data-reader]").getAttribute("data-page-count")).toBe("24");
    // Page 1's preview paints first; the sharp image of the width the screen needs replaces it.
    await expect.poll(() => imageWidth(page, 1)).toBe(1024);
    expect(images[0]).toMatchObject({ status: 200, type: expect.stringMatching(/^image\//), cache: expect.stringContaining("no-store") });
    // The page list came with the HTML, and so did page 1's preview: the browser loaded it as an
    // image of the document, once (no /pages); the sharp one came once, through the reader's store.
    expect(loads.filter((load) => load.endsWith("/pages"))).toEqual([]);
    expect(loads.filter((load) => load.includes("/pages/1?w="))).toEqual([
      `image /api/books/${bookId}/pages/1?w=640`,
      `fetch /api/books/${bookId}/pages/1?w=1024`,
    ]);
    // Only the pages near the view have an image; the rest are empty boxes of the right size.
    expect(await page.locator("[data-page-number] img").count()).toBeLessThanOrEqual(4);
    expect(await page.locator("[data-page-number]").count()).toBe(24);
    const word = await wordOnPage(page, 1, 24);
    await screenshot(page, "reader-1280");

    await page.getByRole("button", { name: "Next page" }).click();
    await rendered(page, 2);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("2");
    await page.keyboard.press("ArrowRight");
    await rendered(page, 3);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("3");
    await page.keyboard.press("PageUp");
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("2");
    await page.keyboard.press("Space");
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("3");

    // Zoomed past about 150 %, the sharper image is asked for.
    for (let i = 0; i < 3; i++) await page.keyboard.press("+");
    await expect.poll(() => imageWidth(page, 3), { timeout: 15_000 }).toBe(2048);
    await page.getByRole("button", { name: "Fit width" }).click();

    // The page is saved after a short pause; the next visit opens there.
    await page.waitForTimeout(2000);
    await page.goto(`${base}/dashboard/book/${bookId}/view`);
    await rendered(page, 3);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("3");
    await page.keyboard.press("End");
    await rendered(page, 24);
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe("24");

    // Search in the book finds the word from page 1 and opens its page.
    await page.getByRole("button", { name: "Search in book" }).click();
    await page.getByRole("searchbox", { name: "Search in book" }).fill(word);
    const result = page
      .getByRole("complementary", { name: "Search in book" })
      .getByRole("button", { name: /^Page \d+/ })
      .first();
    await result.waitFor({ timeout: 15_000 });
    expect((await result.locator("mark").first().innerText()).toLowerCase()).toBe(word.toLowerCase());
    const target = Number(/^Page (\d+)/.exec(await result.innerText())?.[1]);
    await result.click();
    await expect.poll(() => page.locator("#reader-page").inputValue()).toBe(String(target));
    await rendered(page, target);
    // The match is marked on the page image too, over the word where the text layer has it.
    const targetPage = page.locator(`[data-page-number="${target}"]`);
    const mark = targetPage.locator("[data-search-marks] mark").first();
    await mark.waitFor({ timeout: 15_000 });
    expect((await mark.textContent())?.toLowerCase()).toBe(word.toLowerCase());
    const markBox = await mark.boundingBox();
    const runBox = await targetPage.locator("[data-text-layer] span", { hasText: word }).first().boundingBox();
    expect(markBox && runBox && markBox.x >= runBox.x - 2 && markBox.x + markBox.width <= runBox.x + runBox.width + 2).toBe(true);
    expect(markBox && runBox && markBox.y < runBox.y + runBox.height && markBox.y + markBox.height > runBox.y).toBe(true);
    await screenshot(page, "reader-search-1280");
    await page.getByRole("searchbox", { name: "Search in book" }).fill("zzqxjv");
    await page.getByText("No matches in this book").waitFor();
    expect(await targetPage.locator("[data-search-marks]").count()).toBe(0);
    await page.keyboard.press("Escape");

    // The Text view reads the current page as paragraphs, and turns pages too.
    await page.getByRole("button", { name: "Text view" }).click();
    const text = page.getByRole("region", { name: `Text of page ${target} of 24` });
    await expect.poll(async () => (await text.innerText()).includes(word), { timeout: 15_000 }).toBe(true);
    const other = target < 24 ? target + 1 : target - 1;
    await page.getByRole("button", { name: target < 24 ? "Next page" : "Previous page" }).click();
    await page.getByRole("region", { name: `Text of page ${other} of 24` }).waitFor();
    await page.getByRole("button", { name: "Text view" }).click();
    await rendered(page, other);

    expect(requests.filter((url) => url.includes("/pdf"))).toEqual([]);
    expect(requests.some((url) => /\/pages\/1\/text$/.test(url))).toBe(true);

    const back = page.getByRole("link", { name: "Back to Dashboard" });
    expect(await back.getAttribute("href")).toBe("/schools/lincoln-high/dashboard");
    await back.click();
    await page.waitForURL(`${base}/dashboard`);
    const row = page.getByRole("region", { name: "Continue reading" });
    await row.getByText("Algebra I").waitFor();
  });

  it("hydrates only its reader island, not the whole app nor pdf.js", async () => {
    const page = await openPage();
    await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Calculus");
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.reload();
    // The first paint is marked by the reader's own code: the island is live.
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    expect(scripts.some((path) => /\/island-page-reader-[\w-]+\.js$/.test(path))).toBe(true);
    expect(scripts.filter((path) => /entry\.client|pdf/.test(path))).toEqual([]);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    // The back link is a plain link, which the island leaves to the browser.
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${baseURL()}/schools/lincoln-high/dashboard`);
  });

  it("offers nothing to save or print", async () => {
    const page = await openPage();
    await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Calculus");
    await rendered(page, 1);
    const prevented = await page.evaluate(() => {
      const event = new MouseEvent("contextmenu", { bubbles: true, cancelable: true });
      document.querySelector("[data-page-number='1'] img")!.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
    await page.keyboard.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Saving and printing are turned off for this book." }).waitFor();
    await page.keyboard.press("Control+p");
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("[data-reader]").isVisible()).toBe(false);
    await page.emulateMedia({ media: "screen" });
    expect(await page.locator("text=Copy").count()).toBe(0);
    // The text layer is there for screen readers and find, but cannot be selected.
    expect(
      await page
        .locator("[data-text-layer]")
        .first()
        .evaluate((el) => getComputedStyle(el).userSelect),
    ).toBe("none");
  });

  it("passes axe, with the scrolling pages focusable and everything in landmarks", async () => {
    const page = await openPage();
    await openBook(page, baseURL(), `${baseURL()}/schools/lincoln-high`, "lincoln-high", "Geometry");
    await rendered(page, 1);
    await wordOnPage(page, 1, Number(await page.locator("[data-reader]").getAttribute("data-page-count")));
    await expectAccessible(page);
    // The invisible text layer, made visible: it should sit on the words of the image.
    await page.addStyleTag({ content: "[data-text-layer] { color: rgb(220 0 0 / 0.8) !important; }" });
    await screenshot(page, "reader-text-layer");
    await page.addStyleTag({ content: "[data-text-layer] { color: transparent !important; }" });
    await page.getByRole("button", { name: "Text view" }).click();
    await page.locator("[data-text-view] p").first().waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Search in book" }).click();
    await expectAccessible(page);
  });

  it("works on the school's subdomain and on a phone", async () => {
    const page = await openPage({ width: 390, height: 844 });
    const origin = subdomainURL("lincoln-high", "").replace(/\/$/, "");
    await openBook(page, origin, origin, "lincoln-high", "Geometry");
    await rendered(page, 1);
    expect(await imageWidth(page, 1)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    const full = await page.getByRole("button", { name: "Full screen" }).boundingBox();
    expect(full && full.x >= 0 && full.x + full.width <= 390 && full.y + full.height <= 844).toBe(true);
    expect(await page.getByRole("button", { name: "Fit width" }).isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Fit page" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/dashboard");
    await screenshot(page, "reader-390");

    // The Text view reflows: no sideways scrolling even at 320 px.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.getByRole("button", { name: "Text view" }).click();
    const view = page.locator("[data-text-view]");
    await view.locator("p").first().waitFor();
    expect(await view.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await screenshot(page, "reader-320-text");
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
    const statuses = await page.evaluate(
      async (id) =>
        Promise.all(
          [`/api/books/${id}/pdf`, `/api/books/${id}/pages`, `/api/books/${id}/pages/1?w=1024`, `/api/books/${id}/pages/1/text`].map(
            async (url) => (await fetch(url, { headers: { "X-Lectern-Reader": "1" } })).status,
          ),
        ),
      bookId,
    );
    // Teachers never get a PDF (403 whatever the book); the pages of another school's book do not exist.
    expect(statuses).toEqual([403, 404, 404, 404]);
  });

  it("says so when a book has no PDF", async () => {
    const page = await openPage({ allowStatus: [404] });
    await signInDemoTeacher(page, baseURL(), "washington-high");
    await page.goto(`${baseURL()}/schools/washington-high/dashboard`);
    await page.locator("#dashboard-search").fill("atlas");
    const href = await page.getByRole("link", { name: /World Atlas/ }).getAttribute("href");
    await page.goto(`${baseURL()}${href}/view`);
    await page.getByText("This book does not have a PDF file available").waitFor();
    // A message and a link: the error screen runs no script at all.
    expect(await page.locator("script[src], link[rel=modulepreload]").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/schools/washington-high/dashboard");
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

    // The prepared pages, as teachers read them but unstamped, without pdf.js (docs/decisions/0022).
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(`${baseURL()}/admin/pdf-viewer/${bookId}`);
    await page.waitForURL(`${baseURL()}/admin/pdf/${bookId}`);
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    await rendered(page, 1);
    expect(await page.getByRole("link", { name: "Back to Books" }).getAttribute("href")).toBe("/admin/books");
    const download = page.getByRole("link", { name: "Download" });
    expect(await download.getAttribute("href")).toBe(`/api/books/${bookId}/pdf`);
    const file = await page.request.get(`${baseURL()}/api/books/${bookId}/pdf`);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-disposition"]).toContain("attachment");
    expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");
    expect((await inspectCanvas(page, 1)).watermark).toBeLessThan(1000);
    expect(scripts.filter((url) => /pdf\.client|pdf\.worker|pdf-reader/.test(url))).toEqual([]);

    // The PDF itself, in pdf.js, one click away; and back.
    await page.getByRole("link", { name: "PDF view" }).click();
    await page.waitForURL(`${baseURL()}/admin/pdf/${bookId}?view=pdf`);
    await rendered(page, 1);
    const { ink, watermark } = await inspectCanvas(page, 1);
    expect(ink).toBeGreaterThan(1000);
    expect(watermark).toBeLessThan(1000);
    expect(await page.getByRole("link", { name: "Download" }).getAttribute("href")).toBe(`/api/books/${bookId}/pdf`);
    expect(await page.getByRole("link", { name: "Page view" }).getAttribute("href")).toBe(`/admin/pdf/${bookId}`);
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

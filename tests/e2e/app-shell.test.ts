// The installable app (issue 45, item 1; docs/decisions/0049), in Chromium: a teacher who signed in
// on this device opens the dashboard and a book's reader, loses the connection and reloads: both
// open from the service worker's copy, with their scripts running under the copy's own CSP nonce.
// A page never kept shows the school's offline page; signing out forgets every page kept.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { signInDemoTeacher } from "./support.ts";

setupBrowser();

const SLUG = "lincoln-academy";
const BASE = () => `${baseURL()}/schools/${SLUG}`;
// Requests that fail while the browser is offline (the reader's page images, route discovery) are logged as errors.
const OFFLINE_CONSOLE = [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /Failed to fetch/];

/** Whether the shell's cache holds a page (asked from the page, whose origin owns the caches). */
const isKept = (page: Page, url: string) =>
  page.evaluate(async (u) => (await caches.match(u, { cacheName: "lectern-shell-pages" })) !== undefined, url);

const shellCaches = (page: Page) => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("lectern-shell-")));

describe("the installable app offline", () => {
  it("opens the dashboard and the reader from the kept copy, shows the offline page for the rest, and forgets it all on sign-out", async () => {
    const page = await openPage({ allowConsole: OFFLINE_CONSOLE, allowStatus: [404, 503] });
    await signInDemoTeacher(page, baseURL(), SLUG);

    // Online: the first school page installs the worker, which keeps that page (and the offline page).
    await page.goto(`${BASE()}/dashboard`);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${baseURL()}/sw.js`);
    await expect.poll(() => isKept(page, `${BASE()}/dashboard`), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => isKept(page, `${BASE()}/offline`), { timeout: 15_000 }).toBe(true);
    const href = await page.locator("main article").getByRole("link").first().getAttribute("href");
    const bookId = Number(/book\/(\d+)/.exec(href ?? "")?.[1]);
    expect(bookId).toBeGreaterThan(0);
    const reader = `${BASE()}/dashboard/book/${bookId}/view`;
    await page.goto(reader);
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    await expect.poll(() => isKept(page, reader), { timeout: 15_000 }).toBe(true);

    await page.context().setOffline(true);

    // The reader's page from the copy: its island hydrates (its scripts run under the copy's nonce).
    const readerAnswer = await page.reload();
    expect(readerAnswer?.fromServiceWorker()).toBe(true);
    await page.getByRole("toolbar", { name: "Reader" }).waitFor();
    // A book not kept for offline: its pages cannot come, and the reader's page says so in a sentence.
    await page
      .getByRole("status")
      .filter({ hasText: "You are offline, and this book is not kept on this device. Its pages will appear when you are back online." })
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(page, "45-offline-reader-not-kept");

    // The dashboard from the copy, hydrated: the account menu opens.
    const dashboardAnswer = await page.goto(`${BASE()}/dashboard`);
    expect(dashboardAnswer?.fromServiceWorker()).toBe(true);
    await page.getByRole("heading", { name: "Books Library" }).waitFor();
    await openAccountMenu(page);
    await page.keyboard.press("Escape");
    await screenshot(page, "45-offline-dashboard");

    // A link inside the app (a client-side navigation, whose data cannot come) loads the page
    // itself instead: the library was never opened, so it is the school's offline page.
    await page.getByRole("navigation", { name: "School" }).getByRole("link", { name: "Library" }).click();
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    expect(page.url()).toBe(`${BASE()}/books`);

    // Pages never kept (the teacher's account is never kept; this book's page was not opened): the school's offline page.
    for (const path of ["/account", `/books/${bookId}`]) {
      const answer = await page.goto(`${BASE()}${path}`);
      expect(answer?.fromServiceWorker(), path).toBe(true);
      await page.getByRole("heading", { name: "You are offline" }).waitFor();
      expect(page.url()).toBe(`${BASE()}${path}`);
    }
    await expect(page.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).resolves.toBe(`/schools/${SLUG}/dashboard`);
    await screenshot(page, "45-offline-page");

    // Back online, signing out forgets the copies: offline again, the dashboard no longer opens.
    await page.context().setOffline(false);
    await page.goto(`${BASE()}/dashboard`);
    await openAccountMenu(page);
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${BASE()}`);
    // The build's files may come back with the sign-in page (they are the same for everyone); no page does.
    await expect.poll(() => shellCaches(page), { timeout: 10_000 }).not.toContain("lectern-shell-pages");
    expect(await isKept(page, `${BASE()}/dashboard`)).toBe(false);
    await page.context().setOffline(true);
    await page.goto(`${BASE()}/dashboard`);
    await page.getByText("You are offline, and this page was not kept on this device.").waitFor();
    await page.context().close();
  });
});

/**
 * Opens the account menu once the page has hydrated: a click on the server's HTML before React
 * attaches its handlers is lost (the full run under load lost one), so it is clicked again until
 * the menu shows.
 */
async function openAccountMenu(page: Page) {
  const item = page.getByRole("menuitem", { name: "Sign out" });
  await expect
    .poll(
      async () => {
        if (await item.isVisible()) return true;
        await page.getByRole("button", { name: "Account menu for Demo Teacher" }).click();
        return item.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

// Reading without a connection, in Chromium (issue 45, item 7): a teacher keeps a book for offline
// reading (its progress shows), goes offline, reloads the reader and reads pages from the encrypted
// copy on this device, comes back online and the pages read are reported; a session signed out
// everywhere from another browser erases the copy at the next contact; a loan past its end on the
// device's clock is not opened; a licence without offline reading refuses with its sentence.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { OFFLINE_NOT_ALLOWED } from "#shared/rules/offline.ts";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { bookHrefOf, execSql, signInDemoTeacher } from "./support.ts";

setupBrowser();

// A school no other e2e file reads in, so its loans and budgets are this file's alone.
const SLUG = "roosevelt-elementary";
const BASE = () => `${baseURL()}/schools/${SLUG}`;
const DAY_MS = 86_400_000;
const NOT_SAVED = "Not yet saved: it will be sent when you're back online.";
// Requests that fail while the browser is offline are logged by Chromium as errors; so are the 401s after a revocation.
// React Router's route discovery on a page that opened from the app shell offline says so too.
const OFFLINE_CONSOLE = [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /Failed to fetch manifest patches/];

/** A page signed in as the school's demo teacher, and the id of the book `title` (found through the dashboard's search). */
async function teacherWithBook(title: string, options: Parameters<typeof openPage>[0]): Promise<{ page: Page; bookId: number }> {
  const page = await openPage(options);
  await signInDemoTeacher(page, baseURL(), SLUG);
  return { page, bookId: Number(/book\/(\d+)/.exec((await bookHrefOf(page, BASE(), title)) ?? "")?.[1]) };
}

const readerUrl = (bookId: number) => `${BASE()}/dashboard/book/${bookId}/view`;

/** Keeps the book from its page and waits until it is kept; `onProgress` sees the page while it saves. */
async function keepForOffline(page: Page, bookId: number, onProgress?: () => Promise<void>) {
  await page.goto(`${BASE()}/dashboard/book/${bookId}`);
  const offline = page.getByRole("region", { name: "Offline reading" });
  await offline.getByRole("button", { name: "Keep for offline" }).click();
  if (onProgress) await onProgress();
  await offline.getByText(/Kept on this device for offline reading until/).waitFor({ timeout: 60_000 });
}

/** The ids of the books this browser keeps (none when the database was never made). */
function keptBookIds(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === "lectern-offline")) return [];
    return new Promise<number[]>((resolve, reject) => {
      const open = indexedDB.open("lectern-offline");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const keys = db.transaction("copies").objectStore("copies").getAllKeys();
        keys.onsuccess = () => {
          db.close();
          resolve(keys.result as number[]);
        };
      };
    });
  });
}

/** How many pages read offline wait to be reported. */
function pendingReads(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("lectern-offline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction("reads").objectStore("reads").count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
  );
}

const rendered = (page: Page, n: number) => page.locator(`[data-page-number="${n}"][data-rendered="true"]`).waitFor({ timeout: 30_000 });

async function goToPage(page: Page, n: number) {
  await page.getByLabel("Go to page").fill(String(n));
  await page.getByLabel("Go to page").press("Enter");
  await rendered(page, n);
}

/** The decoded width of page n's image in the reader (0 while it has none). */
const imageWidth = (page: Page, n: number) =>
  page.evaluate((pageNumber) => document.querySelector<HTMLImageElement>(`[data-page-number="${pageNumber}"] img`)?.naturalWidth ?? 0, n);

describe("reading a book kept for offline", () => {
  it("keeps a book with its progress shown, reads it offline after a reload, and reports the pages read once online", async () => {
    const { page, bookId } = await teacherWithBook("Plants and Seeds", { allowConsole: OFFLINE_CONSOLE });
    // Each page a little slower, so the progress can be seen (the download itself is not changed).
    await page.route(/offline=/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await route.continue();
    });
    await keepForOffline(page, bookId, async () => {
      const status = page.getByRole("status").filter({ hasText: /Saving for offline: [1-9]\d* of \d+ pages/ });
      await status.waitFor({ timeout: 30_000 });
      const bar = page.getByRole("progressbar", { name: "Saving for offline" });
      expect(Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
      await screenshot(page, "45-keep-progress");
    });
    await page.unroute(/offline=/);

    // The dashboard says which books this device keeps, and until when.
    await page.goto(`${BASE()}/dashboard`);
    const kept = page.getByRole("region", { name: "Kept for offline on this device" });
    await kept.getByRole("link", { name: "Plants and Seeds" }).waitFor();
    expect(await kept.textContent()).toMatch(/Until \w{3} \d{1,2}, \d{4}/);

    // Offline: the reader's page opens from the app shell and its pages come from the copy.
    await page.goto(readerUrl(bookId));
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    await page.context().setOffline(true);
    const pageRequests: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/books\/\d+\/pages\/\d+/.test(request.url())) pageRequests.push(request.url());
    });
    await page.reload();
    // The contact check does not reach the server: the reader says it reads the copy.
    await page
      .getByRole("status")
      .filter({ hasText: /^Offline copy, until \w{3} \d{1,2}$/ })
      .waitFor();
    await goToPage(page, 1);
    expect(await imageWidth(page, 1)).toBeGreaterThan(0);
    await goToPage(page, 2);
    await goToPage(page, 3);
    expect(await imageWidth(page, 3)).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Text view" }).click();
    await page
      .getByRole("article")
      .getByText(/\w{5,}/)
      .first()
      .waitFor();
    await page.getByRole("button", { name: "Text view" }).click();
    await screenshot(page, "45-offline-reader");

    // A highlight and a note made offline wait in the outbox (docs/decisions/0051); the page's
    // sentences come from the kept copy's text.
    await page.getByRole("button", { name: /^Notes \(\d+\)$/ }).click();
    const panel = page.getByRole("complementary", { name: "Notes" });
    await panel.getByRole("button", { name: "Highlight a sentence on page 3" }).click();
    await panel.getByRole("list", { name: "Sentences on page 3" }).getByRole("button").first().click();
    await panel.locator("li[data-pending='true'][data-kind='highlight']").getByText(NOT_SAVED).waitFor();
    const note = `Read offline ${Date.now()}`;
    await panel.getByRole("button", { name: "Add a note to page 3" }).click();
    await panel.getByRole("textbox", { name: "Note on page 3" }).fill(note);
    await panel.getByRole("button", { name: "Save note" }).click();
    await panel.locator("li[data-pending='true']", { hasText: note }).getByText(NOT_SAVED).waitFor();
    // Only the server-rendered first image may have been tried; every other page came from the copy.
    expect(pageRequests.filter((url) => !url.includes("w=640") && !url.includes("preview")).length).toBeLessThanOrEqual(1);
    await expect.poll(() => pendingReads(page)).toBeGreaterThanOrEqual(3);

    // The dashboard offline lists it as a book that can be opened.
    await page.goto(`${BASE()}/dashboard`);
    await page
      .getByRole("region", { name: "You are offline: these books can be opened" })
      .getByRole("link", { name: "Plants and Seeds" })
      .waitFor();

    // Back online, the next page's contact check reports the pages read offline, then forgets them here.
    const report = page.waitForRequest((request) => request.url().endsWith(`/api/books/${bookId}/offline/reads`));
    await page.context().setOffline(false);
    await page.reload();
    const sent = (await report).postDataJSON() as { loanId: string; reads: { n: number; at: number }[] };
    expect(sent.reads.map((read) => read.n)).toEqual(expect.arrayContaining([1, 2, 3]));
    await expect.poll(() => pendingReads(page), { timeout: 15_000 }).toBe(0);
    expect(await keptBookIds(page)).toEqual([bookId]);

    // The reader online again sends what was made offline; another device's session finds it, once.
    await page.goto(readerUrl(bookId));
    await page.getByRole("button", { name: /^Notes \(\d+\)$/ }).click();
    // The reader opened online sends what waits by itself: no 'online' event is fired here (Chromium's
    // offline emulation never turned navigator.onLine off on the page the app shell served).
    await expect.poll(() => page.locator("[data-pending]").count(), { timeout: 20_000 }).toBe(0);
    const other = await openPage();
    await signInDemoTeacher(other, baseURL(), SLUG);
    const listed = (await (await other.request.get(`${baseURL()}/api/books/${bookId}/annotations`)).json()) as {
      annotations: { kind: string; page: number; note: string | null }[];
    };
    expect(listed.annotations.filter((a) => a.note === note)).toHaveLength(1);
    expect(listed.annotations.filter((a) => a.kind === "highlight" && a.page === 3)).toHaveLength(1);
    await other.context().close();

    // Returning it early erases the copy.
    await page.goto(`${BASE()}/dashboard`);
    await page.getByRole("button", { name: "Return Plants and Seeds now" }).click();
    await expect.poll(() => keptBookIds(page)).toEqual([]);
    await page.context().close();
  });

  it("erases the copy at the next contact once the session was signed out everywhere from another browser", async () => {
    const { page, bookId } = await teacherWithBook("Shapes Everywhere", { allowConsole: OFFLINE_CONSOLE, allowStatus: [401, 404] });
    await keepForOffline(page, bookId);
    expect(await keptBookIds(page)).toEqual([bookId]);

    const other = await openPage();
    await signInDemoTeacher(other, baseURL(), SLUG);
    await other.goto(`${BASE()}/account`);
    await other.getByRole("button", { name: "Sign out everywhere" }).click();
    await other.waitForURL((url) => !url.pathname.endsWith("/account"));
    await other.context().close();

    // The next school page this browser loads is the sign-in page: its contact check hears 401.
    await page.goto(`${BASE()}/dashboard`);
    await expect.poll(() => keptBookIds(page), { timeout: 15_000 }).toEqual([]);
    await page.context().close();
  });

  it("does not open a copy whose loan has ended on the device's clock", async () => {
    const { page, bookId } = await teacherWithBook("Counting Creatures", { allowConsole: OFFLINE_CONSOLE });
    await keepForOffline(page, bookId);
    await page.goto(readerUrl(bookId));
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });

    // Fifteen days on (the demo licences lend for 14), with no connection.
    await page.clock.install({ time: Date.now() + 15 * DAY_MS });
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole("toolbar", { name: "Reader" }).waitFor();
    await expect.poll(() => keptBookIds(page)).toEqual([]);
    await page.locator('[data-page-number="1"]').waitFor();
    expect(await imageWidth(page, 1)).toBe(0);
    await page.context().close();
  });

  it("refuses with the licence's sentence when the licence does not allow offline reading", async () => {
    const { page, bookId } = await teacherWithBook("Our Neighbourhood", { allowStatus: [403, 404] });
    await execSql(
      `UPDATE book_access SET offline_allowed = 0 WHERE book_id = ${bookId} AND school_id = (SELECT id FROM schools WHERE slug = '${SLUG}');`,
    );
    await page.goto(`${BASE()}/dashboard/book/${bookId}`);
    await page.getByRole("button", { name: "Keep for offline" }).click();
    await page.getByRole("alert").filter({ hasText: OFFLINE_NOT_ALLOWED }).waitFor();
    expect(await keptBookIds(page)).toEqual([]);
    await page.context().close();
  });
});

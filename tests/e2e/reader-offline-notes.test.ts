// Work done offline is kept (issue 45 item 4, docs/decisions/0051), in Chromium: the teacher's
// connection drops while the reader is open; the highlight, note and bookmark they make show at once,
// marked "Not yet saved", and the page they move to is kept; when the connection returns they are
// sent, once, and another device's session finds the note (one of it) and the page.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { openBookFromDashboard, signInDemoTeacher } from "./support.ts";

setupBrowser();

const SLUG = "lincoln-academy";
const BASE = () => `${baseURL()}/schools/${SLUG}`;
const NOT_SAVED = "Not yet saved: it will be sent when you're back online.";

/** How many highlights the signed-in teacher has in the book, as the API lists them. */
async function highlightCount(page: Page, bookId: number): Promise<number> {
  const listed = (await (await page.request.get(`${baseURL()}/api/books/${bookId}/annotations`)).json()) as {
    annotations: { kind: string }[];
  };
  return listed.annotations.filter((a) => a.kind === "highlight").length;
}

describe("the reader without a connection", () => {
  it("keeps a highlight, a note, a bookmark and the page made offline, and sends them once when the connection returns", async () => {
    const page = await openPage({ allowConsole: [/Failed to load resource/, /ERR_INTERNET_DISCONNECTED/] });
    await signInDemoTeacher(page, baseURL(), SLUG);
    const bookId = await openBookFromDashboard(page, BASE(), "");
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: /^Notes \(\d+\)$/ }).click();
    const panel = page.getByRole("complementary", { name: "Notes" });
    const at = Number(await page.getByLabel("Go to page").inputValue());
    await panel.getByRole("button", { name: new RegExp(`^Bookmark page ${at}$|^Remove bookmark`) }).waitFor();

    // The page's sentences are listed while online (their text is the page's); one is picked offline.
    await panel.getByRole("button", { name: `Highlight a sentence on page ${at}` }).click();
    const sentences = panel.getByRole("list", { name: `Sentences on page ${at}` });
    await sentences.getByRole("button").first().waitFor({ timeout: 15_000 });

    const highlightsBefore = await highlightCount(page, bookId);
    await page.context().setOffline(true);
    await sentences.getByRole("button").first().click();
    await panel.locator("li[data-pending='true'][data-kind='highlight']").getByText(NOT_SAVED).waitFor();
    await panel.getByRole("button", { name: `Highlight a sentence on page ${at}` }).click(); // the list closes
    const note = `Offline note ${Date.now()}`;
    await panel.getByRole("button", { name: `Add a note to page ${at}` }).click();
    await panel.getByRole("textbox", { name: `Note on page ${at}` }).fill(note);
    await panel.getByRole("button", { name: "Save note" }).click();
    const item = panel.locator("li[data-pending='true']", { hasText: note });
    await item.getByText(NOT_SAVED).waitFor();
    if (await panel.getByRole("button", { name: `Bookmark page ${at}` }).isVisible()) {
      await panel.getByRole("button", { name: `Bookmark page ${at}` }).click();
      await panel.locator("li[data-pending='true'][data-kind='bookmark']").getByText(NOT_SAVED).waitFor();
    }
    await panel
      .getByRole("status")
      .filter({ hasText: /changes? not yet saved/ })
      .waitFor();
    // The page moved to while offline, once settled (the reader saves after 1.5 s).
    const moved = at === 1 ? 2 : 1;
    await page.getByLabel("Go to page").fill(String(moved));
    await page.getByLabel("Go to page").press("Enter");
    await page.waitForTimeout(2_000);
    await screenshot(page, "45-offline-outbox");

    await page.context().setOffline(false);
    await expect.poll(() => panel.locator("[data-pending]").count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => panel.getByText(NOT_SAVED).count()).toBe(0);

    // Another device's session: the note once, and the page.
    const other = await openPage();
    await signInDemoTeacher(other, baseURL(), SLUG);
    const listed = (await (await other.request.get(`${baseURL()}/api/books/${bookId}/annotations`)).json()) as {
      annotations: { kind: string; note: string | null; text: string | null }[];
    };
    expect(listed.annotations.filter((a) => a.note === note)).toHaveLength(1);
    expect(listed.annotations.filter((a) => a.kind === "highlight")).toHaveLength(highlightsBefore + 1);
    const progress = (await (await other.request.get(`${baseURL()}/api/reading-progress/${bookId}`)).json()) as { page: number };
    expect(progress.page).toBe(moved);
  });
});

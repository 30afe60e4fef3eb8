// Highlights, notes, presenting and read-aloud in the teacher's reader, in Chromium (issue 29, "the
// teacher's desk"). A teacher highlights a sentence on page 2 and adds a note, reloads, finds both
// in the Notes panel in another browser (another device's session), presents the book and moves
// through three pages with the keyboard, and starts read-aloud in Text view (the speech call is
// observed: no audio device needed). axe finds nothing with each panel open, and the panels fit a
// 390 px phone.

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { openBookFromDashboard, signInDemoTeacher } from "./support.ts";

setupBrowser();

const SLUG = "washington-high";
const BASE = () => `${baseURL()}/schools/${SLUG}`;

/** Opens a book of the demo teacher's school in the reader, by its title; answers its id. */
async function openBook(page: Page, title: string) {
  await signInDemoTeacher(page, baseURL(), SLUG);
  const bookId = await openBookFromDashboard(page, BASE(), title);
  await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
  return bookId;
}

async function goToPage(page: Page, n: number) {
  await page.getByLabel("Go to page").fill(String(n));
  await page.getByLabel("Go to page").press("Enter");
  await page.locator(`[data-page-number="${n}"] [data-text-layer] [data-run]`).first().waitFor({ timeout: 30_000 });
}

/** Selects the first sentence-sized stretch of page n's text layer, as a drag over it would. */
async function selectOnPage(page: Page, n: number): Promise<string> {
  return page.evaluate((pageNumber) => {
    const spans = [...document.querySelectorAll<HTMLElement>(`[data-page-number="${pageNumber}"] [data-text-layer] [data-run]`)].filter(
      (span) => (span.textContent ?? "").trim().length > 12,
    );
    const span = spans[0]!;
    const range = document.createRange();
    range.setStart(span.firstChild!, 0);
    range.setEnd(span.firstChild!, span.textContent!.length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return span.textContent!.trim();
  }, n);
}

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}

describe("highlights, notes, presenting and read-aloud in the teacher's reader", () => {
  it("keeps a highlight and its note across a reload and another device, and presents with the keyboard", async () => {
    const page = await openPage();
    await openBook(page, "Chemistry");
    await goToPage(page, 2);

    // Highlight a sentence on page 2 and add a note to it.
    await page.getByRole("button", { name: "Highlight", exact: true }).click();
    const words = await selectOnPage(page, 2);
    const bar = page.getByRole("toolbar", { name: "Highlight" });
    await bar.getByText(/^Highlight “/).waitFor();
    await bar.getByRole("button", { name: "Add note" }).click();
    const note = page.getByRole("textbox", { name: "Note on the highlight on page 2" });
    await note.fill("Ask the class to predict the result first.");
    await page.getByRole("complementary", { name: "Notes" }).getByRole("button", { name: "Save", exact: true }).click();
    await page.locator('[data-page-number="2"] [data-highlight]').first().waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    await screenshot(page, "desk-highlight");

    // After a reload, both are in the panel.
    await page.reload();
    await page.locator("[data-reader][data-first-paint-ms]").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: /^Notes \(\d+\)$/ }).click();
    const panel = page.getByRole("complementary", { name: "Notes" });
    const item = panel.getByRole("button", {
      name: new RegExp(`^Highlight, page 2\\s*:\\s*“${words.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    });
    await item.waitFor();
    expect(await item.textContent()).toContain("Note: Ask the class to predict the result first.");
    expect(await axeViolations(page)).toEqual([]);

    // Another device: a new browser context, signed in afresh.
    const other = await openPage({ width: 390, height: 844, context: { isMobile: true, hasTouch: true } });
    await openBook(other, "Chemistry");
    await other.getByRole("button", { name: /^Notes \(\d+\)$/ }).click();
    const otherPanel = other.getByRole("complementary", { name: "Notes" });
    await otherPanel.getByText("Note: Ask the class to predict the result first.").waitFor();
    // At 390 px the panel covers the pages without a sideways scroll.
    expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(other, "desk-notes-390");
    // Opening the note's page from the panel.
    await otherPanel.getByRole("button", { name: /^Highlight, page 2\s*:/ }).click();
    await other.getByLabel("Go to page").and(other.locator('[value="2"]')).waitFor();
    await other.context().close();

    // axe with each of the other panels open, and while presenting.
    await page.getByRole("button", { name: "Search in book", exact: true }).click();
    await page.getByRole("complementary", { name: "Search in book" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Close search in book" }).click();
    if (await page.getByRole("button", { name: "Contents", exact: true }).count()) {
      await page.getByRole("button", { name: "Contents", exact: true }).click();
      await page.getByRole("complementary", { name: "Contents" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Close contents" }).click();
    }

    // Present: three pages on with the keyboard, black screen, and out with Escape.
    await goToPage(page, 2);
    await page.getByRole("button", { name: "Present" }).click();
    const presentation = page.getByRole("dialog", { name: /^Presenting / });
    await presentation.waitFor();
    await page.locator('[data-presented-page="2"] img').waitFor({ timeout: 30_000 });
    for (const key of ["ArrowRight", "PageDown", "ArrowRight"]) await page.keyboard.press(key);
    await page.locator('[data-presented-page="5"] img').waitFor({ timeout: 30_000 });
    await screenshot(page, "desk-presenting");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("b");
    await expect.poll(() => page.locator("[data-presented-page]").count()).toBe(0);
    await page.keyboard.press("b");
    await page.keyboard.press("PageUp");
    await page.locator('[data-presented-page="4"]').waitFor();
    await page.keyboard.press("Escape");
    await presentation.waitFor({ state: "detached" });
    await expect.poll(() => page.getByLabel("Go to page").inputValue()).toBe("4");
  });

  it("reads aloud in Text view: the speech call is made with the page's words", async () => {
    const page = await openPage();
    // Observed, not played: the utterances are recorded and end at once after a moment.
    await page.addInitScript(() => {
      const spoken: string[] = [];
      (window as unknown as { __spoken: string[] }).__spoken = spoken;
      const synth = window.speechSynthesis;
      if (!synth) return;
      synth.speak = (utterance: SpeechSynthesisUtterance) => {
        spoken.push(utterance.text);
      };
    });
    await openBook(page, "Chemistry");
    await page.getByRole("button", { name: "Text view" }).click();
    await page.getByRole("button", { name: "Read aloud" }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken.length)).toBeGreaterThan(0);
    const [first] = await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
    expect(first?.trim().length).toBeGreaterThan(3);
    await page.getByText(/^Reading page \d+/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "desk-read-aloud");
    // And with the reading settings open.
    await page.getByRole("button", { name: "Reading settings" }).click();
    await page.getByRole("region", { name: "Reading settings", exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "desk-reading-settings");
  });
});

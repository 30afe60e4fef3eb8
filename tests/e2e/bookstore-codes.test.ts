// Issue 46's journey: an admin makes a batch of bookstore codes for a book and downloads them (the
// CSV the browser saves) and opens the printable cards; a school's coordinator redeems one of the
// codes on My school; a teacher of that school then reads the book; the batch page shows the code
// redeemed by the school.

import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { adminLogin, newSchoolThroughApi, openBookFromDashboard, registerTeacherByMail, uniqueEmail } from "./support.ts";

setupBrowser();

const BOOK = "Counting Creatures";
const PASSWORD = "maple syrup pancakes";
const CODE = /LECT(?:-[2-9A-HJ-NP-Z]{4}){4}/g;

/** The admin names the school's teacher with this e-mail its coordinator (as the school page's button does, through the API). */
async function makeCoordinator(admin: Page, schoolId: number, email: string): Promise<void> {
  const status = await admin.evaluate(
    async ([id, address]) => {
      const listed = (await (await fetch(`/api/schools/${id}/teachers`)).json()) as { teachers: { id: number; email: string }[] };
      const teacher = listed.teachers.find((t) => t.email === address);
      if (!teacher) return 404;
      return (await fetch(`/api/schools/${id}/teachers/${teacher.id}/coordinator`, { method: "POST" })).status;
    },
    [schoolId, email] as const,
  );
  expect(status).toBe(200);
}

describe("bookstore codes", () => {
  it("an admin makes a batch and downloads it, a coordinator redeems a code on My school, a teacher of the school reads the book", {
    timeout: 240_000,
  }, async () => {
    const admin = await openPage();
    await adminLogin(admin);
    const unique = Date.now().toString(36);
    const school = await newSchoolThroughApi(admin, `Code Test School ${unique}`, `code-test-${unique}`);
    const label = `E2E Bookstore ${Date.now().toString(36)}`;

    // The batch: one book, a year from redemption, 30 readers, three codes to redeem within a year.
    await admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Codes" }).click();
    await admin.getByRole("heading", { name: "Bookstore codes" }).waitFor();
    await admin.getByRole("link", { name: "New batch" }).click();
    await admin.getByRole("heading", { name: "New batch of codes" }).waitFor();
    await admin.getByLabel("Search books", { exact: true }).fill(BOOK);
    await admin.getByRole("checkbox", { name: new RegExp(BOOK) }).check();
    await admin.getByLabel("Licence days from redemption").fill("365");
    await admin.getByLabel("Readers at once (empty: no limit)").fill("30");
    await admin.getByLabel("Codes", { exact: true }).fill("3");
    await admin.getByLabel("Label", { exact: true }).fill(label);
    const redeemBy = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    await admin.getByLabel("Redeem by (optional)").fill(redeemBy);
    await admin.getByRole("button", { name: "Make codes" }).click();
    await admin
      .getByText("3 codes made. They are shown only now: download the CSV or print the cards before you leave this page.")
      .waitFor();
    await screenshot(admin, "46-codes-made");

    // Download CSV: a file the browser saves, holding the three codes with the batch's label and book.
    const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^codes-batch-\d+-e2e-bookstore-[a-z0-9]+\.csv$/);
    const csv = readFileSync(await download.path(), "utf8");
    const codes = [...new Set(csv.match(CODE) ?? [])];
    expect(codes).toHaveLength(3);
    expect(csv.split("\r\n")[0]).toBe("\uFEFFcode,batchId,label,books,redeemBy");
    expect(csv).toContain(label);
    expect(csv).toContain(BOOK);
    expect(csv).toContain(redeemBy);
    const batchId = Number(/^\uFEFF?code[^\r\n]*\r\n[^,]+,(\d+),/.exec(csv)?.[1]);
    expect(batchId).toBeGreaterThan(0);

    // The printable cards: the print view alone on paper, one card a code with the code and the book.
    await admin.getByRole("button", { name: "Print cards" }).click();
    const cards = admin.getByRole("dialog", { name: /Printable cards/ });
    await cards.waitFor();
    expect(await cards.locator("article").count()).toBe(3);
    expect(await cards.locator("article").first().textContent()).toContain(codes[0]);
    expect(await cards.locator("article").first().textContent()).toContain("Redeem on your school's Lectern: My school → Redeem a code");
    await admin.emulateMedia({ media: "print" });
    expect(await admin.getByRole("button", { name: "Print", exact: true }).isVisible()).toBe(false);
    await admin.setViewportSize({ width: 794, height: 1123 });
    await screenshot(admin, "46-cards");
    await admin.emulateMedia({ media: "screen" });
    await admin.setViewportSize({ width: 1280, height: 900 });
    await cards.getByRole("button", { name: "Close" }).click();

    // The coordinator of the school redeems the first code on My school, typed loosely (lower case, no dashes).
    const coordinatorEmail = uniqueEmail("coordinator");
    const coordinator = await openPage({ allowStatus: [404, 409] });
    await registerTeacherByMail(coordinator, baseURL(), {
      slug: school.slug,
      name: "Cora Coordinator",
      email: coordinatorEmail,
      password: PASSWORD,
    });
    await makeCoordinator(admin, school.id, coordinatorEmail);
    await coordinator.goto(`${baseURL()}/schools/${school.slug}/my-school`);
    const card = coordinator.getByRole("region", { name: "Redeem a bookstore code" });
    await card.waitFor();
    const field = card.getByRole("textbox", { name: "Code" });
    expect(await field.getAttribute("aria-describedby")).toBeTruthy();
    await field.fill(codes[0]!.toLowerCase().replaceAll("-", " "));
    await field.press("Enter");
    await card.getByText(/^Code redeemed: “Counting Creatures” is licensed to your school until .+, for 30 readers at once\.$/).waitFor();
    expect(await field.inputValue()).toBe("");
    // Once the page's data has loaded again.
    await card.getByRole("button", { name: "Redeem", exact: true }).waitFor();
    await screenshot(coordinator, "46-redeem");

    // The same code again: the refusal is the field's.
    await field.fill(codes[0]!);
    await card.getByRole("button", { name: "Redeem" }).click();
    await card.getByText(/^Your school redeemed this code on /).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");

    // A teacher of the school reads the book.
    const teacher = await openPage({ allowStatus: [404, 409] });
    await registerTeacherByMail(teacher, baseURL(), {
      slug: school.slug,
      name: "Rita Reader",
      email: uniqueEmail("reader"),
      password: PASSWORD,
    });
    await openBookFromDashboard(teacher, `${baseURL()}/schools/${school.slug}`, BOOK);
    await teacher.locator('[data-page-number="1"][data-rendered="true"]').waitFor({ timeout: 30_000 });

    // The admin redeems the second code for the school on its page: the licence is extended.
    await admin.goto(`${baseURL()}/admin/school/${school.id}`);
    const adminCard = admin.getByRole("region", { name: "Redeem a bookstore code for this school" });
    await adminCard.getByRole("textbox", { name: "Code" }).fill(codes[1]!);
    await adminCard.getByRole("button", { name: "Redeem", exact: true }).click();
    const extended = adminCard.getByText(new RegExp(`^Code redeemed: “${BOOK}” is licensed to ${school.name} until `));
    await extended.waitFor();
    // The page's licences load again: the book's licence now runs to the day the sentence names.
    const until = /until (.+?), for/.exec((await extended.textContent()) ?? "")?.[1];
    expect(until).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await admin.getByRole("row").filter({ hasText: BOOK }).filter({ hasText: until! }).first().waitFor();

    // The batch page: the third code withdrawn from its row (after a confirmation); two redeemed by the school.
    await admin.goto(`${baseURL()}/admin/codes/${batchId}`);
    await admin.getByRole("heading", { name: `Batch ${batchId}: ${label}` }).waitFor();
    await admin.getByRole("button", { name: `Withdraw code …${codes[2]!.slice(-4)}` }).click();
    const ask = admin.getByRole("dialog", { name: `Withdraw code …${codes[2]!.slice(-4)}?` });
    await ask.getByRole("button", { name: "Withdraw" }).click();
    await admin.getByText(`Code …${codes[2]!.slice(-4)} withdrawn: it can no longer be redeemed.`).waitFor();
    const rows = admin.getByRole("row").filter({ hasText: school.name });
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    for (const code of codes.slice(0, 2)) expect(await rows.filter({ hasText: `…${code.slice(-4)}` }).textContent()).toContain("Redeemed");
    expect(
      await admin
        .getByRole("row")
        .filter({ hasText: `…${codes[2]!.slice(-4)}` })
        .textContent(),
    ).toContain("Withdrawn");
    expect(await admin.getByRole("button", { name: /^Withdraw code …/ }).count()).toBe(0);
    // The notice took the focus (and scrolled there); the picture is of the whole page from its top.
    await admin.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin, "46-batches");

    // The publisher's view: the label's totals, and its redemptions CSV (for invoicing the bookstore).
    await admin.goto(`${baseURL()}/admin/codes`);
    const totals = admin.getByRole("table", { name: "Codes per bookstore label" }).getByRole("row").filter({ hasText: label });
    expect(await totals.getByRole("cell").allTextContents()).toEqual(["1", "3", "2", "1"]);
    await screenshot(admin, "46-batch-list");
    await totals.getByRole("link", { name: label }).click();
    await admin.getByRole("heading", { name: `Label "${label}"` }).waitFor();
    const href = await admin.getByRole("link", { name: "Redemptions CSV" }).getAttribute("href");
    expect(href).toBe(`/api/codes/redemptions.csv?${new URLSearchParams({ label }).toString()}`);
    const redemptions = await admin.evaluate(async (url) => (await fetch(url)).text(), href!);
    for (const code of codes.slice(0, 2)) expect(redemptions).toContain(`…${code.slice(-4)}`);
    expect(redemptions).toContain(school.name);
    expect(redemptions).not.toContain(codes[0]);
  });
});

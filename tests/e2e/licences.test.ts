// Issue #27's journey: an admin sells a school a 2-seat licence on the Assign Books page; two
// teachers read, the third is told every copy is in use; one closes the book and the third's
// reader gets in by itself. Then the admin renews the school's licences for the next school year.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { schoolYearOf } from "#shared/rules/licence.ts";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { adminLogin, newSchoolThroughApi, openBookFromDashboard, registerTeacherByMail, uniqueEmail } from "./support.ts";

setupBrowser();

const BOOK = "Art Through the Ages";
const NO_SEAT = "All 2 copies of this book are in use at your school. Try again in a few minutes.";
const PASSWORD = "maple syrup pancakes";

/** A new teacher of the school, signed in, with the book's reader open; the reader's page. */
async function teacherReading(slug: string, label: string): Promise<Page> {
  const page = await openPage({ allowStatus: [404, 409] });
  await registerTeacherByMail(page, baseURL(), { slug, name: `Reader ${label}`, email: uniqueEmail(label), password: PASSWORD });
  await openBookFromDashboard(page, `${baseURL()}/schools/${slug}`, BOOK);
  return page;
}

const pageShown = (page: Page) => page.locator('[data-page-number="1"][data-rendered="true"]');

describe("licences", () => {
  it("a 2-seat licence: two teachers read, the third is told and gets in once one closes the book; then a renewal", {
    timeout: 180_000,
  }, async () => {
    const admin = await openPage();
    await adminLogin(admin);
    const unique = Date.now().toString(36);
    const school = await newSchoolThroughApi(admin, `Seat Test School ${unique}`, `seat-test-${unique}`);

    // Sold on the Assign Books page: this school year, two readers at once.
    await admin.goto(`${baseURL()}/admin/assign-books/${school.id}`);
    await admin.getByLabel("Search books", { exact: true }).fill(BOOK);
    await admin.getByRole("checkbox", { name: new RegExp(BOOK) }).check();
    const year = schoolYearOf(new Date().toISOString().slice(0, 10));
    expect(await admin.getByLabel("From", { exact: true }).inputValue()).toBe(year.startsOn);
    expect(await admin.getByLabel("Until (empty: no end)", { exact: true }).inputValue()).toBe(year.endsOn);
    await admin.getByLabel("Readers at once (empty: no limit)", { exact: true }).fill("2");
    await admin.getByRole("button", { name: "Assign 1 book(s)" }).click();
    await admin
      .getByText(/assigned/i)
      .first()
      .waitFor();

    const first = await teacherReading(school.slug, "first");
    await pageShown(first).waitFor({ timeout: 30_000 });
    const second = await teacherReading(school.slug, "second");
    await pageShown(second).waitFor({ timeout: 30_000 });
    const third = await teacherReading(school.slug, "third");
    const notice = third.getByRole("alert");
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain(NO_SEAT);
    expect(await pageShown(third).count()).toBe(0);
    await screenshot(third, "licence-no-seat");

    // The first teacher closes the book (leaves the reader): the third's reader gets in by itself.
    await first.goto(`${baseURL()}/schools/${school.slug}/dashboard`);
    await pageShown(third).waitFor({ timeout: 45_000 });
    expect(await notice.count()).toBe(0);

    // The school's page reports it: two read at once, one teacher turned away on one day.
    await admin.goto(`${baseURL()}/admin/school/${school.id}`);
    const seats = admin
      .getByRole("region", { name: /Seats per licence/ })
      .getByRole("row")
      .filter({ hasText: BOOK });
    await seats.waitFor();
    expect(await seats.textContent()).toMatch(/2 of 2.*1 day \(1 teacher\)/);

    // The Licences page: the school's licence with the same figures; the admin renews it for the next school year.
    await admin.goto(`${baseURL()}/admin/licences?schoolId=${school.id}`);
    const row = admin.getByRole("row").filter({ hasText: BOOK });
    await row.waitFor();
    expect(await row.textContent()).toContain("Peak 2 of 2 at once");
    expect(await row.textContent()).toContain("Turned away: 1 day (1 teacher)");
    await admin.getByRole("checkbox", { name: `Pick ${school.name}: ${BOOK}` }).check();
    await admin.getByRole("button", { name: "Renew for next school year" }).click();
    const dialog = admin.getByRole("dialog", { name: "Renew 1 licence(s) for the next school year?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Renew them" }).click();
    await admin.getByText("1 licence(s) renewed for the next school year.").waitFor();
    const nextEnd = `Jul 31, ${Number(year.endsOn.slice(0, 4)) + 1}`;
    await admin.getByRole("row").filter({ hasText: BOOK }).filter({ hasText: nextEnd }).waitFor();
    await screenshot(admin, "licences-renewed");

    // Offline reading for the licences picked: turned off, the row says so.
    await admin.getByRole("checkbox", { name: `Pick ${school.name}: ${BOOK}` }).check();
    await admin.getByRole("button", { name: "Change offline reading" }).click();
    const offline = admin.getByRole("dialog", { name: "Change offline reading for 1 licence(s)?" });
    await offline.getByRole("checkbox", { name: "Offline reading allowed" }).uncheck();
    expect(await offline.getByRole("spinbutton", { name: "Days a book may be kept offline" }).isDisabled()).toBe(true);
    await screenshot(admin, "licences-offline-dialog");
    await offline.getByRole("button", { name: "Change offline reading" }).click();
    await admin.getByText("1 licence(s) changed.").waitFor();
    await admin.getByRole("row").filter({ hasText: BOOK }).filter({ hasText: "Not allowed" }).waitFor();
  });
});

// Issue 45 item 6's journey: an admin sells a school a one-seat licence that allows offline reading
// for 7 days (the assign screen's offline fields); a demo school's teacher keeps a book for offline
// reading; that school's page lists it under "Kept for offline"; the admin returns it now (asked
// first), and the teacher's next contact finds no loan.

import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { OfflineLoanAnswerSchema } from "#shared/rules/offline-loan-schema.ts";
import { ROOT } from "../../scripts/lib/env.ts";
import { baseURL, openPage, setupBrowser } from "./browser.ts";
import { adminLogin, newSchoolThroughApi, openBookFromDashboard, signInDemoTeacher } from "./support.ts";

setupBrowser();

const BOOK = "Art Through the Ages";
const DEMO_SLUG = "roosevelt-elementary";
const DEMO_NAME = "Roosevelt Elementary";
const TEACHER = "Demo Teacher";
const shot = (name: string) => join(ROOT, "screenshots", `${name}.png`);

/** A call the teacher's page makes with its own cookie: the status and the JSON body. */
const call = (page: Page, method: string, path: string) =>
  page.evaluate(
    async ([m, p]) => {
      const response = await fetch(p, { method: m });
      return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as Record<string, unknown>) };
    },
    [method, path] as const,
  );

describe("the admin's side of offline loans", () => {
  it("a licence allowing 7 days offline; the loan listed on the school's page; Return now frees the seat", {
    timeout: 180_000,
  }, async () => {
    const admin = await openPage();
    await adminLogin(admin);
    const unique = Date.now().toString(36);
    const school = await newSchoolThroughApi(admin, `Offline Test School ${unique}`, `offline-test-${unique}`);

    await admin.goto(`${baseURL()}/admin/assign-books/${school.id}`);
    await admin.getByLabel("Search books", { exact: true }).fill(BOOK);
    await admin.getByRole("checkbox", { name: new RegExp(BOOK) }).check();
    const allowed = admin.getByLabel("Offline reading allowed", { exact: true });
    expect(await allowed.isChecked()).toBe(true);
    const days = admin.getByLabel("Days a book may be kept offline", { exact: true });
    expect(await days.inputValue()).toBe("14");
    await days.fill("7");
    await admin.getByLabel("Readers at once (empty: no limit)", { exact: true }).fill("1");
    await admin.getByRole("group", { name: "Licence" }).screenshot({ path: shot("45-admin-licence-offline"), caret: "initial" });
    await admin.getByRole("button", { name: "Assign 1 book(s)" }).click();
    await admin
      .getByText(/assigned/i)
      .first()
      .waitFor();

    // The loan: the demo teacher of a demo school (its licence of the book allows offline, 14 days), through the API as the browser calls it.
    const teacher = await openPage({ allowStatus: [404, 409] });
    await signInDemoTeacher(teacher, baseURL(), DEMO_SLUG);
    const bookId = await openBookFromDashboard(teacher, `${baseURL()}/schools/${DEMO_SLUG}`, BOOK);
    const kept = await call(teacher, "POST", `/api/books/${bookId}/offline`);
    expect([200, 201]).toContain(kept.status);
    const { until } = OfflineLoanAnswerSchema.parse(kept.body).loan;
    expect(until).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000);
    // The teacher closes the reader: the loan keeps the seat.
    await teacher.goto(`${baseURL()}/schools/${school.slug}/dashboard`);

    const found = await admin.evaluate(async (name) => {
      const response = await fetch(`/api/schools/search?query=${encodeURIComponent(name)}`);
      return (await response.json()) as { schools: { id: number; name: string }[] };
    }, DEMO_NAME);
    const demo = found.schools.find((row) => row.name === DEMO_NAME);
    expect(demo).toBeDefined();
    await admin.goto(`${baseURL()}/admin/school/${demo?.id}`);
    const section = admin.getByRole("region", { name: "Kept for offline" });
    const row = section.getByRole("row").filter({ hasText: TEACHER });
    await row.waitFor();
    expect(await row.textContent()).toContain(BOOK);
    // caret "initial": the default hides the caret with a style that React would see as a hydration mismatch.
    await section.screenshot({ path: shot("45-admin-offline-loans"), caret: "initial" });
    await row.getByRole("button", { name: `Return ${TEACHER}'s offline copy of ${BOOK} now` }).click();
    const dialog = admin.getByRole("dialog", { name: `Return ${TEACHER}'s copy of ${BOOK} now?` });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Return now" }).click();
    await section.getByText(`${TEACHER}'s offline copy is returned`).waitFor();
    await section.getByText("No one keeps a book for offline reading right now.").waitFor();

    const checked = await call(teacher, "GET", "/api/teacher/offline");
    expect(checked).toEqual({ status: 200, body: { loans: [] } });
  });
});

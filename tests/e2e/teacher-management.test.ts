// An admin disables a teacher who is reading: the reader's next page request fails and it says
// why, with the way back to the school's login, where the teacher learns the account is disabled.
// Then the admin removes the teacher (issue #15 item 5, docs/decisions/0015).

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { adminLogin, openBookFromDashboard, registerTeacherByMail, uniqueEmail } from "./support.ts";

setupBrowser();

const SLUG = "lincoln-high";
const BOOK = "Algebra I";
const PASSWORD = "maple syrup pancakes";
const NAME = `Dana Reader ${Date.now().toString(36)}`;
const DISABLED = "Your account has been disabled. Please contact your school administrator.";

async function registerTeacher(page: Page, email: string) {
  await registerTeacherByMail(page, baseURL(), { slug: SLUG, name: NAME, email, password: PASSWORD });
}

async function schoolId(page: Page): Promise<number> {
  return page.evaluate(async (slug) => {
    const answer = (await (await fetch(`/api/schools?query=${slug}&pageSize=100`)).json()) as { schools: { id: number; slug: string }[] };
    return answer.schools.find((s) => s.slug === slug)!.id;
  }, SLUG);
}

const teachersTable = 'section[aria-labelledby="teachers-title"]';

describe("an admin manages a school's teachers", () => {
  it("disabling a teacher who is reading signs them out: the reader says so, and sign-in is refused; then removal", async () => {
    // The teacher's browser: registered, then reading. Its refused requests are expected.
    const reader = await openPage({ allowStatus: [401, 403, 404] });
    const email = uniqueEmail("managed");
    await registerTeacher(reader, email);
    await openBookFromDashboard(reader, `${baseURL()}/schools/${SLUG}`, BOOK);
    await reader.locator('[data-page-number="1"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    const readerPath = new URL(reader.url()).pathname;

    // The admin's browser: the school's page lists the teacher with their actions.
    const admin = await openPage();
    await adminLogin(admin);
    const id = await schoolId(admin);
    await admin.goto(`${baseURL()}/admin/school/${id}`);
    const table = admin.locator(teachersTable);
    const row = table.getByRole("row").filter({ hasText: email });
    await row.waitFor();
    expect(await row.getByText("Active").isVisible()).toBe(true);
    for (const label of ["Disable", "End all sessions", "Send password reset", "Remove"]) {
      expect(await admin.getByRole("button", { name: `${label} ${NAME}` }).count(), label).toBe(1);
    }
    const { violations } = await new AxeBuilder({ page: admin }).include(teachersTable).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

    // Disable asks first, by keyboard too: Escape keeps the teacher as they were.
    await admin.getByRole("button", { name: `Disable ${NAME}` }).click();
    const dialog = admin.getByRole("dialog", { name: `Disable ${NAME}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("will be signed out everywhere at once");
    await admin.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await row.getByText("Active").isVisible()).toBe(true);

    await admin.getByRole("button", { name: `Disable ${NAME}` }).click();
    await screenshot(admin, "teacher-disable-dialog");
    await dialog.getByRole("button", { name: `Disable ${NAME}` }).click();
    await admin
      .getByRole("status")
      .filter({ hasText: `${NAME} is disabled and has been signed out everywhere.` })
      .waitFor();
    await admin.getByRole("button", { name: `Enable ${NAME}` }).waitFor();
    expect(await row.getByText("Disabled").isVisible()).toBe(true);
    await screenshot(admin, "teacher-disabled");

    // The teacher turns to a page not yet loaded: refused, and the reader says why.
    const signedOut = reader.getByRole("heading", { name: "Signed out" });
    await expect
      .poll(
        async () => {
          if (await signedOut.isVisible()) return true;
          await reader.keyboard.press("End");
          return false;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    // Not only "signed out": the reader says the account was disabled.
    expect(await reader.getByRole("alert").textContent()).toContain(DISABLED);
    const link = reader.getByRole("link", { name: "Sign in again" });
    expect(await link.getAttribute("href")).toBe(`/schools/${SLUG}?redirectTo=${encodeURIComponent(readerPath)}`);
    await screenshot(reader, "reader-signed-out");

    // The school's login says so before anything is typed, and the right password is refused with the reason.
    await link.click();
    await reader.waitForURL((url) => url.pathname === `/schools/${SLUG}`);
    await reader.getByRole("alert").filter({ hasText: DISABLED }).waitFor();
    await reader.getByLabel("Email").fill(email);
    await reader.getByLabel("Password", { exact: true }).fill(PASSWORD);
    const [refused] = await Promise.all([
      reader.waitForResponse((response) => response.url().endsWith("/api/teacher/login")),
      reader.getByRole("button", { name: "Login" }).click(),
    ]);
    expect(refused.status()).toBe(403);
    await expect.poll(() => reader.getByRole("alert").textContent()).toBe(DISABLED);

    // Remove asks first, then the teacher is gone and the answer has the focus.
    await admin.getByRole("button", { name: `Remove ${NAME}` }).click();
    const remove = admin.getByRole("dialog", { name: `Remove ${NAME}?` });
    await remove.getByRole("button", { name: `Remove ${NAME}` }).click();
    await admin
      .getByRole("status")
      .filter({ hasText: `${NAME} (${email}) was removed` })
      .waitFor();
    await row.waitFor({ state: "detached" });
    expect(await admin.getByRole("button", { name: `Remove ${NAME}` }).count()).toBe(0);
  });
});

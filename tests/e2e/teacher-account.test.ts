// A teacher on a phone (390 px, touch) opens the avatar menu, goes to My account, sees the other
// device they are signed in on, changes the password, and that other session ends; then signs
// out everywhere (issue 16, docs/decisions/0017-teacher-account.md).

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { registerTeacherByMail, uniqueEmail } from "./support.ts";

setupBrowser();

const SLUG = "washington-elementary";
const PASSWORD = "maple syrup pancakes";
const NEW_PASSWORD = "blueberry waffles daily";
const NAME = "Grace Hopper";
const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

const school = () => `${baseURL()}/schools/${SLUG}`;

async function registerTeacher(page: Page, email: string) {
  await registerTeacherByMail(page, baseURL(), { slug: SLUG, name: NAME, email, password: PASSWORD });
}

describe("the teacher's account on a phone", () => {
  it("avatar menu -> My account -> change the password: the other device is signed out, this one stays", async () => {
    const phone = await openPage({
      width: 390,
      height: 844,
      context: { isMobile: true, hasTouch: true, deviceScaleFactor: 2, userAgent: ANDROID_CHROME },
    });
    const email = uniqueEmail("account");
    await registerTeacher(phone, email);

    // A second browser (a school computer) signs in with the same account through the login page.
    const desktop = await openPage({ allowStatus: [401, 404] });
    await desktop.goto(school());
    await desktop.getByLabel("Email").fill(email);
    await desktop.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await desktop.getByRole("button", { name: "Login" }).click();
    await desktop.waitForURL(`${school()}/dashboard`);
    // The skip link is the first stop of the keyboard.
    await desktop.keyboard.press("Tab");
    expect(await desktop.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");

    // On the phone: no greeting in the header, the initials button names the teacher.
    await phone.goto(`${school()}/dashboard`);
    await phone.getByRole("heading", { name: "Books Library" }).waitFor();
    expect(await phone.getByText(`Welcome, ${NAME}`).isVisible()).toBe(false);
    const avatar = phone.getByRole("button", { name: `Account menu for ${NAME}` });
    expect(await avatar.locator('[aria-hidden="true"]').textContent()).toBe("GH");
    await avatar.tap();
    const menu = phone.getByRole("menu", { name: `Account menu for ${NAME}` });
    await menu.waitFor();
    expect(await avatar.getAttribute("aria-expanded")).toBe("true");
    expect(await menu.getByText(NAME).isVisible()).toBe(true);
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["My account", "Sign out"]);
    await screenshot(phone, "account-menu-phone");
    await menu.getByRole("menuitem", { name: "My account" }).tap();
    await phone.waitForURL(`${school()}/account`);
    await phone.getByRole("heading", { name: "My account", level: 1 }).waitFor();

    // Both sessions, this one marked; each with its device.
    const sessions = phone.getByRole("region", { name: "Where you're signed in" });
    await sessions.getByText("Chrome on Android").waitFor();
    expect(await sessions.getByText("This device").isVisible()).toBe(true);
    expect(await sessions.getByText("Chrome on Linux").isVisible()).toBe(true);
    expect(await sessions.getByRole("button", { name: "End the session on Chrome on Linux" }).isVisible()).toBe(true);
    await screenshot(phone, "account-page-phone");

    // A mismatch is caught before the server; then the change.
    const password = phone.getByRole("region", { name: "Change password" });
    await password.getByLabel("Current Password").fill(PASSWORD);
    await password.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel("Confirm New Password").fill(`${NEW_PASSWORD}!`);
    await password.getByRole("button", { name: "Change password" }).tap();
    expect(await password.getByRole("alert").textContent()).toBe("Passwords do not match");
    await password.getByLabel("Confirm New Password").fill(NEW_PASSWORD);
    await password.getByRole("button", { name: "Change password" }).tap();
    const done = password.getByRole("status");
    await done.getByText("Your password has been changed, and you have been signed out on 1 other device.").waitFor();
    expect(await password.getByLabel("Current Password").inputValue()).toBe("");
    // The list follows: only this device is left.
    await sessions.getByText("Chrome on Linux").waitFor({ state: "detached" });
    expect(await sessions.getByRole("listitem").count()).toBe(1);
    await screenshot(phone, "account-password-changed-phone");

    // The other browser is signed out: its next page goes to the login.
    await desktop.goto(`${school()}/dashboard`);
    expect(new URL(desktop.url()).pathname).toBe(`/schools/${SLUG}`);
    // And this one is still signed in.
    await phone.goto(`${school()}/dashboard`);
    await phone.getByRole("heading", { name: "Books Library" }).waitFor();

    // The new password works on the other browser; then "Sign out everywhere" from the phone ends both.
    await desktop.getByLabel("Email").fill(email);
    await desktop.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await desktop.getByRole("button", { name: "Login" }).click();
    await desktop.waitForURL(`${school()}/dashboard`);
    await phone.getByRole("button", { name: `Account menu for ${NAME}` }).tap();
    await phone.getByRole("menuitem", { name: "My account" }).tap();
    await phone.waitForURL(`${school()}/account`);
    await phone.getByRole("button", { name: "Sign out everywhere" }).tap();
    await phone.waitForURL(school());
    await desktop.goto(`${school()}/dashboard`);
    expect(new URL(desktop.url()).pathname).toBe(`/schools/${SLUG}`);
  });
});

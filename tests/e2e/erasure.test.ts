// Erasure in Chromium (issue 44 item 2, docs/decisions/0045): a teacher deletes their own account
// from the account page and is signed out on their other device too; an admin erases a school's
// personal data from its page. On a school of its own, so the demo schools stay as other files need them.
import { describe, expect, it } from "vitest";
import { baseURL, openPage, setupBrowser } from "./browser.ts";
import { adminLogin, newSchoolThroughApi, registerTeacherByMail, signInTeacher, uniqueEmail } from "./support.ts";

setupBrowser();

const PASSWORD = "maple syrup pancakes";
const SHOTS = "screenshots";

describe("erasure", () => {
  it("a teacher deletes their own account: every device signed out, and the address no longer signs in", async () => {
    const admin = await openPage();
    await adminLogin(admin);
    const slug = `erase-self-${Date.now().toString(36)}`;
    await newSchoolThroughApi(admin, `Erasure Academy ${slug}`, slug);
    const email = uniqueEmail("erase-self");
    const page = await openPage({ allowStatus: [400, 401, 404] });
    await registerTeacherByMail(page, baseURL(), { slug, name: "Ada Erasable", email, password: PASSWORD });
    const other = await openPage({ allowStatus: [401, 404] });
    await registerTeacherByMail(other, baseURL(), { slug, name: "Ben Stays", email: uniqueEmail("erase-stays"), password: PASSWORD });

    // The same teacher on a second device.
    const phone = await openPage({ width: 390, height: 844, allowStatus: [401, 404] });
    await signInTeacher(phone, baseURL(), slug, email, PASSWORD);
    await phone.goto(`${baseURL()}/schools/${slug}/account`);
    await phone.getByRole("heading", { name: "My account", level: 1 }).waitFor();

    await page.goto(`${baseURL()}/schools/${slug}/account`);
    const section = page.locator('section[aria-labelledby="account-delete-title"]');
    const button = section.getByRole("button", { name: "Delete my account" });
    await section.scrollIntoViewIfNeeded();
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(`Type your e-mail address, ${email}, to confirm`).fill(email);
    await section.screenshot({ path: `${SHOTS}/44-erase-account-delete.png` });
    await button.click();
    await page.waitForURL(`${baseURL()}/schools/${slug}?account=deleted`);
    await page.getByText("Your account has been deleted and you have been signed out everywhere.").waitFor();
    await page.screenshot({ path: `${SHOTS}/44-erase-account-deleted.png` });

    // The address signs in no more.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page
      .getByText(/Invalid email or password|not correct|No account/i)
      .first()
      .waitFor();
    // A colleague is untouched.
    await other.goto(`${baseURL()}/schools/${slug}/account`);
    await other.getByRole("heading", { name: "My account", level: 1 }).waitFor();
    // The teacher's other device: its next page is the login page.
    await phone.goto(`${baseURL()}/schools/${slug}/account`);
    await phone.waitForURL(new RegExp(`/schools/${slug}\\?redirectTo=`));
  });

  it("an admin erases a school's personal data from its page, having typed its slug", async () => {
    const admin = await openPage();
    await adminLogin(admin);
    const slug = `erase-school-${Date.now().toString(36)}`;
    await newSchoolThroughApi(admin, `Erasure Academy ${slug}`, slug);
    const teacher = await openPage({ allowStatus: [401, 404] });
    await registerTeacherByMail(teacher, baseURL(), {
      slug,
      name: "Cora Erasable",
      email: uniqueEmail("erase-school"),
      password: PASSWORD,
    });

    await admin.goto(`${baseURL()}/admin/all-schools`);
    await admin
      .getByRole("link", { name: `Erasure Academy ${slug}` })
      .first()
      .click();
    await admin.waitForURL(/\/admin\/school\/\d+$/);
    const section = admin.locator('section[aria-labelledby="erase-title"]');
    await section.scrollIntoViewIfNeeded();
    await section.getByText("It has 1 teacher account.").waitFor();
    const button = section.getByRole("button", { name: "Erase personal data" });
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(/to erase the personal data of/).fill(slug);
    await section.screenshot({ path: `${SHOTS}/44-erase-school-confirm.png` });
    await button.click();
    await section.getByText(`The personal data of Erasure Academy ${slug} was erased: 1 teacher account`).waitFor();
    await section.getByText("It has no teacher account now.").waitFor();
    expect(await button.isDisabled()).toBe(true);
    await section.screenshot({ path: `${SHOTS}/44-erase-school-done.png` });
    // The teacher's next page is the login page.
    await teacher.goto(`${baseURL()}/schools/${slug}/account`);
    await teacher.waitForURL(new RegExp(`/schools/${slug}\\?redirectTo=`));
  });
});

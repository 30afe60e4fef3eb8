import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";
import { codeFromMail, execSql, uniqueEmail } from "./support.ts";

setupBrowser();

const PASSWORD = "maple syrup pancakes";
const NEW_PASSWORD = "blueberry waffles daily";

/** A school's login page, in the form a teacher arrives with. */
const forms = [
  {
    name: "by path",
    slug: "washington-high",
    login: () => `${baseURL()}/schools/washington-high`,
    base: () => `${baseURL()}/schools/washington-high`,
  },
  {
    name: "on its subdomain",
    slug: "lincoln-high",
    login: () => subdomainURL("lincoln-high"),
    base: () => subdomainURL("lincoln-high", "").replace(/\/$/, ""),
  },
];

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

describe.each(forms)("teacher accounts $name", ({ slug, login, base }) => {
  it("register with the e-mailed code, sign out, log in, reset the password, log in again", async () => {
    // The old password is tried once on purpose: its 401 is expected.
    const page = await openPage({ allowStatus: [401, 404] });
    const email = uniqueEmail(slug);
    await page.goto(login());

    // Step 1: details, with the field filters of the spec.
    await page.getByRole("button", { name: "Register here" }).click();
    const dialog = page.getByRole("dialog", { name: "Register as a Teacher" });
    await dialog.getByLabel("Full Name").fill("Marie Curie");
    await dialog.getByLabel("Mobile Number").pressSequentially("555-123-45678x9");
    expect(await dialog.getByLabel("Mobile Number").inputValue()).toBe("5551234567");
    await dialog.getByLabel("Email Address").fill(email);
    const sentAt = Date.now() - 1000;
    await dialog.getByRole("button", { name: "Send OTP" }).click();

    // Step 2: the code, read from the e-mail the app really sent.
    await dialog.getByPlaceholder("Enter 6-digit OTP").waitFor();
    expect(await dialog.getByText("Please check your email for the OTP verification code").isVisible()).toBe(true);
    const code = await codeFromMail(email, sentAt);
    await dialog.getByPlaceholder("Enter 6-digit OTP").fill(`${code}99`);
    expect(await dialog.getByPlaceholder("Enter 6-digit OTP").inputValue()).toBe(code);
    await dialog.getByRole("button", { name: "Verify OTP" }).click();

    // Step 3: password; a mismatch is caught before the server.
    await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await dialog.getByLabel("Confirm Password").fill(`${PASSWORD}!`);
    await dialog.getByRole("button", { name: "Complete Registration" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("Passwords do not match");
    await dialog.getByLabel("Confirm Password").fill(PASSWORD);
    await screenshot(page, `register-step3-${slug}`);
    await dialog.getByRole("button", { name: "Complete Registration" }).click();

    await page.waitForURL(`${base()}/dashboard`);
    await page.getByText("Welcome, Marie Curie").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("teacherName"))).toBe("Marie Curie");
    expect(await page.getByRole("heading", { name: "Books Library" }).isVisible()).toBe(true);
    await screenshot(page, `dashboard-signed-in-${slug}`);

    // Sign out: the session is gone on the server, so the dashboard sends us back to the login.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(login());
    await page.goto(`${base()}/dashboard`);
    expect(new URL(page.url()).pathname).toBe(new URL(login()).pathname);

    await logIn(page, email, PASSWORD);
    await page.waitForURL(`${base()}/dashboard`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(login());

    // Reset the password through the dialog.
    await page.getByRole("button", { name: "Forgot Password?" }).click();
    const reset = page.getByRole("dialog", { name: "Reset Your Password" });
    await reset.getByLabel("Email").fill(email);
    const resetAt = Date.now() - 1000;
    await reset.getByRole("button", { name: "Send OTP" }).click();
    await reset.getByLabel("OTP Code").waitFor();
    await reset.getByLabel("OTP Code").fill(await codeFromMail(email, resetAt));
    await reset.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
    await reset.getByLabel("Confirm New Password").fill(NEW_PASSWORD);
    await reset.getByRole("button", { name: "Reset Password" }).click();
    await reset.getByText("Password reset successful! You can now log in with your new password.").waitFor();
    expect(await reset.getByRole("button", { name: "Reset Password" }).isDisabled()).toBe(true);
    await expect.poll(() => reset.isVisible(), { timeout: 5000 }).toBe(false);

    await logIn(page, email, PASSWORD);
    expect(await page.getByRole("alert").textContent()).toBe("Invalid email or password");
    await logIn(page, email, NEW_PASSWORD);
    await page.waitForURL(`${base()}/dashboard`);
  });

  it("a full school sends a new teacher to the limit-reached page", async () => {
    await execSql(
      `UPDATE schools SET teacher_limit = (SELECT count(*) FROM teachers t WHERE t.school_id = schools.id) WHERE slug = '${slug}'`,
    );
    try {
      const page = await openPage({ allowStatus: [403, 404] });
      await page.goto(login());
      await page.getByRole("button", { name: "Register here" }).click();
      const dialog = page.getByRole("dialog", { name: "Register as a Teacher" });
      await dialog.getByLabel("Full Name").fill("Late Comer");
      await dialog.getByLabel("Mobile Number").fill("5559876543");
      await dialog.getByLabel("Email Address").fill(uniqueEmail("late"));
      await dialog.getByRole("button", { name: "Send OTP" }).click();
      await page.waitForURL(`${base()}/limit-reached`);
      await page.getByRole("heading", { name: "Teacher Registration Limit Reached" }).waitFor();
      expect(await page.getByText("Teachers who already have an account can still log in.").isVisible()).toBe(true);
      expect(await page.getByRole("link", { name: "Back to Login" }).getAttribute("href")).toBe(new URL(login()).pathname);
      expect(await page.getByRole("link", { name: "Home" }).getAttribute("href")).toBe("/");
      await screenshot(page, `limit-reached-${slug}`);
    } finally {
      await execSql(`UPDATE schools SET teacher_limit = 40 WHERE slug = '${slug}'`);
    }
  });
});

describe("tenant isolation in the browser", () => {
  it("a teacher of one school is not signed in at another", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/schools/roosevelt-elementary`);
    await logIn(page, "demo.teacher@roosevelt-elementary.example.org", "lectern-teacher-demo");
    await page.waitForURL(`${baseURL()}/schools/roosevelt-elementary/dashboard`);
    await page.goto(`${baseURL()}/schools/washington-elementary/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/schools/washington-elementary");
    expect(await page.getByRole("heading", { name: "Teacher Login" }).isVisible()).toBe(true);
  });
});

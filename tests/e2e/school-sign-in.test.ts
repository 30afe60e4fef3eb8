// Sign-in with the school's Google or Microsoft account (issue 28, docs/decisions/0029), in
// Chromium: the e2e set-up runs real OpenID providers on loopback standing in for Google and
// Microsoft (scripts/lib/dev-sign-in.ts), whose one sign-in page takes any e-mail address.

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, screenshot, setupBrowser, subdomainURL } from "./browser.ts";
import { adminLogin, execSql } from "./support.ts";

setupBrowser();

const stamp = Date.now().toString(36);

/** The stand-in provider's page, on loopback: the address typed there is the account. */
async function signInAtProvider(page: Page, provider: "Google" | "Microsoft", email: string, shot?: string) {
  await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await page.getByText(`${provider} (local)`).waitFor();
  if (shot) await screenshot(page, shot);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

describe("sign-in with the school's Google or Microsoft account", () => {
  it("an admin turns Google on with the school's domain; a new teacher signs in with Google and lands on the dashboard", async () => {
    const slug = `sign-in-${stamp}`;
    const domain = `sign-in-${stamp}.example.org`;
    await execSql(
      `INSERT INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit)
       VALUES ('${slug}', 'Sign-in School ${stamp}', '1 Test Road', 'Salem', 'OR', '97301', 'office@${domain}', 5)`,
    );

    const admin = await openPage();
    await adminLogin(admin);
    const id = await admin.evaluate(async (wanted) => {
      const answer = (await (await fetch(`/api/schools?query=${wanted}&pageSize=100`)).json()) as {
        schools: { id: number; slug: string }[];
      };
      return answer.schools.find((s) => s.slug === wanted)!.id;
    }, slug);
    await admin.goto(`${baseURL()}/admin/school/${id}`);
    const google = admin.getByRole("group", { name: "Google" });
    await google.getByLabel("Sign in with Google").check();
    await google.getByLabel("E-mail domains allowed (comma-separated)").fill(domain);
    await admin.getByRole("button", { name: "Save sign-in" }).click();
    await admin.getByText("Sign-in saved.").waitFor();
    // From the top: the sticky header and sidebar would otherwise be drawn over the middle.
    await admin.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin, "school-sign-in-admin-1280");

    const page = await openPage();
    await page.goto(`${baseURL()}/${slug}`);
    // Google only: the school has not turned Microsoft on.
    expect(await page.getByRole("link", { name: /^Sign in with / }).allTextContents()).toEqual(["Sign in with Google"]);
    await screenshot(page, "school-sign-in-login-1280");
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    // The school's one domain is the provider's hint (Google's `hd`).
    await page.waitForURL(/\/interaction\//);
    expect(await page.getByLabel("Email").getAttribute("placeholder")).toBe(`you@${domain}`);
    await signInAtProvider(page, "Google", `katherine.johnson@${domain}`, "school-sign-in-provider-1280");

    // A teacher the school did not have: registered with the name the provider vouched for.
    await page.waitForURL(`${baseURL()}/schools/${slug}/dashboard`);
    await page.getByRole("heading", { name: "Books Library" }).waitFor();
    expect(await page.getByText("Welcome, Katherine Johnson").isVisible()).toBe(true);
    await screenshot(page, "school-sign-in-dashboard-1280");
    // Signed in for real: the dashboard stays on a reload.
    await page.reload();
    await page.getByRole("heading", { name: "Books Library" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/schools/${slug}/dashboard`);

    // The admin sees the new teacher on the school's page.
    await admin.reload();
    await admin.getByRole("cell", { name: `katherine.johnson@${domain}`, exact: true }).waitFor();
  });

  it("an address at a domain the school does not list comes back to the login page with the reason, signed out", async () => {
    const page = await openPage({ allowStatus: [401, 404] });
    await page.goto(`${baseURL()}/schools/washington-high`);
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await signInAtProvider(page, "Google", `someone-${stamp}@another-school.example.org`);
    await page.waitForURL(`${baseURL()}/schools/washington-high?signInError=domain`);
    // REFUSALS.domain in workers/sso/flow.ts.
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe(
      "This school only accepts accounts from its own e-mail domains. Sign in with your school account.",
    );
    expect(await page.getByRole("heading", { name: "Teacher Login" }).isVisible()).toBe(true);
    await screenshot(page, "school-sign-in-refused-1280");
    // No session: the dashboard sends the visitor back to the login.
    await page.goto(`${baseURL()}/schools/washington-high/dashboard`);
    await page.getByRole("heading", { name: "Teacher Login" }).waitFor();
  });

  it("on the school's own subdomain, Microsoft signs in the teacher who has that address already", async () => {
    const slug = "lincoln-academy";
    const page = await openPage();
    await page.goto(subdomainURL(slug));
    await page.getByRole("link", { name: "Sign in with Microsoft" }).click();
    await signInAtProvider(page, "Microsoft", `demo.teacher@${slug}.example.org`);
    // Back on the subdomain the teacher began on (the callback was the deployment's own host).
    await page.waitForURL(subdomainURL(slug, "/dashboard"));
    await page.getByRole("heading", { name: "Books Library" }).waitFor();
    expect(await page.getByText("Welcome, Demo Teacher").isVisible()).toBe(true);
    await screenshot(page, "school-sign-in-subdomain-1280");
  });
});

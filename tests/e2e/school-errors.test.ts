import { describe, expect, it } from "vitest";
import { baseURL, openPage, setupBrowser, subdomainURL } from "./browser.ts";
import { signInDemoTeacher } from "./support.ts";

setupBrowser();

// Errors that stay in the school: an unknown page under it is its 'Page Not Found' inside the
// layout, and a dropped connection on the way to the dashboard is the dashboard's 'Unable to load
// books' inside the layout, not the root's 'Unexpected Application Error!'.

/** What Chromium logs for the requests the tests cut off. */
const CUT_OFF = [/ERR_INTERNET_DISCONNECTED/, /Failed to fetch/];

describe.each([
  { name: "by path", origin: () => baseURL(), base: () => `${baseURL()}/schools/lincoln-high` },
  {
    name: "on the subdomain",
    origin: () => subdomainURL("lincoln-high", "").replace(/\/$/, ""),
    base: () => subdomainURL("lincoln-high", "").replace(/\/$/, ""),
  },
])("a school's errors $name", ({ origin, base }) => {
  it("an unknown page under the dashboard says 'Page Not Found' inside the school's layout", async () => {
    const page = await openPage();
    await signInDemoTeacher(page, origin(), "lincoln-high");
    const response = await page.goto(`${base()}/dashboard/nothing-here`);
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
    expect(await page.getByText("The page you are looking for does not exist or has been moved.").isVisible()).toBe(true);
    // The layout: the school's sidebar and the teacher's header.
    expect(await page.getByRole("navigation", { name: "School" }).isVisible()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Search books" }).isVisible()).toBe(true);
    await page.locator("main").getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${base()}/dashboard`);
    await page.getByRole("heading", { level: 1, name: "Books Library" }).waitFor();
  });

  it("a dropped connection on the way to the dashboard says 'Unable to load books' in the layout; Try Again loads it", async () => {
    // Without the app's service worker (a first visit, a browser without one): with it, a page's
    // data that gets no answer loads the kept page instead (tests/e2e/app-shell.test.ts), and
    // Playwright's routes do not see the requests a worker makes.
    const page = await openPage({ allowConsole: CUT_OFF, context: { serviceWorkers: "block" } });
    await signInDemoTeacher(page, origin(), "lincoln-high");
    await page.goto(`${base()}/dashboard?grade=12`);
    await page.locator("main article h3").first().waitFor();

    // The connection drops: every page-data request fails as a network error.
    await page.route(/\.data(\?|$)/, (route) => route.abort("internetdisconnected"));
    await page.getByRole("navigation", { name: "School" }).getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Unable to load books" }).waitFor();
    expect(await page.getByText("Unexpected Application Error!").count()).toBe(0);
    expect(await page.getByRole("navigation", { name: "School" }).isVisible()).toBe(true);

    await page.unroute(/\.data(\?|$)/);
    await page.getByRole("button", { name: "Try Again" }).click();
    await page.getByRole("heading", { level: 1, name: "Books Library" }).waitFor();
    expect(await page.locator("main article h3").count()).toBeGreaterThan(0);
  });
});

import { inject } from "vitest";
import { unstable_splitSqlQuery } from "wrangler";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { type CaughtMessage, extractCode } from "../support/caught-mail.ts";

/** Waits for the e-mail the app sent to `to` (after `since`) and returns the code in it. */
export async function codeFromMail(to: string, since = 0): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${inject("mailCatcherURL")}/messages?to=${encodeURIComponent(to)}`);
    const messages = ((await response.json()) as CaughtMessage[]).filter((m) => Date.parse(String(m.receivedAt)) >= since);
    const code = messages.length ? extractCode(messages[messages.length - 1]!.text) : null;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No code e-mailed to ${to}`);
}

/** Runs SQL against the e2e database, for arranging a situation (a full school) a test needs. */
export async function execSql(sql: string): Promise<void> {
  await withLocalState(inject("persistTo"), async ({ DB }) => {
    await DB.batch(unstable_splitSqlQuery(sql).map((statement) => DB.prepare(statement)));
  });
}

let counter = 0;
export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++counter}@school.test`;

/**
 * Signs the page in as a school's demo teacher through the real login API, from inside the
 * browser (only Chromium resolves *.localhost by itself, Node does not).
 */
export async function signInDemoTeacher(page: import("playwright-core").Page, origin: string, slug: string): Promise<void> {
  await signInTeacher(page, origin, slug, `demo.teacher@${slug}.example.org`, inject("demo").teacherPassword);
}

/** Signs a teacher in through the real API from the page's own origin, as the login form does. */
export async function signInTeacher(
  page: import("playwright-core").Page,
  origin: string,
  slug: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${origin}/api/health`);
  const body = { email, password, slug };
  const status = await page.evaluate(async (data) => {
    const response = await fetch("/api/teacher/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
    });
    return response.status;
  }, body);
  if (status !== 200) throw new Error(`Teacher login failed: ${status}`);
}

/** A page's HTML as the server sends it, fetched by the browser (so cookies and *.localhost work). */
export async function serverHtml(page: import("playwright-core").Page, url: string): Promise<string> {
  return page.evaluate(async (u) => (await fetch(u)).text(), url);
}

/**
 * Registers a new teacher through the real API from the school's page, reading the code from the
 * e-mail the catcher received; the page is then signed in as that teacher.
 */
export async function registerTeacherByMail(
  page: import("playwright-core").Page,
  origin: string,
  teacher: { slug: string; name: string; email: string; password: string },
): Promise<void> {
  await page.goto(`${origin}/schools/${teacher.slug}`);
  const since = Date.now() - 1000;
  const post = (path: string, body: object) =>
    page.evaluate(
      async ([url, data]) => {
        const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
        return response.status;
      },
      [path, body] as const,
    );
  const { slug, name, email, password } = teacher;
  const sent = await post("/api/teacher/send-otp", { email, slug, purpose: "register" });
  if (sent !== 200) throw new Error(`send-otp answered ${sent}`);
  const otp = await codeFromMail(email, since);
  const registered = await post("/api/teacher/register", { name, mobile: "5551234567", email, password, otp, slug });
  if (registered !== 201) throw new Error(`register answered ${registered}`);
}

/** Signs the page in as the demo admin through the console's login form, landing on All Schools. */
export async function adminLogin(page: import("playwright-core").Page, origin = inject("baseURL")): Promise<void> {
  await page.goto(`${origin}/admin`);
  await page.waitForURL(/\/admin\/login/);
  await page.getByLabel("Email").fill(inject("demo").adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(inject("demo").adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "All Schools" }).waitFor();
}

/** The address of a book of the school (`base`) by its title, from the signed-in teacher's dashboard search; the reader is not opened. */
export async function bookHrefOf(page: import("playwright-core").Page, base: string, title: string): Promise<string | null> {
  await page.goto(`${base}/dashboard`);
  await page.locator("#dashboard-search").fill(title);
  return page
    .locator("main article")
    .getByRole("link", { name: new RegExp(title) })
    .first()
    .getAttribute("href");
}

/**
 * Opens a book of the school (`base`, e.g. `${origin}/schools/{slug}`) in the reader from the
 * signed-in teacher's dashboard, by its title: the search narrows the shelf to it and its card's
 * link gives its address. By address rather than by clicks: the 'Continue reading' row can shift
 * the grid under the pointer (clicks are covered elsewhere). Answers the book's id; the caller
 * waits for what it needs of the reader.
 */
export async function openBookFromDashboard(page: import("playwright-core").Page, base: string, title: string): Promise<number> {
  const href = await bookHrefOf(page, base, title);
  await page.goto(new URL(`${href}/view`, page.url()).toString());
  return Number(/book\/(\d+)\/view/.exec(page.url())?.[1]);
}

/**
 * A school of the journey's own (no other test's teachers or licences in it), made by the signed-in
 * admin's page through the API: `name` and `slug` as given, the rest a plain address. Answers its id.
 */
export async function newSchoolThroughApi(
  admin: import("playwright-core").Page,
  name: string,
  slug: string,
): Promise<{ id: number; slug: string; name: string }> {
  const fields = {
    schoolName: name,
    slug,
    address1: "1 Elm Street",
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    email: `library@${slug}.example`,
    teacherLimit: 10,
  };
  const answer = await admin.evaluate(async (body) => {
    const response = await fetch("/api/schools", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { school?: { id: number }; error?: string } };
  }, fields);
  if (answer.status !== 201 || !answer.body.school) throw new Error(`POST /api/schools answered ${answer.status}: ${answer.body.error}`);
  return { id: answer.body.school.id, slug, name };
}

/**
 * Waits until React has hydrated the element `selector` finds (its props sit on the DOM node): a
 * click or a keystroke on the server's HTML before then does nothing, and a busy machine (the
 * whole suite at once) can take seconds to hydrate.
 */
export async function hydratedAt(page: import("playwright-core").Page, selector: string): Promise<void> {
  await page.waitForFunction((found) => {
    const node = document.querySelector(found);
    return node !== null && Object.keys(node).some((key) => key.startsWith("__reactProps"));
  }, selector);
}

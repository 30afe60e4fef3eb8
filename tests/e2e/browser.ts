import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { ROOT } from "../../scripts/lib/env.ts";

export const baseURL = () => inject("baseURL");
export const port = () => inject("port");
/** The same app on a school's own subdomain; Chromium resolves *.localhost to loopback by itself. */
export const subdomainURL = (slug: string, path = "/") => `http://${slug}.localhost:${port()}${path}`;

const SCREENSHOTS = join(ROOT, "screenshots");

/**
 * Debian's chromium-headless-shell: the same Chromium (its Blink, V8 and network stack) without the
 * desktop browser around it, which is what Playwright itself runs headless. On two cores it took the
 * library file from 144 s to 106 s against the full browser (`.ci/run` installs both). The full
 * browser when the shell is missing, or whatever CHROMIUM_PATH names.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

let browser: Browser;
let problems: string[] = [];
/** The contexts the running test opened (undefined outside a test: a `beforeAll`'s stay until the file ends). */
let testContexts: BrowserContext[] | undefined;

/**
 * One Chromium per test file; any console error or uncaught exception fails the test it happened in.
 * A test's pages close when it ends: left open, every earlier test's pages kept running (their
 * queries, timers and service workers), and on two cores Chromium is most of an e2e file's time.
 */
export function setupBrowser() {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(() => {
    testContexts = [];
  });
  afterEach(async () => {
    const found = problems;
    const opened = testContexts ?? [];
    testContexts = undefined;
    // What a page says while it is being closed (an aborted request) is not the test's.
    await Promise.all(opened.map((context) => context.close().catch(() => {})));
    problems = [];
    if (found.length) throw new Error(`The page reported errors:\n${found.join("\n")}`);
  });
}

export async function openPage(
  options: {
    width?: number;
    height?: number;
    allowStatus?: number[];
    allowConsole?: RegExp[];
    /** More for the browser context: a phone's `isMobile`, `hasTouch`, `userAgent`... */
    context?: BrowserContextOptions;
  } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    ...options.context,
  });
  testContexts?.push(context);
  const page = await context.newPage();
  const allowed = options.allowStatus ?? [404];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    // The browser logs the status of pages we deliberately open as 404s.
    if (allowed.some((status) => text.includes(`status of ${status}`))) return;
    if (options.allowConsole?.some((pattern) => pattern.test(text))) return;
    problems.push(`console.error: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return page;
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

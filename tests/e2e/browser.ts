import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { ROOT } from "../../scripts/lib/env.ts";

export const baseURL = () => inject("baseURL");
export const port = () => inject("port");
/** The same app on a school's own subdomain; Chromium resolves *.localhost to loopback by itself. */
export const subdomainURL = (slug: string, path = "/") => `http://${slug}.localhost:${port()}${path}`;

const SCREENSHOTS = join(ROOT, "screenshots");

let browser: Browser;
let problems: string[] = [];

/** One Chromium per test file; any console error or uncaught exception fails the test it happened in. */
export function setupBrowser() {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  afterEach(() => {
    const found = problems;
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

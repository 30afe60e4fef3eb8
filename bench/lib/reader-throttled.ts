// bench:reader on throttled connections (issue 45, docs/decisions/0048): the teacher's reader under
// Chromium's network emulation (CDP Network.emulateNetworkConditions), with and without the data
// saver: the first page, a page turn to a page nothing had loaded, the bytes of each page image, and
// (on the slower profile, with the data saver) page turns once every 20 s, when prefetch has had time.
import type { Browser, Page } from "playwright-core";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { type Row, verdict } from "./report.ts";
import { recordWireBytes } from "./wire-bytes.ts";

export const THROTTLE_PROFILES = [
  { name: "400 kbit/s, 400 ms RTT", kbps: 400, rttMs: 400, slow: true },
  { name: "1.6 Mbit/s, 150 ms RTT", kbps: 1600, rttMs: 150, slow: false },
] as const;
/**
 * How far the page turned to by the page box is from the one the reader opened at (the teacher's
 * saved position, which earlier runs moved): far enough that nothing near it was loaded or prefetched.
 */
const JUMP_BY = 30;
const TURN_EVERY_MS = Number(process.env.READER_TURN_EVERY_MS ?? 20_000);
const TURNS = Number(process.env.READER_TURNS ?? 3);

export interface ThrottledRun {
  profile: string;
  saver: boolean;
  /** navigator.connection.effectiveType under the emulation: what "automatic" would go by. */
  effectiveType: string | null;
  firstPageMs: number | null;
  /** The page the reader opened at, and the one turned to by the page box once it went quiet. */
  openedAt: number | null;
  jumpTo: number | null;
  jumpMs: number | null;
  /** Bytes of each page image received (URL without the host -> bytes). */
  images: { url: string; bytes: number }[];
  /** The page image of `jumpTo` (a text page) as it came. */
  textPageBytes: number | null;
  /** One turn to the next page every TURN_EVERY_MS (slower profile, data saver only). */
  turnsMs: number[];
  error: string | null;
}

/**
 * The book read on throttled connections: freeculture.pdf (running text) when its pages are there,
 * else the school's demo book with the most pages (when the bench's own books could not be prepared,
 * e.g. local D1 dropping their batches on a busy machine), so the rows are still measured.
 */
export async function throttledBook(
  persistTo: string,
  slug: string,
  books: { id: number; title: string; pages: { error: string | null } }[],
): Promise<{ id: number; title: string } | null> {
  const preferred = books.find((book) => book.title === "freeculture.pdf" && !book.pages.error);
  if (preferred) return preferred;
  return withLocalState(persistTo, async ({ DB }) =>
    DB.prepare(
      `SELECT b.id AS id, b.title || ' (demo book)' AS title FROM books b
         JOIN page_sets s ON s.id = b.page_set_id AND s.status = 'ready'
         JOIN book_access a ON a.book_id = b.id JOIN schools sc ON sc.id = a.school_id
       WHERE sc.slug = ? AND s.page_count >= ? ORDER BY s.page_count DESC, b.id LIMIT 1`,
    )
      .bind(slug, 2 * TURNS + 2)
      .first<{ id: number; title: string }>(),
  );
}

/** A page JUMP_BY from `opened` (or as far as the book allows) with TURNS pages after it. */
function farPage(opened: number, pageCount: number): number {
  const last = Math.max(1, pageCount - TURNS);
  if (opened + JUMP_BY <= last) return opened + JUMP_BY;
  if (opened - JUMP_BY >= 1) return opened - JUMP_BY;
  return opened <= pageCount / 2 ? last : 1;
}

/** Milliseconds from the next key press or click to page `target` painted (its image loaded), timed in the page. */
function timeTurn(page: Page, target: number): Promise<number> {
  return page.evaluate(
    (n) =>
      new Promise<number>((resolve, reject) => {
        let startedAt: number | null = null;
        const start = () => {
          startedAt ??= performance.now();
        };
        document.addEventListener("keydown", start, { capture: true, once: true });
        document.addEventListener("pointerdown", start, { capture: true, once: true });
        const deadline = performance.now() + 60_000;
        const check = () => {
          if (startedAt !== null && document.querySelector(`[data-page-number="${n}"][data-rendered]`)) {
            resolve(Math.round(performance.now() - startedAt));
          } else if (performance.now() > deadline) reject(new Error(`page ${n} not painted within 60 s`));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    target,
  );
}

async function quiet(page: Page, inFlight: () => boolean, limitMs: number): Promise<void> {
  for (let waited = 0; inFlight() && waited < limitMs; waited += 100) await page.waitForTimeout(100);
}

/** One cold reading of `url` (a fresh context) on `profile`, the data saver chosen on or off in the reading settings. */
export async function measureThrottled(
  browser: Browser,
  url: string,
  signIn: (page: Page) => Promise<void>,
  profile: (typeof THROTTLE_PROFILES)[number],
  saver: boolean,
): Promise<ThrottledRun> {
  const run: ThrottledRun = {
    profile: profile.name,
    saver,
    effectiveType: null,
    firstPageMs: null,
    openedAt: null,
    jumpTo: null,
    jumpMs: null,
    images: [],
    textPageBytes: null,
    turnsMs: [],
    error: null,
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await signIn(page);
    // The teacher's choice, as the reading settings keep it on the device.
    await page.evaluate(
      (dataSaver) => localStorage.setItem("lectern-reading-settings", JSON.stringify({ dataSaver })),
      saver ? "on" : "off",
    );
    const cdp = await context.newCDPSession(page);
    const wire = await recordWireBytes(cdp);
    const bytesPerSecond = (profile.kbps * 1000) / 8;
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: profile.rttMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    await page.goto(url, { waitUntil: "commit", timeout: 60_000 });
    const reader = page.locator("[data-reader][data-first-paint-ms]").first();
    await reader.waitFor({ state: "attached", timeout: 90_000 });
    run.firstPageMs = Math.round(Number(await reader.getAttribute("data-first-paint-ms")));
    run.effectiveType = await page.evaluate(
      () => (navigator as Navigator & { connection?: { effectiveType?: string } }).connection?.effectiveType ?? null,
    );
    // Whatever page 1 brought along (the next page, the data saver's prefetch) is in before the turn.
    await quiet(page, wire.inFlight, 30_000);
    const box = page.getByLabel("Go to page");
    const opened = Number(await box.inputValue());
    const pageCount = Number(await reader.getAttribute("data-page-count"));
    const target = farPage(opened, pageCount);
    Object.assign(run, { openedAt: opened, jumpTo: target });
    await box.fill(String(target));
    const jumped = timeTurn(page, target);
    await box.press("Enter");
    run.jumpMs = await jumped;
    if (profile.slow && saver) {
      const next = page.getByRole("button", { name: "Next page" });
      for (let turn = 1; turn <= TURNS; turn++) {
        await page.waitForTimeout(TURN_EVERY_MS);
        const turned = timeTurn(page, target + turn);
        await next.click();
        run.turnsMs.push(await turned);
      }
    }
    await quiet(page, wire.inFlight, 10_000);
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);
    run.images = wire
      .log(timeOrigin)
      .filter((r) => /\/pages\/\d+\?w=/.test(r.url) && r.status === 200)
      .map((r) => ({ url: r.url, bytes: r.bytes }));
    const jumpImages = run.images.filter((r) => r.url.includes(`/pages/${target}?`));
    run.textPageBytes = jumpImages.at(-1)?.bytes ?? null;
  } catch (error) {
    run.error = (error as Error).message.split("\n")[0] ?? String(error);
  } finally {
    await context.close();
  }
  return run;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : null;
};
const kB = (bytes: number | null) => (bytes === null ? "-" : `${Math.round(bytes / 1000)} kB`);
const ms = (value: number | null) => (value === null ? "-" : `${value} ms`);
const ratio = (a: number | null, b: number | null) => (a !== null && b ? ` (x${(a / b).toFixed(2)} of without)` : "");

/** The page images a run read as pages: the data saver's, or the sharp ones (not the server's 640 px preview of page 1). */
function pageImageBytes(run: ThrottledRun): number | null {
  const pages = run.images.filter((r) => (run.saver ? r.url.includes("saver=1") : !/\?w=640(&|$)/.test(r.url)));
  return median(pages.map((r) => r.bytes));
}

export const THROTTLED_TARGETS = { saverTextPageKb: 50, saverTurnMs: 2000, prefetchedTurnMs: 300 } as const;

/** The table's rows: per profile, without and with the data saver, with ratios; the slower profile's data saver judged. */
export function throttledRows(runs: ThrottledRun[] | undefined): Row[] {
  if (!runs?.length) return [];
  const T = THROTTLED_TARGETS;
  return THROTTLE_PROFILES.flatMap((profile): Row[] => {
    const off = runs.find((r) => r.profile === profile.name && !r.saver);
    const on = runs.find((r) => r.profile === profile.name && r.saver);
    const section = `reader, ${profile.name}`;
    const judged = profile.slow;
    const rows: Row[] = [];
    for (const run of [off, on]) {
      if (!run) continue;
      const other = run.saver ? off : undefined;
      const label = run.saver ? "data saver on" : "data saver off";
      if (run.error) {
        rows.push({
          section,
          item: `teacher, ${label}`,
          result: `error: ${run.error}`,
          target: "",
          status: judged && run.saver ? "MISSED" : "n/a",
        });
        continue;
      }
      rows.push({
        section,
        item: `teacher, ${label}: first page`,
        result: `${ms(run.firstPageMs)}${ratio(run.firstPageMs, other?.firstPageMs ?? null)}; navigator.connection says ${run.effectiveType ?? "nothing"}`,
        target: "reported",
        status: "info",
      });
      const turnOk = run.jumpMs !== null && run.jumpMs < T.saverTurnMs;
      rows.push({
        section,
        item: `teacher, ${label}: page turn by the page box (page ${run.openedAt} to ${run.jumpTo}), nothing near it loaded`,
        result: `${ms(run.jumpMs)}${ratio(run.jumpMs, other?.jumpMs ?? null)}`,
        target: judged && run.saver ? `< ${T.saverTurnMs} ms` : "reported",
        status: judged && run.saver ? verdict(turnOk) : "info",
      });
      const perPage = pageImageBytes(run);
      const textOk = run.textPageBytes !== null && run.textPageBytes / 1000 < T.saverTextPageKb;
      rows.push({
        section,
        item: `teacher, ${label}: bytes per page image`,
        result: `median ${kB(perPage)}${ratio(perPage, other ? pageImageBytes(other) : null)} over ${run.images.length} images; text page ${run.jumpTo}: ${kB(run.textPageBytes)}${ratio(run.textPageBytes, other?.textPageBytes ?? null)}`,
        target: judged && run.saver ? `text page < ${T.saverTextPageKb} kB` : "reported",
        status: judged && run.saver ? verdict(textOk) : "info",
      });
      if (run.turnsMs.length) {
        const worst = Math.max(...run.turnsMs);
        rows.push({
          section,
          item: `teacher, ${label}: a page turn every ${TURN_EVERY_MS / 1000} s (prefetch), ${run.turnsMs.length} turns`,
          result: `${run.turnsMs.map((t) => `${t} ms`).join(", ")}; worst ${worst} ms`,
          target: `every turn < ${T.prefetchedTurnMs} ms`,
          status: verdict(worst < T.prefetchedTurnMs),
        });
      }
    }
    return rows;
  });
}

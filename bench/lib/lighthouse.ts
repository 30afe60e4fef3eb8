import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

// The TOOLCHAIN flags for Debian's Chromium; chrome-launcher adds its own quiet defaults.
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"].concat([
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);

export interface LighthousePage {
  name: string;
  url: string;
  cookie?: string;
}

export interface LighthouseResult {
  name: string;
  url: string;
  performance: number | null;
  accessibility: number | null;
  finalUrl: string | null;
  /** Failed accessibility audits, and the metrics behind the performance score. */
  accessibilityFailures: string[];
  /** Lighthouse's own estimate of what each failing audit costs the LCP. */
  lcpSavings: string[];
  metrics: Record<string, number | null>;
  /** The element Lighthouse names as the largest paint (its selector and HTML), and the LCP's phases (TTFB, load delay, load time, render delay). */
  lcpElement: string | null;
  lcpPhases: Record<string, number>;
  error: string | null;
}

const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

/** The first failing elements of an audit, as Lighthouse's selectors. */
function failingNodes(details: unknown): string {
  const items = (details as { items?: { node?: { selector?: string } }[] } | undefined)?.items ?? [];
  const selectors = items.flatMap((item) => item.node?.selector ?? []).slice(0, 2);
  return selectors.length ? selectors.join(" | ") : "(no element listed)";
}

// Lighthouse's own "run it again" failures: a trace it could not record, not anything about the page.
const TRACE_FLAKES = new Set(["NO_NAVSTART", "NO_TRACING_STARTED", "NO_RESOURCE_REQUEST"]);

/** The first DOM node an audit's details name (they nest: a table of tables). */
function firstNode(details: unknown): { selector?: string; snippet?: string } | null {
  if (!details || typeof details !== "object") return null;
  const item = details as { type?: string; selector?: string; snippet?: string; node?: { selector?: string; snippet?: string } };
  if (item.type === "node" && (item.selector || item.snippet)) return item;
  if (item.node?.selector || item.node?.snippet) return item.node;
  for (const value of Object.values(details)) {
    const found = Array.isArray(value) ? value.map(firstNode).find(Boolean) : typeof value === "object" ? firstNode(value) : null;
    if (found) return found;
  }
  return null;
}

/** The LCP's phases as Lighthouse's LCP audit or insight lists them (ms), whichever this version has. */
function lcpPhases(audits: Record<string, { details?: unknown }>): Record<string, number> {
  const phases: Record<string, number> = {};
  const visit = (value: unknown) => {
    if (!value || typeof value !== "object") return;
    const item = value as { phase?: string; subpart?: string; label?: string; timing?: number; duration?: number };
    const name = item.phase ?? item.subpart;
    const ms = item.timing ?? item.duration;
    if (typeof name === "string" && typeof ms === "number") phases[name] = Math.round(ms);
    for (const child of Object.values(value)) if (typeof child === "object") visit(child);
  };
  for (const id of ["largest-contentful-paint-element", "lcp-breakdown-insight", "lcp-phases-insight"]) visit(audits[id]?.details);
  return phases;
}

/** One Lighthouse report; a trace-recording failure is retried twice, and said so on the console. */
async function auditPage(port: number, page: LighthousePage) {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(page.url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      extraHeaders: page.cookie ? { Cookie: page.cookie } : undefined,
      maxWaitForLoad: 30_000,
    });
    const lhr = run?.lhr;
    if (!lhr) throw new Error("lighthouse returned no report");
    if (!lhr.runtimeError) return lhr;
    if (attempt < 3 && TRACE_FLAKES.has(lhr.runtimeError.code)) {
      console.warn(`  lighthouse ${page.name}: ${lhr.runtimeError.code}, running it again (attempt ${attempt + 1})`);
      continue;
    }
    throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  }
}

/** Lighthouse's default (mobile, simulated throttling) performance and accessibility on each page, one Chromium. */
export async function runLighthouse(pages: LighthousePage[]): Promise<LighthouseResult[]> {
  const userDataDir = mkdtempSync(join(tmpdir(), "lectern-lighthouse-"));
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROMIUM_FLAGS,
    userDataDir,
    logLevel: "silent",
  });
  const results: LighthouseResult[] = [];
  try {
    for (const page of pages) {
      const result: LighthouseResult = {
        name: page.name,
        url: page.url,
        performance: null,
        accessibility: null,
        finalUrl: null,
        accessibilityFailures: [],
        lcpSavings: [],
        metrics: {},
        lcpElement: null,
        lcpPhases: {},
        error: null,
      };
      try {
        const lhr = await auditPage(chrome.port, page);
        const score = (id: string) => {
          const value = lhr.categories[id]?.score;
          return value === null || value === undefined ? null : Math.round(value * 100);
        };
        result.performance = score("performance");
        result.accessibility = score("accessibility");
        result.finalUrl = lhr.finalDisplayedUrl;
        result.accessibilityFailures = (lhr.categories.accessibility?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${ref.id} at ${failingNodes(lhr.audits[ref.id]?.details)}`);
        result.lcpSavings = Object.values(lhr.audits)
          .filter((audit) => (audit.metricSavings?.LCP ?? 0) > 0 && (audit.score ?? 1) < 1)
          .sort((a, b) => (b.metricSavings?.LCP ?? 0) - (a.metricSavings?.LCP ?? 0))
          .slice(0, 3)
          .map((audit) => `${audit.id} ~${Math.round(audit.metricSavings?.LCP ?? 0)} ms`);
        result.metrics = Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.numericValue ?? null]));
        const lcpNode =
          firstNode(lhr.audits["lcp-breakdown-insight"]?.details) ?? firstNode(lhr.audits["largest-contentful-paint-element"]?.details);
        result.lcpElement = lcpNode ? `${lcpNode.selector ?? ""} ${lcpNode.snippet ?? ""}`.trim() : null;
        result.lcpPhases = lcpPhases(lhr.audits);
        for (const warning of lhr.runWarnings) console.warn(`  lighthouse ${page.name}: ${warning}`);
      } catch (error) {
        result.error = (error as Error).message.split("\n")[0] ?? String(error);
      }
      results.push(result);
    }
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  return results;
}

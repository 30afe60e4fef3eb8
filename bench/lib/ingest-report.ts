// What npm run bench:ingest (bench/ingest.ts) reports: the results' shapes, the table, the targets
// and the projection for Cloudflare from the CPU per page and Queues' documented concurrency.
import type { IngestTimes } from "./ingest-api.ts";
import { HEAVY } from "./reader-books.ts";

/** Documented limits the projection uses (developers.cloudflare.com/queues/platform/limits/, read 2026-11-28). */
export const QUEUES = { maxConcurrentConsumers: 250, messagesPerSecond: 5_000, consumerCpuLimitMs: 300_000 };
/** Pages per range message after the first (workers/page-images/preparation.ts RANGE_PAGES). */
export const RANGE_PAGES = 10;
export const TARGETS = { firstPageS: 15, firstTenS: 30, heavyWholeS: 180, heavyMemoryBytes: 128 * 2 ** 20 };
export const MB = 2 ** 20;

export interface SideResult extends IngestTimes {
  pagesPerSecond: number | null;
  uploadSeconds: number;
  error?: string;
}

export interface AfterResult extends SideResult {
  wasmHeapPeakBytes: number | null;
  workerdRssPeakBytes: number | null;
  workerdRssGrowthBytes: number | null;
  cpuMsPerPage: number | null;
}

export interface FileResult {
  name: string;
  sizeBytes: number;
  after: AfterResult;
  before: SideResult | null;
}

export const fmt = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? "-" : value.toFixed(digits));
const mb = (bytes: number | null | undefined) => (bytes === null || bytes === undefined ? "-" : (bytes / MB).toFixed(0));

export function table(results: FileResult[]): string[] {
  const head = [
    "file",
    "MB",
    "pages",
    "side",
    "first page s",
    "first 10 s",
    "whole s",
    "pages/s",
    "failed",
    "wasm heap MB (high-water)",
    "workerd RSS MB (+growth)",
    "CPU ms/page",
  ];
  const rows: string[][] = [];
  for (const result of results) {
    const { after, before } = result;
    const outcome = (side: SideResult) =>
      side.error ? `error: ${side.error.slice(0, 60)}` : side.refused ? `refused` : String(side.failed.length);
    rows.push([
      result.name,
      (result.sizeBytes / MB).toFixed(1),
      String(after.pageCount ?? before?.pageCount ?? "-"),
      "platform",
      fmt(after.firstPage),
      fmt(after.firstTen),
      fmt(after.whole),
      fmt(after.pagesPerSecond),
      outcome(after),
      mb(after.wasmHeapPeakBytes),
      `${mb(after.workerdRssPeakBytes)} (+${mb(after.workerdRssGrowthBytes)})`,
      fmt(after.cpuMsPerPage, 0),
    ]);
    if (before)
      rows.push([
        "",
        "",
        String(before.pageCount ?? "-"),
        "admin's browser",
        fmt(before.firstPage),
        fmt(before.firstTen),
        fmt(before.whole),
        fmt(before.pagesPerSecond),
        outcome(before),
        "",
        "",
        "",
      ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)];
}

export interface TargetRow {
  target: string;
  measured: string;
  status: "ok" | "MISSED" | "n/a";
}

export function targets(results: FileResult[]): TargetRow[] {
  const rows: TargetRow[] = [];
  const readable = results.filter((r) => !r.after.refused && !r.after.error && r.after.pageCount);
  const verdict = (ok: boolean | null): TargetRow["status"] => (ok === null ? "n/a" : ok ? "ok" : "MISSED");
  for (const r of readable) {
    rows.push({
      target: `${r.name}: first page readable < ${TARGETS.firstPageS} s after the upload`,
      measured: `${fmt(r.after.firstPage)} s`,
      status: verdict(r.after.firstPage === null ? false : r.after.firstPage < TARGETS.firstPageS),
    });
    rows.push({
      target: `${r.name}: first 10 pages < ${TARGETS.firstTenS} s`,
      measured: `${fmt(r.after.firstTen)} s`,
      status: verdict(r.after.firstTen === null ? false : r.after.firstTen < TARGETS.firstTenS),
    });
    const beforeWhole = r.before?.whole ?? null;
    rows.push({
      target: `${r.name}: whole book no slower than the admin's browser`,
      measured: `${fmt(r.after.whole)} s vs ${fmt(beforeWhole)} s`,
      status: verdict(
        beforeWhole === null || r.after.whole === null ? (r.after.whole === null ? false : null) : r.after.whole <= beforeWhole,
      ),
    });
  }
  const heavy = results.find((r) => r.name.startsWith("heavy"));
  if (heavy) {
    rows.push({
      target: `500-page book whole < ${TARGETS.heavyWholeS} s`,
      measured: `${fmt(heavy.after.whole)} s`,
      status: verdict(heavy.after.whole === null ? false : heavy.after.whole < TARGETS.heavyWholeS),
    });
    rows.push({
      target: "peak renderer memory < 128 MB for the 100 MB book (PDFium wasm heap)",
      measured: `${mb(heavy.after.wasmHeapPeakBytes)} MB wasm heap; workerd RSS grew ${mb(heavy.after.workerdRssGrowthBytes)} MB (app, renderer and local D1/R2 together)`,
      status: verdict(heavy.after.wasmHeapPeakBytes === null ? null : heavy.after.wasmHeapPeakBytes < TARGETS.heavyMemoryBytes),
    });
  }
  return rows;
}

/** Pages a second on Cloudflare from the CPU per page measured here and Queues' documented concurrency. */
export function projection(results: FileResult[]) {
  const measured = results.filter((r) => r.after.cpuMsPerPage && r.after.pageCount && r.after.pageCount >= 20);
  if (!measured.length) return null;
  const pages = measured.reduce((sum, r) => sum + r.after.pageCount!, 0);
  const cpuMsPerPage = measured.reduce((sum, r) => sum + r.after.cpuMsPerPage! * r.after.pageCount!, 0) / pages;
  const perConsumer = 1000 / cpuMsPerPage;
  const ceiling = perConsumer * QUEUES.maxConcurrentConsumers;
  const heavyRanges = Math.ceil((HEAVY.pages - 3) / RANGE_PAGES) + 1;
  const rangeSeconds = (RANGE_PAGES * cpuMsPerPage) / 1000;
  return {
    cpuMsPerPage,
    pagesPerSecondOneConsumer: perConsumer,
    pagesPerSecondAt250Consumers: ceiling,
    heavyBookRanges: heavyRanges,
    heavyBookSecondsAtFullScaleOut: rangeSeconds * Math.ceil(heavyRanges / QUEUES.maxConcurrentConsumers),
    rangeCpuSeconds: rangeSeconds,
    limits: QUEUES,
    note: "CPU per page is workerd's whole CPU time over the book (renderer, app answering the progress polls, local D1 and R2) divided by its pages: an upper bound of the renderer's. Queues scales consumers out gradually with the backlog (up to 250 concurrent invocations per queue); a book's own parallelism is its range count (one message per 10 pages), and each consumer invocation runs one range (one job per isolate).",
  };
}

// npm run bench:ingest (issue 42, item 8): how fast an uploaded PDF becomes readable when the platform
// prepares its pages (the renderer Worker on the local queue, as `npm start` runs it; HEAD, built in a
// worktree, so a shared working tree mid-change does not matter), against today's
// path before the change (the admin's browser, Chromium, preparing them with pdf.js on the book page,
// built from the commit before the change), in the same run on the same files: the generated 100 MB,
// 500-page book and each PDF in ../shared/pdfs. Each book is uploaded through the API (start, parts,
// complete) and timed from the end of the upload: page 1 stored (a teacher can read it), pages 1-10,
// the whole book. Also pages a second, failed pages, and for the platform the peak PDFium wasm heap
// and workerd's peak resident memory and CPU per page (/proc; workerd also runs the app and local
// D1/R2, so both are upper bounds), then a projection for Cloudflare from the CPU per page and Queues'
// documented consumer concurrency. Results: bench/results/ingest.json.
//
//   --only heavy,freeculture   only the files whose names contain one of these ("heavy": the generated book)
//   --skip-before              the platform alone (no Chromium, no build of the old commit)
//   --after <commit>           the platform side from this commit instead of HEAD
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { argValue, ROOT } from "../scripts/lib/env.ts";
import { type LocalServer, startLocalServer } from "../scripts/lib/local-server.ts";
import { seedEnv } from "../scripts/lib/seed-local.ts";
import { generateHeavyPdf } from "./lib/big-pdf.ts";
import { freePorts } from "./lib/free-ports.ts";
import { AdminClient, type IngestTimes, watchPreparation } from "./lib/ingest-api.ts";
import { peakWasmHeap, processesCpuMs, sampleRss } from "./lib/ingest-measure.ts";
import { type AfterResult, type FileResult, fmt, MB, projection, type SideResult, TARGETS, table, targets } from "./lib/ingest-report.ts";
import { BEFORE_COMMIT, baseState, INGEST_DIR, stageAfter, stageBefore } from "./lib/ingest-stage.ts";
import { HEAVY, SHARED_PDFS } from "./lib/reader-books.ts";
import { copyLocalState } from "./lib/state-copy.ts";

const log = (line: string) => console.log(`[ingest] ${line}`);
/** The commit the platform side ran (HEAD when the run began). */
let afterCommit = "";
const started = Date.now();

interface BenchFile {
  name: string;
  bytes: Uint8Array;
  heavy: boolean;
}

const only = argValue("--only")
  ?.split(",")
  .map((part) => part.trim().toLowerCase())
  .filter(Boolean);
const skipBefore = process.argv.includes("--skip-before");
const wanted = (name: string) => !only || only.some((part) => name.toLowerCase().includes(part));

async function benchFiles(): Promise<BenchFile[]> {
  const files: BenchFile[] = [];
  if (wanted("heavy")) {
    const bytes = await generateHeavyPdf(HEAVY);
    files.push({ name: `heavy (generated, ${HEAVY.pages} pages)`, bytes, heavy: true });
  }
  for (const file of readdirSync(SHARED_PDFS).sort())
    if (file.toLowerCase().endsWith(".pdf") && wanted(file))
      files.push({ name: file, bytes: new Uint8Array(readFileSync(join(SHARED_PDFS, file))), heavy: false });
  return files;
}

const pagesPerSecond = (times: IngestTimes) =>
  times.whole && times.pageCount ? (times.pageCount - times.failed.length) / Math.max(times.whole, 0.001) : null;

async function uploadAndWatch(admin: AdminClient, file: BenchFile, side: string, onUploaded?: (bookId: number) => Promise<void>) {
  const bookId = await admin.createBook(`${file.name} (${side} ${Date.now().toString(36)})`);
  const uploadStart = Date.now();
  const { endedAt } = await admin.uploadPdf(bookId, file.bytes);
  const uploadSeconds = (endedAt - uploadStart) / 1000;
  await onUploaded?.(bookId);
  let shown = 0;
  const times = await watchPreparation(admin, bookId, endedAt, {
    everyMs: 250,
    timeoutMs: 12 * 60_000,
    onProgress(status) {
      const progress = status.preparing ?? status.ready;
      const seconds = (Date.now() - endedAt) / 1000;
      if (seconds - shown >= 15 && progress) {
        shown = seconds;
        log(`  ${side} ${file.name}: ${progress.done.length}/${progress.pageCount ?? "?"} pages at ${seconds.toFixed(0)} s`);
      }
    },
  });
  return { bookId, times, uploadSeconds };
}

/** The platform: the staged app and renderer in one wrangler dev session on a copy of the base state. */
async function runAfter(files: BenchFile[], base: string, port: number): Promise<AfterResult[]> {
  log(`staging ${argValue("--after") ?? "HEAD"} (its build in a worktree, its renderer bundled)`);
  const { commit, ...staged } = await stageAfter(log, argValue("--after") ?? "HEAD");
  afterCommit = commit;
  const state = join(INGEST_DIR, "after/state");
  copyLocalState(base, state, "no file is skipped");
  const server = await startLocalServer({ port, persistTo: state, ...staged });
  const env = seedEnv();
  const results: AfterResult[] = [];
  try {
    const admin = await AdminClient.signIn(server.origin, env.DEMO_ADMIN_EMAIL, env.DEMO_ADMIN_PASSWORD);
    for (const file of files) {
      log(`platform: ${file.name}`);
      results.push(await measureAfter(server, admin, file));
      const last = results.at(-1)!;
      log(
        `  platform ${file.name}: first page ${fmt(last.firstPage)} s, whole ${fmt(last.whole)} s${last.refused ? ` (refused: ${last.refused})` : ""}`,
      );
    }
  } finally {
    await server.stop();
  }
  return results;
}

async function measureAfter(server: LocalServer, admin: AdminClient, file: BenchFile): Promise<AfterResult> {
  const pids = server.workerdPids();
  const outputFrom = server.output().length;
  const cpuBefore = processesCpuMs(pids);
  const rss = sampleRss(pids);
  try {
    const { times, uploadSeconds } = await uploadAndWatch(admin, file, "platform");
    const cpuAfter = processesCpuMs(pids);
    const memory = rss.stop();
    const pages = times.pageCount ?? 0;
    return {
      ...times,
      uploadSeconds,
      pagesPerSecond: pagesPerSecond(times),
      wasmHeapPeakBytes: peakWasmHeap(server.output().slice(outputFrom)),
      workerdRssPeakBytes: memory.peak,
      workerdRssGrowthBytes: memory.peak !== null && memory.baseline !== null ? memory.peak - memory.baseline : null,
      cpuMsPerPage: cpuBefore !== null && cpuAfter !== null && pages ? (cpuAfter - cpuBefore) / pages : null,
    };
  } catch (error) {
    rss.stop();
    return {
      ...emptyTimes(),
      uploadSeconds: 0,
      pagesPerSecond: null,
      wasmHeapPeakBytes: null,
      workerdRssPeakBytes: null,
      workerdRssGrowthBytes: null,
      cpuMsPerPage: null,
      error: String(error),
    };
  }
}

const emptyTimes = (): IngestTimes => ({ firstPage: null, firstTen: null, whole: null, pageCount: null, failed: [] });

/** Today's path before the change: the old build alone, and the admin's book page open in Chromium until the book is ready. */
async function runBefore(files: BenchFile[], base: string, port: number): Promise<SideResult[]> {
  log(`staging ${BEFORE_COMMIT} (the admin's browser prepares the pages)`);
  const appConfig = await stageBefore(log);
  const state = join(INGEST_DIR, "before/state");
  copyLocalState(base, state, "no file is skipped");
  const server = await startLocalServer({ port, persistTo: state, appConfig, rendererConfig: null, cron: false });
  const browser = await chromium.launch({
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
  const env = seedEnv();
  const results: SideResult[] = [];
  try {
    const admin = await AdminClient.signIn(server.origin, env.DEMO_ADMIN_EMAIL, env.DEMO_ADMIN_PASSWORD);
    for (const file of files) {
      log(`admin's browser: ${file.name}`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies(admin.cookies().map((cookie) => ({ ...cookie, url: server.origin })));
      const page = await context.newPage();
      try {
        const { times, uploadSeconds } = await uploadAndWatch(admin, file, "browser", async (bookId) => {
          // The admin opens the book's page the moment the upload ends, and keeps it open.
          await page.goto(`${server.origin}/admin/book/${bookId}`);
        });
        results.push({ ...times, uploadSeconds, pagesPerSecond: pagesPerSecond(times) });
      } catch (error) {
        results.push({ ...emptyTimes(), uploadSeconds: 0, pagesPerSecond: null, error: String(error) });
      } finally {
        await context.close();
      }
      const last = results.at(-1)!;
      log(
        `  browser ${file.name}: first page ${fmt(last.firstPage)} s, whole ${fmt(last.whole)} s${last.refused ? ` (refused: ${last.refused})` : ""}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return results;
}

const files = await benchFiles();
if (!files.length) {
  console.error(`No file matches --only ${only?.join(",")}`);
  process.exit(1);
}
log(`files: ${files.map((f) => `${f.name} (${(f.bytes.byteLength / MB).toFixed(1)} MB)`).join(", ")}`);
mkdirSync(INGEST_DIR, { recursive: true });
const base = await baseState(log);
const [afterPort, beforePort] = await freePorts(2);
const after = await runAfter(files, base, afterPort!);
const before = skipBefore ? null : await runBefore(files, base, beforePort!);
const results: FileResult[] = files.map((file, i) => ({
  name: file.name,
  sizeBytes: file.bytes.byteLength,
  after: after[i]!,
  before: before?.[i] ?? null,
}));
const targetRows = targets(results);
const projected = projection(results);

console.log(
  `\nIngest: seconds from the end of the upload (platform = the renderer Worker at ${afterCommit.slice(0, 7)} on the local queue; admin's browser = ${BEFORE_COMMIT} in Chromium; 2 cores)\n`,
);
for (const line of table(results)) console.log(line);
console.log("\nTargets\n");
for (const row of targetRows) console.log(`  ${row.status.padEnd(6)} ${row.target}: ${row.measured}`);
if (projected) {
  console.log("\nProjection for Cloudflare (Queues: up to 250 concurrent consumer invocations a queue, documented limits)\n");
  console.log(`  CPU per page measured here (upper bound): ${projected.cpuMsPerPage.toFixed(0)} ms`);
  console.log(
    `  one consumer: ${projected.pagesPerSecondOneConsumer.toFixed(1)} pages/s; at 250 consumers: ${projected.pagesPerSecondAt250Consumers.toFixed(0)} pages/s`,
  );
  console.log(
    `  the 500-page book: ${projected.heavyBookRanges} messages, so at most that many consumers at once: about ${projected.heavyBookSecondsAtFullScaleOut.toFixed(1)} s of rendering once scaled out (plus the plan, the finish and the ramp-up)`,
  );
}
const missed = targetRows.filter((row) => row.status === "MISSED");
console.log(
  `\n${missed.length ? `${missed.length} target(s) missed` : "Every target met"}; ${Math.round((Date.now() - started) / 1000)} s in all.`,
);

mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(
  join(ROOT, "bench/results/ingest.json"),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      afterCommit,
      beforeCommit: BEFORE_COMMIT,
      targets: TARGETS,
      results,
      targetRows,
      projection: projected,
    },
    null,
    2,
  ),
);
rmSync(join(INGEST_DIR, "after/state"), { recursive: true, force: true });
rmSync(join(INGEST_DIR, "before/state"), { recursive: true, force: true });
process.exit(0);

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../scripts/lib/env.ts";
import { adminCookie, serveApp, startApp, teacherCookie } from "./lib/app-server.ts";
import { addBenchTeachers, benchTeacherEmail } from "./lib/bench-teachers.ts";
import { addBigSchool } from "./lib/big-school.ts";
import { runReaderBench, runTraceBench } from "./lib/child-bench.ts";
import { freePorts } from "./lib/free-ports.ts";
import { runLighthouse } from "./lib/lighthouse.ts";
import { islandStart, measureChunks, measurePageWeight, routeStart } from "./lib/page-weight.ts";
import { cpuPerRequest } from "./lib/process-cpu.ts";
import { explainHotQueries } from "./lib/query-plans.ts";
import { addRangeBook, RANGE_BOOK } from "./lib/range-book.ts";
import { preparationRows, type ReaderReport, readerRows, routeChunkRows, stampRows } from "./lib/reader-report.ts";
import { throttledRows } from "./lib/reader-throttled.ts";
import { dashboardCostRows, lighthouseRows, planRows, type Row, scaleRows, TARGETS, throughputRows, weightRows } from "./lib/report.ts";
import { ensureScaleState } from "./lib/scale-seed.ts";
import { measureStampWall, type StampWall } from "./lib/stamp-wall.ts";
import { LOAD, type LoadResult, type LoadTarget, runLoad, timeSequential } from "./lib/throughput.ts";
import { type TraceReport, traceRows } from "./lib/trace-report.ts";
import { timeUsageReports, usageReportRows } from "./lib/usage-reports.ts";
import { measureWorkerSize, workerSizeRows } from "./lib/worker-size.ts";

// Free ports from the OS: fixed ones collided with `npm start` (its sign-in stand-ins listen on 8801 and 8802).
const [mainPort, scalePort] = await freePorts(2);
const PORT = { main: mainPort!, scale: scalePort! };
// The page budget is per teacher and book (max(4 x pages, 200) an hour): the stamped-page load
// test and the sequential pairs spread over this many teachers of lincoln-high.
const PAGE_TEACHERS = 12;
/** The page both the teacher and the admin ask for, in the load test and the stamp timings (a cover). */
const PAGE_N = 1;
/**
 * A body page of the same book, for the stamp's target (issue 25: a text page at 1024 px under 50 ms).
 * A demo book's body pages carry colour figures, so it is stamped to WebP: costlier than a grey text page's PNG.
 */
const TEXT_PAGE_N = 3;
const SEARCH = "science";
const started = performance.now();
const startedAt = Date.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** Paths whose time must not grow more than 2x from the demo database to the scale one. */
const scalePaths = () => ({
  "dashboard, 24 books (lincoln-high)": { path: "/schools/lincoln-high/dashboard", who: "lincoln" },
  "dashboard, 1,000 books (big-library)": { path: "/schools/big-library/dashboard", who: "big" },
  [`search-books "${SEARCH}" (big-library)`]: { path: `/api/schools/slug/big-library/search-books?query=${SEARCH}`, who: "big" },
  "admin books by title": { path: "/api/books?sort=title&dir=asc&page=1&pageSize=25", who: "admin" },
  "admin books by createdAt": { path: "/api/books?sort=createdAt&dir=desc&page=1&pageSize=25", who: "admin" },
  [`admin books search "${SEARCH}"`]: { path: `/api/books?query=${SEARCH}&page=1&pageSize=25`, who: "admin" },
  [`admin book picker "${SEARCH}"`]: { path: `/api/books/search?query=${SEARCH}`, who: "admin" },
  "admin schools by name": { path: "/api/schools?sort=name&dir=asc&page=1&pageSize=25", who: "admin" },
});

type Cookies = Record<"lincoln" | "big" | "admin", string>;
async function signIn(origin: string, env: { DEMO_TEACHER_PASSWORD: string; DEMO_ADMIN_EMAIL: string; DEMO_ADMIN_PASSWORD: string }) {
  const teacher = (slug: string) => teacherCookie(origin, slug, `demo.teacher@${slug}.example.org`, env.DEMO_TEACHER_PASSWORD);
  return {
    lincoln: await teacher("lincoln-high"),
    big: await teacher("big-library"),
    admin: await adminCookie(origin, env.DEMO_ADMIN_EMAIL, env.DEMO_ADMIN_PASSWORD),
  };
}

async function timeScalePaths(origin: string, cookies: Cookies) {
  const times: Record<string, { p50Ms: number; p95Ms: number; firstByteP50Ms: number }> = {};
  for (const [name, { path, who }] of Object.entries(scalePaths()))
    times[name] = await timeSequential(`${origin}${path}`, { Cookie: cookies[who as keyof Cookies] });
  return times;
}

// ---- 1. The demo database with big-library and the range book: load, page weight, Lighthouse.
log("seeding the demo database (+ big-library with 1,000 books, a 64 MiB range book)");
let rangeBookId = 0;
const app = await startApp({
  port: PORT.main,
  state: ".wrangler/bench-main",
  prepare: async (dir) => {
    await addBigSchool(dir, 1000);
    rangeBookId = await addRangeBook(dir);
    await addBenchTeachers(dir, "lincoln-high", PAGE_TEACHERS);
  },
});
const load: LoadResult[] = [];
let small: Awaited<ReturnType<typeof timeScalePaths>>;
let dashboardCpu: { floor: number; small: number; big: number } | null = null;
const weights: Awaited<ReturnType<typeof measurePageWeight>>[] = [];
let lighthouse: Awaited<ReturnType<typeof runLighthouse>> = [];
const stampWall: StampWall[] = [];
let pageBook = { id: 0, title: "" };
try {
  const cookies = await signIn(app.origin, app.env);
  const pageCookies: string[] = [];
  for (let i = 1; i <= PAGE_TEACHERS; i++)
    pageCookies.push(await teacherCookie(app.origin, "lincoln-high", benchTeacherEmail("lincoln-high", i), app.env.DEMO_TEACHER_PASSWORD));
  const shelf = (await (
    await fetch(`${app.origin}/api/schools/slug/lincoln-high/books`, { headers: { Cookie: cookies.lincoln } })
  ).json()) as { books: { id: number; title: string; readable: boolean }[] };
  // A demo book whose pages are prepared (the range book has a PDF but no pages).
  pageBook = shelf.books.find((b) => b.readable && b.id !== rangeBookId) ?? pageBook;
  if (!pageBook.id) throw new Error("no lincoln-high book has prepared pages");
  const pagePath = `/api/books/${pageBook.id}/pages/${PAGE_N}?w=1024`;
  const targets: LoadTarget[] = [
    { name: "/api/health (floor)", path: "/api/health" },
    { name: "landing /", path: "/" },
    { name: "school page /lincoln-high", path: "/lincoln-high" },
    { name: "dashboard, 24 books", path: "/schools/lincoln-high/dashboard", headers: { Cookie: cookies.lincoln } },
    { name: "dashboard, 1,000 books", path: "/schools/big-library/dashboard", headers: { Cookie: cookies.big } },
    // Diagnostic: the same loaders as React Router's data request, without the HTML render.
    { name: "dashboard, 1,000 books, loaders only (.data)", path: "/schools/big-library/dashboard.data", headers: { Cookie: cookies.big } },
    {
      name: `search-books "${SEARCH}"`,
      path: `/api/schools/slug/big-library/search-books?query=${SEARCH}`,
      headers: { Cookie: cookies.big },
    },
    // Teachers get 403 for the PDF since page images: the range reader is the admin's now.
    { name: "admin PDF range 1 MiB", path: `/api/books/${rangeBookId}/pdf`, headers: { Cookie: cookies.admin, Range: "bytes=0-1048575" } },
    { name: `admin page ${PAGE_N}, 1024 px (stored PNG)`, path: pagePath, headers: { Cookie: cookies.admin } },
    {
      name: `teacher page ${PAGE_N}, 1024 px (stamped)`,
      path: pagePath,
      cookies: pageCookies,
      versus: `admin page ${PAGE_N}, 1024 px (stored PNG)`,
    },
  ];
  for (const target of targets) {
    const probe = await fetch(`${app.origin}${target.path}`, {
      headers: { ...target.headers, ...(target.cookies ? { Cookie: target.cookies[0]! } : {}) },
    });
    await probe.arrayBuffer();
    if (probe.status !== 200 && probe.status !== 206) throw new Error(`${target.path} answers ${probe.status} before the load test`);
    log(`load: ${target.name} (${LOAD.connections} connections, ${LOAD.durationSeconds} s)`);
    load.push(await runLoad(app.origin, target));
  }
  log("sequential times on the demo database");
  small = await timeScalePaths(app.origin, cookies);

  // Decision 37: the dashboard judged by its CPU per request (24 and 1,000 books) rather than req/s.
  if (process.platform === "linux") {
    log("dashboard CPU per request (workerd)");
    const cpuOf = async (path: string, cookie?: string) =>
      (await cpuPerRequest(app.processGroup, `${app.origin}${path}`, cookie ? { Cookie: cookie } : {})).workerdMs;
    dashboardCpu = {
      floor: await cpuOf("/api/health"),
      small: await cpuOf("/schools/lincoln-high/dashboard", cookies.lincoln),
      big: await cpuOf("/schools/big-library/dashboard", cookies.big),
    };
  }

  log(`stamp wall time: teacher minus admin, pages ${PAGE_N} and ${TEXT_PAGE_N} of "${pageBook.title}"`);
  // A fresh teacher: the load test may have spent the others' budget for this book.
  const wallTeacher = await teacherCookie(
    app.origin,
    "lincoln-high",
    "demo.teacher@lincoln-high.example.org",
    app.env.DEMO_TEACHER_PASSWORD,
  );
  for (const [n, width] of [
    [PAGE_N, 1024],
    [PAGE_N, 2048],
    [TEXT_PAGE_N, 1024],
  ] as const)
    stampWall.push(await measureStampWall(app.origin, { bookId: pageBook.id, n, width }, { teacher: wallTeacher, admin: cookies.admin }));

  log("page weight");
  const readerBook = pageBook.id;
  const pages = [
    { name: "landing /", path: "/", jsBudgetKb: 100, pdfjsAllowed: false },
    { name: "school login /lincoln-high", path: "/lincoln-high", jsBudgetKb: 100, pdfjsAllowed: false },
    { name: "dashboard", path: "/schools/lincoln-high/dashboard", cookie: cookies.lincoln, jsBudgetKb: 150, pdfjsAllowed: false },
    {
      name: "teacher reader",
      path: `/schools/lincoln-high/dashboard/book/${readerBook}/view`,
      cookie: cookies.lincoln,
      jsBudgetKb: TARGETS.readerRouteJsKb,
      pdfjsAllowed: false,
    },
    // The PDF view (pdf.js); the admin reader's default is the page images (docs/decisions/0022).
    { name: "admin PDF reader", path: `/admin/pdf/${readerBook}?view=pdf`, cookie: cookies.admin, pdfjsAllowed: true },
  ];
  for (const page of pages) weights.push(await measurePageWeight(app.origin, page));

  log("lighthouse (3 pages)");
  lighthouse = await runLighthouse([
    { name: "landing /", url: `${app.origin}/` },
    { name: "school page /lincoln-high", url: `${app.origin}/lincoln-high` },
    { name: "dashboard (24 books)", url: `${app.origin}/schools/lincoln-high/dashboard`, cookie: cookies.lincoln },
  ]);
} finally {
  app.stop();
}

// ---- 2. The scale database: query plans through the D1 binding, then the same paths over HTTP.
const scaleState = await ensureScaleState(log);
log(scaleState.cached ? "scale database: cached" : `scale database built in ${scaleState.seconds} s`);
const { plans, rows: scaleCounts } = await explainHotQueries(scaleState.persistTo);
for (const plan of plans) {
  console.log(`\n${plan.fullScans.length ? "✖" : "✔"} ${plan.query}\n  ${plan.sql.slice(0, 160)}${plan.sql.length > 160 ? "…" : ""}`);
  for (const line of plan.plan) console.log(`    ${line}`);
}
console.log();
// Issue 17: the overview and a school's report over a year, run in a bench Worker on the demo
// database (the demo seed's 90 days of reading, and the load test's) and on the scale one's year.
log(
  `usage reports on the demo and the scale database (scale year ends ${scaleState.usage.day}, ${scaleState.usage.readingDaily} teacher rows)`,
);
const usageTimes = await timeUsageReports({ demo: app.persistTo, scale: scaleState.persistTo });
const usage = usageReportRows(usageTimes.demo, usageTimes.scale);
console.table(usage.table);
const scaleApp = await serveApp({ port: PORT.scale, persistTo: scaleState.persistTo });
let big: Awaited<ReturnType<typeof timeScalePaths>>;
try {
  log("sequential times on the scale database");
  big = await timeScalePaths(scaleApp.origin, await signIn(scaleApp.origin, app.env));
} finally {
  scaleApp.stop();
}

// ---- 3. The Worker as `wrangler deploy` would upload it (the build the bench served).
log("worker size (wrangler deploy --dry-run)");
const workerSize = measureWorkerSize();

// ---- 4. stampPage's CPU in Node (another module's bench, on the same wasm), then the reader in its own process.
log("stamp CPU in Node (bench/lib/stamp-bench.ts)");
let stampNode: { item: string; result: string }[] | string;
try {
  const { runStampBench } = await import("./lib/stamp-bench.ts");
  stampNode = await runStampBench();
} catch (error) {
  stampNode = (error as Error).message.split("\n")[0] ?? String(error);
}
// The teacher's reader page hydrates its island alone; within the whole app (client-side
// navigation) it is the router's route: both must be free of pdf.js.
const routeChunks = [
  {
    ...measureChunks("teacher reader page", "island page-reader", islandStart("page-reader")),
    budgetKb: TARGETS.readerRouteJsKb,
    pdfjsAllowed: false,
  },
  {
    ...measureChunks("teacher reader route", "router route school-reader", routeStart("school-reader")),
    budgetKb: null,
    pdfjsAllowed: false,
  },
  {
    ...measureChunks("admin PDF reader route", "router route routes/admin-reader", routeStart("routes/admin-reader")),
    budgetKb: null,
    pdfjsAllowed: true,
  },
];

log("reader benchmark (npm run bench:reader)");
const readerExit = await runReaderBench();
const readerFile = join(ROOT, "bench/results/reader.json");
const readerJson = existsSync(readerFile) ? (JSON.parse(readFileSync(readerFile, "utf8")) as ReaderReport) : null;
// A report from an earlier run is not this run's.
const reader = readerJson && Date.parse(readerJson.date) >= startedAt ? readerJson : null;

log("leak trace benchmark (npm run bench:trace, 30 images per attack)");
const traceExit = await runTraceBench();
const traceFile = join(ROOT, "bench/results/trace.json");
const traceJson = existsSync(traceFile) ? (JSON.parse(readFileSync(traceFile, "utf8")) as TraceReport) : null;
const trace = traceJson && Date.parse(traceJson.date) >= startedAt ? traceJson : null;

// ---- The table, the JSON, the verdict.
const rows: Row[] = [
  ...throughputRows(load),
  // The first byte on the scale database (10,000 schools, 100,000 books), big-library's dashboard.
  ...dashboardCostRows(dashboardCpu, big["dashboard, 1,000 books (big-library)"]?.firstByteP50Ms),
  ...planRows(plans, scaleCounts),
  ...scaleRows(small, big),
  ...usage.rows,
  ...weightRows(weights),
  ...routeChunkRows(routeChunks),
  ...lighthouseRows(lighthouse),
  ...stampRows(stampNode, stampWall, { title: pageBook.title, textPage: TEXT_PAGE_N }),
  ...workerSizeRows(workerSize),
  ...preparationRows(reader),
  ...readerRows(reader, readerExit),
  ...throttledRows(reader?.throttled),
  ...traceRows(trace, traceExit),
];
const missed = rows.filter((r) => r.status === "MISSED").map((r) => `${r.section}: ${r.item}: ${r.result} (target ${r.target})`);
const seconds = +((performance.now() - started) / 1000).toFixed(1);
console.table(rows);
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
const report = {
  date: new Date().toISOString(),
  seconds,
  dashboardCpu,
  load: { ...LOAD, pdf: { bookBytes: RANGE_BOOK.sizeBytes }, page: { book: pageBook, n: PAGE_N, teachers: PAGE_TEACHERS }, results: load },
  scale: { counts: scaleCounts, cached: scaleState.cached, buildSeconds: scaleState.seconds, small, big, plans },
  usageReports: { ...usageTimes, year: scaleState.usage },
  pageWeight: weights,
  routeChunks,
  lighthouse,
  stamp: { node: stampNode, wall: stampWall },
  workerSize,
  reader,
  trace,
  table: rows,
  missed,
};
writeFileSync(join(ROOT, "bench/results/bench.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log(`wrote bench/results/bench.json; the bench took ${seconds} s`);
if (missed.length) {
  console.log(`\n${missed.length} target(s) missed:`);
  for (const miss of missed) console.log(`  ✖ ${miss}`);
  process.exitCode = 1;
} else console.log("every target met");

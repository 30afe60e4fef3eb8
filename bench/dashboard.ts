// npm run bench:dashboard: the dashboard at the demo size and at 1,000 books, on its own (issue 41, item 13).
//   1. server-rendered time, sequential (one request's own time, no queueing);
//   2. the load test `npm run bench` judges the 1,000-book dashboard by: 10 connections for 10 s,
//      its req/s as a share of /api/health's (the floor) and its p99, with the loaders alone
//      (React Router's .data request, no HTML render) beside it, so a run says what the render costs.
//   3. with DASHBOARD_LIGHTHOUSE=n, Lighthouse (as `npm run bench` runs it) n times on the 24-book dashboard,
//      with the element it names as the largest paint and the paint's phases.
// DASHBOARD_CPU_ROUNDS=n (default 2): CPU ms per request of workerd (the Worker and local D1) for each
// path, read from /proc: steady on a machine shared with other work, where req/s is not.
// DASHBOARD_ROUNDS=n repeats the load test n times in the same run (default 2): on a shared machine
// a ratio is only believed when two rounds agree. DASHBOARD_ROUNDS=0 skips it.
import { startApp, teacherCookie } from "./lib/app-server.ts";
import { addBigSchool } from "./lib/big-school.ts";
import { runLighthouse } from "./lib/lighthouse.ts";
import { cpuPerRequest } from "./lib/process-cpu.ts";
import { lighthouseRows, TARGETS } from "./lib/report.ts";
import { LOAD, runLoad } from "./lib/throughput.ts";

const RUNS = 40;
const ROUNDS = Number(process.env.DASHBOARD_ROUNDS ?? 2);
const LIGHTHOUSE = Number(process.env.DASHBOARD_LIGHTHOUSE ?? 0);
const CPU_ROUNDS = Number(process.env.DASHBOARD_CPU_ROUNDS ?? 2);
// DASHBOARD_PORT and DASHBOARD_STATE let a second run (Lighthouse alone, say) go beside the first.
const app = await startApp({
  port: Number(process.env.DASHBOARD_PORT ?? 8797),
  state: process.env.DASHBOARD_STATE ?? ".wrangler/bench-dashboard",
  prepare: (dir) => addBigSchool(dir, 1000),
});
try {
  const rows = [];
  const cookies: Record<string, string> = {};
  for (const slug of ["lincoln-high", "big-library"]) {
    const cookie = await teacherCookie(app.origin, slug, `demo.teacher@${slug}.example.org`, app.env.DEMO_TEACHER_PASSWORD);
    cookies[slug] = cookie;
    const url = `${app.origin}/schools/${slug}/dashboard`;
    const times: number[] = [];
    let bytes = 0;
    let books = 0;
    for (let i = 0; i < RUNS + 5; i++) {
      const started = performance.now();
      const response = await fetch(url, { headers: { Cookie: cookie } });
      const html = await response.text();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      if (i >= 5) times.push(performance.now() - started);
      bytes = html.length;
      books = Number(/(\d+) book\(s\) available/.exec(html)?.[1] ?? 0);
    }
    times.sort((a, b) => a - b);
    rows.push({
      school: slug,
      books,
      "html kB": Math.round(bytes / 1024),
      "p50 ms": +times[Math.floor(RUNS / 2)]!.toFixed(1),
      "p95 ms": +times[Math.floor(RUNS * 0.95)]!.toFixed(1),
    });
  }
  const base = rows[0]!["p50 ms"];
  console.table(rows.map((r) => ({ ...r, "x demo": +(r["p50 ms"] / base).toFixed(2) })));

  const targets = [
    { name: "/api/health (floor)", path: "/api/health" },
    { name: "dashboard, 24 books", path: "/schools/lincoln-high/dashboard", headers: { Cookie: cookies["lincoln-high"]! } },
    { name: "dashboard, 1,000 books", path: "/schools/big-library/dashboard", headers: { Cookie: cookies["big-library"]! } },
    {
      name: "dashboard, 1,000 books, loaders only (.data)",
      path: "/schools/big-library/dashboard.data",
      headers: { Cookie: cookies["big-library"]! },
    },
  ];
  // CPU per request (the Worker and local D1 in workerd): what a change is judged by on a shared
  // machine, where req/s moves with everything else that runs. CPU_ROUNDS rounds, every path in each.
  for (let round = 1; round <= CPU_ROUNDS; round++) {
    const cpu = [];
    for (const target of targets)
      cpu.push({ path: target.name, ...(await cpuPerRequest(app.processGroup, `${app.origin}${target.path}`, target.headers ?? {})) });
    const floor = cpu[0]!.workerdMs + cpu[0]!.otherMs;
    console.log(
      `CPU per request, round ${round} of ${CPU_ROUNDS} (200 requests, 4 at a time; workerd = the Worker and local D1, other = wrangler's proxy)`,
    );
    console.table(cpu.map((row) => ({ ...row, "x floor": +((row.workerdMs + row.otherMs) / floor).toFixed(2) })));
  }
  for (let round = 1; round <= ROUNDS; round++) {
    const results = [];
    for (const target of targets) results.push(await runLoad(app.origin, target));
    const floor = results[0]!.requestsPerSecond;
    console.log(
      `load round ${round} of ${ROUNDS} (${LOAD.connections} connections, ${LOAD.durationSeconds} s each; target for 1,000 books: ` +
        `>= ${TARGETS.bigDashboardShareOfFloor * 100}% of floor, p99 < ${TARGETS.bigDashboardP99Ms} ms)`,
    );
    console.table(
      results.map((r) => ({
        path: r.name,
        "req/s": r.requestsPerSecond,
        "% of floor": +((r.requestsPerSecond / floor) * 100).toFixed(1),
        "p50 ms": r.p50Ms,
        "p99 ms": r.p99Ms,
        "non-2xx": r.non2xx,
      })),
    );
  }
  for (let run = 1; run <= LIGHTHOUSE; run++) {
    const page = {
      name: `dashboard (24 books), run ${run}`,
      url: `${app.origin}/schools/lincoln-high/dashboard`,
      cookie: cookies["lincoln-high"],
    };
    for (const row of lighthouseRows(await runLighthouse([page]))) console.log(`${row.item}: ${row.result} [${row.status}]`);
  }
} finally {
  app.stop();
}

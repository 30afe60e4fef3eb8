// npm run bench:dashboard: the dashboard at the demo size and at 1,000 books, on its own (issue 41, item 13).
//   1. server-rendered time, sequential (one request's own time, no queueing);
//   2. the load test `npm run bench` judges the 1,000-book dashboard by: 10 connections for 10 s,
//      its req/s as a share of /api/health's (the floor) and its p99, with the loaders alone
//      (React Router's .data request, no HTML render) beside it, so a run says what the render costs.
// DASHBOARD_ROUNDS=n repeats the load test n times in the same run (default 2): on a shared machine
// a ratio is only believed when two rounds agree. DASHBOARD_ROUNDS=0 skips it.
import { startApp, teacherCookie } from "./lib/app-server.ts";
import { addBigSchool } from "./lib/big-school.ts";
import { TARGETS } from "./lib/report.ts";
import { LOAD, runLoad } from "./lib/throughput.ts";

const RUNS = 40;
const ROUNDS = Number(process.env.DASHBOARD_ROUNDS ?? 2);
const app = await startApp({ port: 8797, state: ".wrangler/bench-dashboard", prepare: (dir) => addBigSchool(dir, 1000) });
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
} finally {
  app.stop();
}

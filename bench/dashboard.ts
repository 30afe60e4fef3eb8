// npm run bench:dashboard: server-rendered dashboard time at the demo size and at 1,000 books.
import { startApp, teacherCookie } from "./lib/app-server.ts";
import { addBigSchool } from "./lib/big-school.ts";

const RUNS = 40;
const app = await startApp({ port: 8797, state: ".wrangler/bench-dashboard", prepare: (dir) => addBigSchool(dir, 1000) });
try {
  const rows = [];
  for (const slug of ["lincoln-high", "big-library"]) {
    const cookie = await teacherCookie(app.origin, slug, `demo.teacher@${slug}.example.org`, app.env.DEMO_TEACHER_PASSWORD);
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
} finally {
  app.stop();
}

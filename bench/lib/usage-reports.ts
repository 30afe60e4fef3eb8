/**
 * Issue 17's measure: the admin overview over 365 days and one school's report over 365 days, run
 * in workerd on the D1 binding (bench/lib/usage-worker.ts) on the demo and the scale database. The
 * scale one must stay within TARGETS.scaleSlowdown of the demo one.
 */
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { ROOT } from "../../scripts/lib/env.ts";
import { n, type Row, TARGETS, verdict } from "./report.ts";
import type { ReportSchool } from "./usage-worker.ts";

const WARM_UP = 3;
const RUNS = 30;

export interface UsageTiming {
  school: ReportSchool;
  /** Teacher rows of every school in the last 365 days. */
  rows: number;
  /** Median ms of a request to the bench Worker that does nothing but answer: the HTTP hop in every time below. */
  floorMs: number;
  overviewMs: number;
  schoolMs: number;
}

const median = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return +((sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2).toFixed(2);
};

type Database = "demo" | "scale";

/** The bench Worker over one state folder, and a GET to it that fails loudly. */
async function startReports(persistTo: string, now: number) {
  const worker = await unstable_startWorker({
    config: join(ROOT, "wrangler.toml"),
    entrypoint: join(ROOT, "bench/lib/usage-worker-entry.ts"),
    dev: { persist: persistTo, server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "warn" },
  });
  const origin = await worker.url;
  const ask = async (path: string) => {
    const response = await fetch(new URL(`${path}${path.includes("?") ? "&" : "?"}now=${now}`, origin));
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  return { ask, dispose: () => worker.dispose() };
}

/**
 * Median times of `usageOverview(db, 365)` and `schoolReport(busiest school, last 365 days)` on
 * both databases, each run in the bench Worker (bench/lib/usage-worker.ts) and timed from here,
 * request by request, after a warm-up. The two databases take turns, so whatever else the machine
 * is doing slows both alike (timed one after the other, the demo's floor once came out 40% above
 * the scale one's).
 */
export async function timeUsageReports(states: Record<Database, string>): Promise<Record<Database, UsageTiming>> {
  const now = Date.now();
  const workers: Partial<Record<Database, Awaited<ReturnType<typeof startReports>>>> = {};
  try {
    for (const db of ["demo", "scale"] as const) workers[db] = await startReports(states[db], now);
    const { demo, scale } = workers as Record<Database, Awaited<ReturnType<typeof startReports>>>;
    const schools = { demo: (await demo.ask("/school")) as ReportSchool, scale: (await scale.ask("/school")) as ReportSchool };
    const paths = (db: Database) => ({ floor: "/nothing", overview: "/overview", school: `/school-report?id=${schools[db].id}` });
    const none = () => ({ floor: [] as number[], overview: [] as number[], school: [] as number[] });
    const times = { demo: none(), scale: none() };
    for (const report of ["floor", "overview", "school"] as const) {
      for (let i = 0; i < WARM_UP + RUNS; i++) {
        for (const db of i % 2 ? (["scale", "demo"] as const) : (["demo", "scale"] as const)) {
          const started = performance.now();
          await workers[db]!.ask(paths(db)[report]);
          if (i >= WARM_UP) times[db][report].push(performance.now() - started);
        }
      }
    }
    const timing = async (db: Database): Promise<UsageTiming> => ({
      school: schools[db],
      rows: ((await workers[db]!.ask("/overview")) as { rows: number }).rows,
      floorMs: median(times[db].floor),
      overviewMs: median(times[db].overview),
      schoolMs: median(times[db].school),
    });
    return { demo: await timing("demo"), scale: await timing("scale") };
  } finally {
    for (const worker of Object.values(workers)) await worker.dispose();
  }
}

/** The section as its own table (report, both times, ratio, target) and as rows of the bench's table. */
export function usageReportRows(demo: UsageTiming, scale: UsageTiming): { table: Record<string, string>[]; rows: Row[] } {
  const school = (t: UsageTiming) => `${t.school.name} (${t.school.teachers} teachers, ${n(t.school.rows)} rows)`;
  const reports = [
    {
      item: "usageOverview, 365 days",
      demoMs: demo.overviewMs,
      scaleMs: scale.overviewMs,
      of: `all schools: ${n(demo.rows)} -> ${n(scale.rows)} rows`,
    },
    { item: "schoolReport, 365 days", demoMs: demo.schoolMs, scaleMs: scale.schoolMs, of: `${school(demo)} -> ${school(scale)}` },
  ];
  const target = `<= x${TARGETS.scaleSlowdown} of the demo database`;
  const table = reports.map((r) => {
    const ratio = r.scaleMs / r.demoMs;
    return {
      report: r.item,
      "demo ms": String(r.demoMs),
      "scale ms": String(r.scaleMs),
      ratio: `x${ratio.toFixed(2)}`,
      target: `<= x${TARGETS.scaleSlowdown}`,
      status: verdict(ratio <= TARGETS.scaleSlowdown),
      "no-query request ms": `${demo.floorMs} / ${scale.floorMs}`,
      "teacher rows read": r.of,
    };
  });
  const rows = reports.map(
    (r, i): Row => ({
      section: "usage reports",
      item: r.item,
      result: `median ${r.demoMs} ms -> ${r.scaleMs} ms (${table[i]!.ratio}; a request with no query ${demo.floorMs} / ${scale.floorMs} ms); ${r.of}`,
      target,
      status: table[i]!.status as Row["status"],
    }),
  );
  return { table, rows };
}

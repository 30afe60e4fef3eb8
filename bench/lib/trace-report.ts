// The leak-trace rows of npm run bench (bench/trace.ts writes bench/results/trace.json).
import type { Row } from "./report.ts";

interface TraceRow {
  attack: string;
  n: number;
  right: number;
}

export interface TraceReport {
  date: string;
  pages: number;
  singles: TraceRow[];
  pairs: TraceRow[];
  falseMatches: number;
  falseTried: number;
  traceMedianMs: number;
  stampMedianMs: { marked: number; unmarked: number };
}

const pct = (row: Pick<TraceRow, "right" | "n">) => `${((100 * row.right) / Math.max(1, row.n)).toFixed(1)} % of ${row.n}`;

export function traceRows(report: TraceReport | null, exit: number): Row[] {
  const section = "leak trace (bench:trace, reduced)";
  if (!report?.singles.length || !report.pairs.length) {
    return [{ section, item: "bench:trace", result: `no result (exit ${exit})`, target: "a result", status: "MISSED" }];
  }
  // A reduced run draws few samples an attack (30) and a pair (4): one miss in 4 is 75 %, so a pair's
  // own rate says little. The rows judge the pooled rate (300 singles, 144 pairs) against the
  // targets and name the worst for a look; each attack's and pair's own rate is judged by the full
  // npm run bench:trace (200 and 24 samples).
  const worstSingle = report.singles.reduce((a, b) => (b.right / b.n < a.right / a.n ? b : a));
  const worstPair = report.pairs.reduce((a, b) => (b.right / b.n < a.right / a.n ? b : a));
  const pooled = (rows: TraceRow[]) => ({
    right: rows.reduce((sum, row) => sum + row.right, 0),
    n: rows.reduce((sum, row) => sum + row.n, 0),
  });
  const singles = pooled(report.singles);
  const pairs = pooled(report.pairs);
  const rate = (row: Pick<TraceRow, "right" | "n">) => row.right / Math.max(1, row.n);
  return [
    {
      section,
      item: `traced after a single attack, pooled (worst: ${worstSingle.attack}, ${pct(worstSingle)})`,
      result: pct(singles),
      target: ">= 99 % (each attack's own: npm run bench:trace)",
      status: rate(singles) >= 0.99 ? "ok" : "MISSED",
    },
    {
      section,
      item: `traced after a pair of attacks, pooled (worst: ${worstPair.attack}, ${pct(worstPair)})`,
      result: pct(pairs),
      target: ">= 95 % (each pair's own: npm run bench:trace)",
      status: rate(pairs) >= 0.95 ? "ok" : "MISSED",
    },
    {
      section,
      item: "false matches (unmarked or another teacher's)",
      result: `${report.falseMatches} of ${report.falseTried}`,
      target: "0",
      status: report.falseMatches === 0 ? "ok" : "MISSED",
    },
    {
      section,
      item: "stamp a text page at 1024 px, with the mark (Node, median)",
      result: `${report.stampMedianMs.marked.toFixed(1)} ms (without the mark ${report.stampMedianMs.unmarked.toFixed(1)} ms)`,
      target: "< 50 ms",
      status: report.stampMedianMs.marked < 50 ? "ok" : "MISSED",
    },
    {
      section,
      item: `one trace over ${report.pages} pages (Node, median)`,
      result: `${report.traceMedianMs.toFixed(0)} ms`,
      target: "-",
      status: "info",
    },
  ];
}

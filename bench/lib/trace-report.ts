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

const pct = (row: TraceRow) => `${((100 * row.right) / Math.max(1, row.n)).toFixed(1)} % of ${row.n}`;

export function traceRows(report: TraceReport | null, exit: number): Row[] {
  const section = "leak trace (bench:trace, reduced)";
  if (!report?.singles.length || !report.pairs.length) {
    return [{ section, item: "bench:trace", result: `no result (exit ${exit})`, target: "a result", status: "MISSED" }];
  }
  const worstSingle = report.singles.reduce((a, b) => (b.right / b.n < a.right / a.n ? b : a));
  const worstPair = report.pairs.reduce((a, b) => (b.right / b.n < a.right / a.n ? b : a));
  const rate = (row: TraceRow) => row.right / Math.max(1, row.n);
  return [
    {
      section,
      item: `traced after each single attack (worst: ${worstSingle.attack})`,
      result: pct(worstSingle),
      target: ">= 99 %",
      status: rate(worstSingle) >= 0.99 ? "ok" : "MISSED",
    },
    {
      section,
      item: `traced after each pair of attacks (worst: ${worstPair.attack})`,
      result: pct(worstPair),
      target: ">= 95 %",
      status: rate(worstPair) >= 0.95 ? "ok" : "MISSED",
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

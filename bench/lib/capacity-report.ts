/**
 * The capacity bench's figures per page view, its projected ceilings and its targets (issue 24, item
 * 6), from the probe's counters and the drive's times.
 */

import type { Views } from "./capacity-drive.ts";
import type { D1Counts, ProbeCounts } from "./capacity-probe-counts.ts";

export const CAPACITY_TARGETS = {
  readsPerPageView: 1,
  writesPerPageView: 0.02,
  platformCeiling: 10_000,
  platformCeilingGain: 10,
  schoolCeiling: 200,
  /** after / before of the median page request: no slower than today. */
  pageMsRatio: 1,
} as const;

export interface SideFigures {
  pageViews: number;
  d1StatementsPerPageView: number;
  d1ReadsPerPageView: number;
  d1WritesPerPageView: number;
  d1RowsWrittenPerPageView: number;
  d1RowsReadPerPageView: number;
  d1MsPerPageView: number;
  /**
   * The same over the one-at-a-time requests only (no flush): without the drive's load, whose
   * other requests' work on the machine's two cores stretches the database's clock.
   */
  d1MsPerPageViewOneAtATime: number;
  /** D1 calls' time as the Worker and its objects waited for them, per page view (local round trips included). */
  d1WallMsPerPageView: number;
  objectCallsPerPageView: number;
  /** Object calls' wall time per page view, from the one-at-a-time requests (nothing else in the isolate). */
  objectMsPerPageView: number | null;
  /** The same under the drive's load, where the calls also wait for other requests' work on the one thread. */
  objectMsPerPageViewUnderLoad: number | null;
  /** Page turns a second one D1 database serves: 1,000 ms / D1 ms per page view. */
  platformCeiling: number | null;
  /**
   * Page turns a second one school's object serves: 1,000 ms / object ms per page view. The upper
   * bound of a single-threaded object that does nothing but these calls, back to back; the time is
   * the wall time of the Worker's call locally, one request at a time (the local hop included, no
   * network, no queue).
   */
  schoolCeiling: number | null;
  /** A teacher's page request, one at a time (both sides taking turns). */
  pageMsMedian: number;
  pageMsP95: number;
  /** The same under the drive's load. */
  drivePageMsMedian: number;
  drivePageMsP95: number;
  /** The end-of-drive flush (sides with school objects): what it wrote, and what its admin requests read (not counted above). */
  flush: { schools: number; flushed: number; writes: number; rowsWritten: number; ms: number; requestReadsNotCounted: number } | null;
  statuses: Record<string, number>;
  statements: { sql: string; perPageView: number; write: boolean; ms: number }[];
}

const round = (value: number, digits = 3) => +value.toFixed(digits);
const quantile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 1);
};

function plus(a: D1Counts, b: D1Counts): D1Counts {
  return Object.fromEntries(Object.entries(a).map(([key, value]) => [key, value + b[key as keyof D1Counts]])) as unknown as D1Counts;
}
function minus(a: D1Counts, b: D1Counts): D1Counts {
  return Object.fromEntries(Object.entries(a).map(([key, value]) => [key, value - b[key as keyof D1Counts]])) as unknown as D1Counts;
}

/** The statements counted in the figures: all of the drive's, and the flush's but for the Worker's reads. */
function countedSql(driven: ProbeCounts, flushed: ProbeCounts | null): ProbeCounts["sql"] {
  const counted = structuredClone(driven.sql);
  for (const [key, entry] of Object.entries(flushed?.sql ?? {})) {
    if (!entry.write && key.startsWith("worker:")) continue;
    const before = driven.sql[key] ?? { count: 0, ms: 0, rowsWritten: 0, write: entry.write };
    counted[key] ??= { ...before };
    const total = counted[key];
    total.count += entry.count - before.count;
    total.ms += entry.ms - before.ms;
    total.rowsWritten += entry.rowsWritten - before.rowsWritten;
  }
  return Object.fromEntries(Object.entries(counted).filter(([, entry]) => entry.count > 0));
}

export interface SideMeasure {
  drive: Views;
  sequential: Views;
  /** Counters after the drive, settled. */
  afterDrive: ProbeCounts;
  /** Counters after the drive and the one-at-a-time requests, settled. */
  driven: ProbeCounts;
  /** Counters after the flush, settled, and what the flush answered; null without school objects. */
  flushed: { counts: ProbeCounts; schools: number; flushed: number } | null;
}

/**
 * Per page view, over every page view after the warm-up. The flush's D1 work counts in full except
 * the reads the Worker makes for its admin requests (session, school): in production the objects'
 * alarms flush without them.
 */
export function sideFigures({ drive, sequential, afterDrive, driven, flushed }: SideMeasure): SideFigures {
  const [driveViews, quietViews] = [drive.statuses["200"] ?? 0, sequential.statuses["200"] ?? 0];
  const pageViews = driveViews + quietViews;
  const quiet = minus(plus(driven.d1.worker, driven.d1.object), plus(afterDrive.d1.worker, afterDrive.d1.object));
  const sequentialObjects = {
    calls: driven.objects.calls - afterDrive.objects.calls,
    wallMs: driven.objects.wallMs - afterDrive.objects.wallMs,
  };
  let d1 = plus(driven.d1.worker, driven.d1.object);
  let flush: SideFigures["flush"] = null;
  if (flushed) {
    const object = minus(flushed.counts.d1.object, driven.d1.object);
    const worker = minus(flushed.counts.d1.worker, driven.d1.worker);
    const workerWrites = { ...worker, reads: 0, readMs: 0, rowsRead: 0 };
    d1 = plus(plus(d1, object), workerWrites);
    flush = {
      schools: flushed.schools,
      flushed: flushed.flushed,
      writes: object.writes + worker.writes,
      rowsWritten: object.rowsWritten + worker.rowsWritten,
      ms: object.readMs + object.writeMs + worker.writeMs,
      requestReadsNotCounted: worker.reads,
    };
  }
  const per = (value: number) => (pageViews ? round(value / pageViews) : 0);
  const d1Ms = per(d1.readMs + d1.writeMs);
  const objectCalls = per(driven.objects.calls);
  const objectMs = sequentialObjects.calls ? round(objectCalls * (sequentialObjects.wallMs / sequentialObjects.calls)) : null;
  const statements = Object.entries(countedSql(driven, flushed?.counts ?? null))
    .map(([sql, s]) => ({ sql, perPageView: per(s.count), write: s.write, ms: round(s.ms, 1) }))
    .sort((a, b) => b.perPageView - a.perPageView);
  return {
    pageViews,
    d1StatementsPerPageView: per(d1.reads + d1.writes),
    d1ReadsPerPageView: per(d1.reads),
    d1WritesPerPageView: per(d1.writes),
    d1RowsWrittenPerPageView: per(d1.rowsWritten),
    d1RowsReadPerPageView: per(d1.rowsRead),
    d1MsPerPageView: d1Ms,
    d1WallMsPerPageView: per(d1.wallMs),
    d1MsPerPageViewOneAtATime: quietViews ? round((quiet.readMs + quiet.writeMs) / quietViews) : 0,
    objectCallsPerPageView: objectCalls,
    objectMsPerPageView: objectMs,
    objectMsPerPageViewUnderLoad: afterDrive.objects.calls && driveViews ? round(afterDrive.objects.wallMs / driveViews) : null,
    platformCeiling: d1Ms > 0 ? Math.round(1000 / d1Ms) : null,
    schoolCeiling: objectMs ? Math.round(1000 / objectMs) : null,
    pageMsMedian: quantile(sequential.times, 0.5),
    pageMsP95: quantile(sequential.times, 0.95),
    drivePageMsMedian: quantile(drive.times, 0.5),
    drivePageMsP95: quantile(drive.times, 0.95),
    flush,
    statuses: Object.fromEntries(Object.entries(drive.statuses).map(([code, n]) => [code, n + (sequential.statuses[code] ?? 0)])),
    statements,
  };
}

export interface TargetCheck {
  target: string;
  result: string;
  met: boolean;
}

const fmt = (value: number | null, digits = 2) => (value === null ? "-" : value.toLocaleString("en-US", { maximumFractionDigits: digits }));

export function checkTargets(before: SideFigures, after: SideFigures): TargetCheck[] {
  const t = CAPACITY_TARGETS;
  const gain = after.platformCeiling && before.platformCeiling ? after.platformCeiling / before.platformCeiling : null;
  const pageRatio = after.pageMsMedian / before.pageMsMedian;
  return [
    {
      target: `D1 reads per page view <= ${t.readsPerPageView}`,
      result: fmt(after.d1ReadsPerPageView, 3),
      met: after.d1ReadsPerPageView <= t.readsPerPageView,
    },
    {
      target: `D1 writes per page view <= ${t.writesPerPageView} (amortised)`,
      result: fmt(after.d1WritesPerPageView, 3),
      met: after.d1WritesPerPageView <= t.writesPerPageView,
    },
    {
      target: `platform ceiling >= ${fmt(t.platformCeiling)} page turns/s and >= ${t.platformCeilingGain}x before`,
      result: `${fmt(after.platformCeiling, 0)}/s, ${gain === null ? "-" : `${fmt(gain, 1)}x`}`,
      met: (after.platformCeiling ?? 0) >= t.platformCeiling && (gain ?? 0) >= t.platformCeilingGain,
    },
    {
      target: `one school's object >= ${t.schoolCeiling} page turns/s`,
      result: `${fmt(after.schoolCeiling, 0)}/s`,
      met: (after.schoolCeiling ?? 0) >= t.schoolCeiling,
    },
    {
      target: "a teacher's page request no slower than before (median, same run)",
      result: `${fmt(after.pageMsMedian, 1)} ms vs ${fmt(before.pageMsMedian, 1)} ms (x${fmt(pageRatio, 2)})`,
      met: pageRatio <= t.pageMsRatio,
    },
  ];
}

/** The side-by-side table: each figure before, after and after / before. */
export function comparisonRows(before: SideFigures, after: SideFigures) {
  const rows: [string, keyof SideFigures, number][] = [
    ["page views measured", "pageViews", 0],
    ["D1 statements / page view", "d1StatementsPerPageView", 3],
    ["  reads", "d1ReadsPerPageView", 3],
    ["  writes (flush amortised)", "d1WritesPerPageView", 3],
    ["D1 rows written / page view", "d1RowsWrittenPerPageView", 3],
    ["D1 rows read / page view", "d1RowsReadPerPageView", 1],
    ["D1 ms / page view (meta.duration)", "d1MsPerPageView", 3],
    ["  the same, one at a time (no flush)", "d1MsPerPageViewOneAtATime", 3],
    ["D1 wait ms / page view (wall)", "d1WallMsPerPageView", 2],
    ["object calls / page view", "objectCallsPerPageView", 3],
    ["object ms / page view (one at a time)", "objectMsPerPageView", 3],
    ["object ms / page view (under load)", "objectMsPerPageViewUnderLoad", 2],
    ["platform ceiling, page turns/s", "platformCeiling", 0],
    ["one school's object ceiling, page turns/s", "schoolCeiling", 0],
    ["page ms median (one at a time)", "pageMsMedian", 1],
    ["page ms p95 (one at a time)", "pageMsP95", 1],
    ["page ms median (under load)", "drivePageMsMedian", 1],
    ["page ms p95 (under load)", "drivePageMsP95", 1],
  ];
  return rows.map(([label, key, digits]) => {
    const [b, a] = [before[key] as number | null, after[key] as number | null];
    return { figure: label, before: fmt(b, digits), after: fmt(a, digits), "after/before": a !== null && b ? fmt(a / b, 3) : "-" };
  });
}

/** What the table leaves out: answers other than 200, the flush, and the statements a page view runs. */
export function detailLines(name: string, figures: SideFigures): string[] {
  const lines: string[] = [];
  const failed = Object.entries(figures.statuses).filter(([code]) => code !== "200");
  if (failed.length) lines.push(`✖ ${name}: answers other than 200: ${failed.map(([code, n]) => `${code}×${n}`).join(", ")}`);
  const { flush } = figures;
  if (flush)
    lines.push(
      `${name}: the flush wrote ${flush.writes} statement(s) (${flush.rowsWritten} rows) for ${flush.schools} schools, ` +
        `${Math.round(figures.pageViews / flush.schools)} page views a school; the ${flush.requestReadsNotCounted} read(s) of its admin requests are not counted`,
    );
  lines.push(`${name}: D1 statements a page view runs (from 1 in 200): R read / W write, count per page view, meta.duration ms in all`);
  for (const s of figures.statements.filter((s) => s.perPageView >= 0.005))
    lines.push(`  ${s.write ? "W" : "R"} ${s.perPageView.toFixed(3)} ${String(s.ms).padStart(6)} ms  ${s.sql.slice(0, 110)}`);
  return lines;
}

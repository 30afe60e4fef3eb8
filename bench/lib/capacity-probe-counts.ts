/**
 * The capacity probe's counters (capacity-probe.ts), module-level: local workerd runs a Worker and
 * its own Durable Object classes in one isolate, so the Worker's D1 statements and object calls and
 * the objects' D1 statements all add to these.
 */

/** Where D1 work came from: the Worker's requests, or its Durable Objects. */
export type Origin = "worker" | "object";
export type Meta = { duration?: number; rows_read?: number; rows_written?: number } | undefined;

/** D1 work from one origin. */
export interface D1Counts {
  reads: number;
  writes: number;
  rowsRead: number;
  rowsWritten: number;
  /**
   * Sums of `meta.duration`, the database's own time, of reads and of writes. Locally it is whole
   * milliseconds of a real-time clock, so one statement reads 0 or 1 and only a sum over many means much.
   */
  readMs: number;
  writeMs: number;
  /** Sum of the time each call took as its caller saw it (a batch once). */
  wallMs: number;
  /** Calls to D1: a batch of five statements is one. */
  roundTrips: number;
  /** Statements whose meta could not be read (counted, not timed). */
  withoutMeta: number;
}

export interface ProbeCounts {
  d1: Record<Origin, D1Counts>;
  objects: { calls: number; wallMs: number; byMethod: Record<string, { calls: number; wallMs: number }> };
  /** Per origin and statement text: how often it ran, and whether it wrote. */
  sql: Record<string, { count: number; ms: number; rowsWritten: number; write: boolean }>;
  /** D1 and object calls not yet answered: the bench waits for 0 before it reads the counts. */
  inFlight: number;
}

const zero = (): D1Counts => ({
  reads: 0,
  writes: 0,
  rowsRead: 0,
  rowsWritten: 0,
  readMs: 0,
  writeMs: 0,
  wallMs: 0,
  roundTrips: 0,
  withoutMeta: 0,
});
const fresh = (): Omit<ProbeCounts, "inFlight"> => ({
  d1: { worker: zero(), object: zero() },
  objects: { calls: 0, wallMs: 0, byMethod: {} },
  sql: {},
});

export const counts: ProbeCounts = { ...fresh(), inFlight: 0 };

/** Zeroes the counters; calls in flight stay in flight. */
export function resetCounts(): void {
  Object.assign(counts, fresh());
}

/** Plain reads begin with SELECT (or WITH without a write); anything that wrote a row is a write whatever it begins with. */
function isWrite(sql: string, meta: Meta): boolean {
  if ((meta?.rows_written ?? 0) > 0) return true;
  const text = sql.trimStart().toLowerCase();
  if (/^(select|pragma|explain)\b/.test(text)) return false;
  if (text.startsWith("with")) return /\b(insert|update|delete|replace)\b/.test(text);
  return true;
}

/** Counts one statement that D1 answered with `meta` (undefined when the meta could not be read). */
export function record(origin: Origin, sql: string, meta: Meta): void {
  const tally = counts.d1[origin];
  const write = isWrite(sql, meta);
  const ms = meta?.duration ?? 0;
  if (write) {
    tally.writes++;
    tally.writeMs += ms;
  } else {
    tally.reads++;
    tally.readMs += ms;
  }
  if (!meta) tally.withoutMeta++;
  tally.rowsRead += meta?.rows_read ?? 0;
  tally.rowsWritten += meta?.rows_written ?? 0;
  const key = `${origin}: ${sql.replace(/\s+/g, " ").trim().slice(0, 160)}`;
  counts.sql[key] ??= { count: 0, ms: 0, rowsWritten: 0, write };
  const entry = counts.sql[key];
  entry.count++;
  entry.ms += ms;
  entry.rowsWritten += meta?.rows_written ?? 0;
}

/** Times `work` as one D1 round trip from `origin`, keeping it in flight meanwhile. */
export function timedD1<T>(origin: Origin, work: () => Promise<T>): Promise<T> {
  return timed(work, (ms) => {
    counts.d1[origin].roundTrips++;
    counts.d1[origin].wallMs += ms;
  });
}

/** Times `work` as one call of an object's `method`, as the caller sees it. */
export function timedCall<T>(method: string, work: () => Promise<T>): Promise<T> {
  return timed(work, (ms) => {
    counts.objects.calls++;
    counts.objects.wallMs += ms;
    counts.objects.byMethod[method] ??= { calls: 0, wallMs: 0 };
    const entry = counts.objects.byMethod[method];
    entry.calls++;
    entry.wallMs += ms;
  });
}

async function timed<T>(work: () => Promise<T>, done: (ms: number) => void): Promise<T> {
  counts.inFlight++;
  const started = Date.now();
  try {
    return await work();
  } finally {
    counts.inFlight--;
    done(Date.now() - started);
  }
}

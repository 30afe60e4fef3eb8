import autocannon from "autocannon";

export interface LoadTarget {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** Session cookies handed out in turn, one per request (spreads per-session budgets). */
  cookies?: string[];
  /** The name of another target this one is compared with in the table (its req/s over this one's). */
  versus?: string;
}

export interface LoadResult {
  name: string;
  path: string;
  versus?: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  kBPerSecond: number;
}

export const LOAD = { connections: 10, durationSeconds: 10 } as const;

/** autocannon against one path on loopback, for a fixed time. */
export async function runLoad(origin: string, target: LoadTarget): Promise<LoadResult> {
  let turn = 0;
  const cookies = target.cookies;
  const result = await autocannon({
    url: `${origin}${target.path}`,
    connections: LOAD.connections,
    duration: LOAD.durationSeconds,
    headers: target.headers ?? {},
    requests: cookies?.length
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, Cookie: cookies[turn++ % cookies.length]! },
            }),
          },
        ]
      : undefined,
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  return {
    name: target.name,
    path: target.path,
    versus: target.versus,
    requestsPerSecond: +result.requests.average.toFixed(1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    kBPerSecond: Math.round(result.throughput.average / 1024),
  };
}

/** Median and p95 of `runs` sequential requests (after a warm-up): one request's own time, no queueing. */
export async function timeSequential(
  url: string,
  headers: Record<string, string>,
  runs = 30,
): Promise<{ p50Ms: number; p95Ms: number; firstByteP50Ms: number }> {
  const times: number[] = [];
  // Until the response's status and headers arrive: the first byte, as a browser's "waiting" shows it.
  const firstBytes: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const firstByte = performance.now() - started;
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    if (i >= 5) {
      times.push(performance.now() - started);
      firstBytes.push(firstByte);
    }
  }
  times.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  const at = (sorted: number[], p: number) => +sorted[Math.floor(runs * p)]!.toFixed(2);
  return { p50Ms: at(times, 0.5), p95Ms: at(times, 0.95), firstByteP50Ms: at(firstBytes, 0.5) };
}

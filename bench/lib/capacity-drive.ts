/**
 * The capacity bench's traffic: teachers of many schools turning pages (GET
 * /api/books/{id}/pages/{n}?w=1024, watermarked) on both sides at once, and the probe's counters
 * read once the Worker has finished what it does after its responses.
 */
import { adminCookie, teacherCookie } from "./app-server.ts";
import type { ProbeCounts } from "./capacity-probe-counts.ts";
import { type CapacityBase, capacityTeacherEmail } from "./capacity-seed.ts";

export interface Side {
  name: "before" | "after";
  origin: string;
  /** Durable Object namespaces the Worker binds: a side with SCHOOLS flushes its objects at the end. */
  objects: Record<string, string>;
  /** One cookie per teacher, in the order of `teachers()`. */
  cookies: string[];
  /** The admin's cookie, signed in before the counting starts: for the flush. */
  admin: string;
}

export interface Views {
  times: number[];
  statuses: Record<string, number>;
}

const PROBE = "/__capacity-probe";

/** Every capacity teacher, school by school. */
const teachers = (base: CapacityBase) =>
  base.schools.flatMap((school) => Array.from({ length: base.teachersPerSchool }, (_, i) => ({ school, i: i + 1 })));

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** Signs every capacity teacher in through the API: each side's cookies are its own. */
export function signInTeachers(origin: string, base: CapacityBase): Promise<string[]> {
  return pool(teachers(base), 3, ({ school, i }) =>
    teacherCookie(origin, school.slug, capacityTeacherEmail(school.slug, i), base.accounts.teacherPassword),
  );
}

export const signInAdmin = (origin: string, base: CapacityBase) =>
  adminCookie(origin, base.accounts.adminEmail, base.accounts.adminPassword);

/**
 * Page view `k`: consecutive views go to consecutive schools, a school's teachers take turns, and
 * each turns to another page of one of the shared books (the next book every round of teachers).
 */
export function pagePath(base: CapacityBase, k: number): { teacher: number; path: string } {
  const perSchool = base.teachersPerSchool;
  const schools = base.schools.length;
  const teacher = (k % schools) * perSchool + (Math.floor(k / schools) % perSchool);
  const book = base.books[Math.floor(k / (schools * perSchool)) % base.books.length]!;
  return { teacher, path: `/api/books/${book.id}/pages/${1 + ((k * 7) % book.pageCount)}?w=1024` };
}

/** One page view: its wall time in ms and status, the body read whole. */
async function view(side: Side, base: CapacityBase, k: number, into: Views): Promise<void> {
  const { teacher, path } = pagePath(base, k);
  const started = performance.now();
  const response = await fetch(`${side.origin}${path}`, { headers: { Cookie: side.cookies[teacher]! } });
  await response.arrayBuffer();
  into.times.push(performance.now() - started);
  into.statuses[response.status] = (into.statuses[response.status] ?? 0) + 1;
}

/**
 * `count` page views on each side, `concurrency` workers each taking the next pair and asking both
 * sides for it, in turn first: the two sides always run under the same load (the machine's other
 * work included), so their times compare within the run.
 */
export async function drivePairs(sides: Side[], base: CapacityBase, pairs: number[], concurrency: number) {
  const views = Object.fromEntries(sides.map((side) => [side.name, { times: [], statuses: {} } as Views]));
  await pool(pairs, concurrency, async (k, index) => {
    const order = index % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) await view(side, base, k, views[side.name]!);
  });
  return views as Record<Side["name"], Views>;
}

/** Page views `from` to `from + count - 1`. */
export const pageViews = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/**
 * One page view of each book in each school (the views `pagePath` maps there), for the warm-up: the
 * Worker's per-isolate caches then hold what a long-running isolate would.
 */
export function everySchoolAndBook(base: CapacityBase): number[] {
  const round = base.schools.length * base.teachersPerSchool;
  return base.books.flatMap((_, book) => base.schools.map((_, school) => book * round + school));
}

export async function readProbe(origin: string): Promise<ProbeCounts> {
  const response = await fetch(`${origin}${PROBE}`);
  if (!response.ok) throw new Error(`${origin}${PROBE}: ${response.status}`);
  return (await response.json()) as ProbeCounts;
}

export async function resetProbe(origin: string): Promise<void> {
  const response = await fetch(`${origin}${PROBE}/reset`, { method: "POST" });
  if (!response.ok) throw new Error(`${origin}${PROBE}/reset: ${response.status}`);
}

const statementsOf = (counts: ProbeCounts) =>
  counts.d1.worker.reads + counts.d1.worker.writes + counts.d1.object.reads + counts.d1.object.writes + counts.objects.calls;

/**
 * The counters once nothing is in flight and they stayed still for half a second: the usage
 * writes the Worker makes after its responses (ctx.waitUntil) are counted too. At most 30 s.
 */
export async function settledProbe(origin: string): Promise<ProbeCounts> {
  const deadline = Date.now() + 30_000;
  let last = await readProbe(origin);
  let still = 0;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await readProbe(origin);
    still = now.inFlight === 0 && statementsOf(now) === statementsOf(last) ? still + 1 : 0;
    last = now;
    if (still >= 2) return now;
  }
  throw new Error(`${origin}: the Worker was still working 30 s after the drive`);
}

/**
 * Flushes every capacity school's object through the admin endpoint, so the usage the objects hold
 * reaches D1 now and its writes are counted with the page views they carry. The sum of `flushed`.
 */
export async function flushSchools(origin: string, admin: string, base: CapacityBase): Promise<number> {
  const flushed = await pool(base.schools, 4, async (school) => {
    const response = await fetch(`${origin}/api/schools/${school.id}/usage/flush`, {
      method: "POST",
      headers: { Cookie: admin, Origin: origin },
    });
    if (!response.ok) throw new Error(`flush of school ${school.id}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { flushed: number }).flushed;
  });
  return flushed.reduce((sum, n) => sum + n, 0);
}

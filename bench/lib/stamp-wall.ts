/**
 * What stamping costs inside local workerd, seen from outside: a teacher's page request (stamped)
 * and the admin's request for the same page (the stored PNG as is), one after the other, `runs`
 * pairs; the difference per pair is the stamp's wall-clock time, queueing and all, not its CPU.
 */
export interface StampWall {
  /** The page number in the book. */
  n: number;
  width: number;
  runs: number;
  teacher: { p50Ms: number; p95Ms: number; bytes: number; contentType: string };
  admin: { p50Ms: number; p95Ms: number; bytes: number; contentType: string };
  difference: { p50Ms: number; p95Ms: number };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!.toFixed(1);
};

async function timed(url: string, cookie: string) {
  const started = performance.now();
  const response = await fetch(url, { headers: { Cookie: cookie } });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { ms: performance.now() - started, bytes, contentType: response.headers.get("Content-Type") ?? "" };
}

export async function measureStampWall(
  origin: string,
  page: { bookId: number; n: number; width: number },
  cookies: { teacher: string; admin: string },
  runs = 20,
): Promise<StampWall> {
  const url = `${origin}/api/books/${page.bookId}/pages/${page.n}?w=${page.width}`;
  const teacher: Awaited<ReturnType<typeof timed>>[] = [];
  const admin: Awaited<ReturnType<typeof timed>>[] = [];
  for (let i = 0; i < runs + 3; i++) {
    // Alternate who goes first, so neither side always follows the other's garbage.
    const pair =
      i % 2
        ? [await timed(url, cookies.admin), await timed(url, cookies.teacher)].reverse()
        : [await timed(url, cookies.teacher), await timed(url, cookies.admin)];
    if (i < 3) continue; // warm-up
    teacher.push(pair[0]!);
    admin.push(pair[1]!);
  }
  const summary = (list: typeof teacher) => ({
    p50Ms: percentile(
      list.map((t) => t.ms),
      0.5,
    ),
    p95Ms: percentile(
      list.map((t) => t.ms),
      0.95,
    ),
    bytes: list[0]!.bytes,
    contentType: list[0]!.contentType,
  });
  const differences = teacher.map((t, i) => t.ms - admin[i]!.ms);
  return {
    n: page.n,
    width: page.width,
    runs,
    teacher: summary(teacher),
    admin: summary(admin),
    difference: { p50Ms: percentile(differences, 0.5), p95Ms: percentile(differences, 0.95) },
  };
}

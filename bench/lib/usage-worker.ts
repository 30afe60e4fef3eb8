/**
 * A bench-only Worker (bench/lib/usage-reports.ts starts it over a state folder): one usage report
 * per request, run in workerd on the D1 binding as the app's loaders run them. Timed from Node
 * through getPlatformProxy instead, every statement paid a ~14 ms round trip of the proxy, one
 * at a time, which hid the database's own work.
 */
import { sql } from "drizzle-orm";
import { type Db, getDb } from "../../workers/db/client.ts";
import { schoolReport } from "../../workers/reports/detail.ts";
import { usageOverview } from "../../workers/reports/overview.ts";
import { lastDays } from "../../workers/reports/range.ts";

export interface ReportSchool {
  id: number;
  name: string;
  teachers: number;
  /** Teacher rows (books opened) of the school in the last 365 days. */
  rows: number;
}

/**
 * The school whose report reads the most: most books opened in the last 365 days (with no reading
 * at all, the first school).
 */
export async function busiestSchool(db: Db, now = Date.now()): Promise<ReportSchool> {
  const { from } = lastDays(365, now);
  const [school] =
    await db.all<ReportSchool>(sql`SELECT s.id, s.name, (SELECT count(*) FROM teachers t WHERE t.school_id = s.id) AS teachers,
    coalesce(u.rows, 0) AS rows FROM schools s
    LEFT JOIN (SELECT school_id, sum(books_opened) AS rows FROM school_usage_daily WHERE day >= ${from} GROUP BY school_id) u ON u.school_id = s.id
    ORDER BY u.rows DESC NULLS LAST, s.id LIMIT 1`);
  if (!school) throw new Error("no school to report on");
  return school;
}

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const url = new URL(request.url);
    const now = Number(url.searchParams.get("now") ?? Date.now());
    const db = getDb(env.DB);
    // Small answers: the report's work is timed, not its JSON.
    if (url.pathname === "/school") return Response.json(await busiestSchool(db, now));
    if (url.pathname === "/overview") {
      const overview = await usageOverview(db, 365, now);
      return Response.json({ rows: overview.usage.totals.booksOpened, rankedAt: overview.rankings.computedAt });
    }
    if (url.pathname === "/school-report") {
      const report = await schoolReport(db, Number(url.searchParams.get("id")), lastDays(365, now), now);
      return Response.json({ rows: report.usage.totals.booksOpened });
    }
    // Anything else (`/nothing`): the floor, a request that runs no query.
    return Response.json({});
  },
};

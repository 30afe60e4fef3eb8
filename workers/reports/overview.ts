/** The admin home's usage overview (docs/decisions/0019): every figure on an index or a rollup row a day. */
import type { Db } from "../db/client.ts";
import { lastDays, type RangeChoice } from "./range.ts";
import { inactiveSchools, overviewRankings } from "./rankings.ts";
import { activeTeacherCounts, usageReport } from "./usage.ts";

export async function usageOverview(db: Db, days: RangeChoice, now = Date.now()) {
  const range = lastDays(days, now);
  const [usage, active, inactive] = await Promise.all([
    usageReport(db, range, {}, now),
    activeTeacherCounts(db, now),
    inactiveSchools(db, now),
  ]);
  // Books opened in the range is the number of teacher rows a live ranking would sum.
  const rankings = await overviewRankings(db, days, usage.totals.booksOpened, now);
  return { days, usage, active, rankings, inactive };
}
export type UsageOverview = Awaited<ReturnType<typeof usageOverview>>;

/**
 * Top books and top schools over a range, and the schools with no reading in 30 days.
 * Ranking sums every teacher row of the range, so it costs what the range holds: live when that is
 * small (up to LIVE_RANKING_ROWS, every install below a few hundred active schools), else from
 * `usage_rankings`, which the scheduled job (and a stale overview, in the background) recomputes.
 */
import { sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { type DayRange, lastDays, RANGE_CHOICES, type RangeChoice } from "./range.ts";
import { minutesOf } from "./usage.ts";

export const TOP_COUNT = 10;
/** Teacher rows in a range (= books opened) up to which the overview ranks live. */
export const LIVE_RANKING_ROWS = 20_000;
/** Stored rankings older than this are recomputed after the page is served. */
export const RANKING_MAX_AGE_MS = 15 * 60_000;

export interface Ranked {
  id: number;
  name: string;
  pagesRead: number;
  readingMinutes: number;
  readers: number;
}

type Kind = "book" | "school";
type RankRow = { id: number; pages: number; seconds: number; readers: number };

/**
 * The ranking itself as SQL. Books sum the teacher rows (optionally within one school, for its top
 * books); schools sum their own days (`school_usage_daily`, a twentieth of the rows), and count
 * different readers for the schools that made the list only.
 */
function rankingSql(kind: Kind, range: DayRange, limit: number, schoolId?: number) {
  const days = sql`day BETWEEN ${range.from} AND ${range.to}`;
  if (kind === "school") {
    return sql`SELECT id, pages, seconds,
        (SELECT count(DISTINCT teacher_id) FROM reading_daily WHERE school_id = ranked.id AND ${days}) AS readers
      FROM (SELECT school_id AS id, sum(pages) AS pages, sum(seconds) AS seconds FROM school_usage_daily WHERE ${days}
        GROUP BY school_id ORDER BY pages DESC, seconds DESC, id LIMIT ${limit}) AS ranked`;
  }
  const school = schoolId === undefined ? sql`` : sql`AND school_id = ${schoolId}`;
  return sql`SELECT book_id AS id, sum(pages) AS pages, sum(seconds) AS seconds, count(DISTINCT teacher_id) AS readers
    FROM reading_daily WHERE ${days} ${school} GROUP BY book_id ORDER BY pages DESC, seconds DESC, id LIMIT ${limit}`;
}

async function named(db: Db, kind: Kind, rows: RankRow[]): Promise<Ranked[]> {
  if (rows.length === 0) return [];
  const ids = sql.join(
    rows.map((row) => sql`${row.id}`),
    sql`, `,
  );
  const names = await db.all<{ id: number; name: string }>(
    kind === "book"
      ? sql`SELECT id, title AS name FROM books WHERE id IN (${ids})`
      : sql`SELECT id, name FROM schools WHERE id IN (${ids})`,
  );
  const byId = new Map(names.map((row) => [row.id, row.name]));
  return rows
    .filter((row) => byId.has(row.id))
    .map((row) => ({
      id: row.id,
      name: byId.get(row.id)!,
      pagesRead: row.pages,
      readingMinutes: minutesOf(row.seconds),
      readers: row.readers,
    }));
}

/** A school's (or, live, everyone's) top books or top schools over any range. */
export async function liveRanking(db: Db, kind: Kind, range: DayRange, limit = TOP_COUNT, schoolId?: number) {
  return named(db, kind, await db.all<RankRow>(rankingSql(kind, range, limit, schoolId)));
}

/** Recomputes the stored rankings of every range choice, each range in one batch. */
export async function refreshRankings(db: Db, now = Date.now()): Promise<void> {
  for (const days of RANGE_CHOICES) {
    const range = lastDays(days, now);
    const insert = (kind: Kind) => sql`INSERT INTO usage_rankings (range_days, kind, rank, entity_id, pages, seconds, readers, computed_at)
      SELECT ${days}, ${kind}, row_number() OVER (ORDER BY pages DESC, seconds DESC, id), id, pages, seconds, readers, ${now}
      FROM (${rankingSql(kind, range, TOP_COUNT)})`;
    await runTransaction(db, [sql`DELETE FROM usage_rankings WHERE range_days = ${days}`, insert("book"), insert("school")]);
  }
}

export interface Rankings {
  books: Ranked[];
  schools: Ranked[];
  /** When stored rankings were computed; null when ranked live for this page. */
  computedAt: number | null;
  /** True when the stored rankings are old and should be recomputed after the response. */
  stale: boolean;
}

/** The overview's top books and schools for a range choice: live when the range is small, else stored. */
export async function overviewRankings(db: Db, days: RangeChoice, rowsInRange: number, now = Date.now()): Promise<Rankings> {
  if (rowsInRange <= LIVE_RANKING_ROWS) {
    const range = lastDays(days, now);
    const [books, schools] = await Promise.all([liveRanking(db, "book", range), liveRanking(db, "school", range)]);
    return { books, schools, computedAt: null, stale: false };
  }
  const stored = await db.all<RankRow & { kind: Kind; computedAt: number }>(sql`SELECT kind, entity_id AS id, pages, seconds, readers,
    computed_at AS computedAt FROM usage_rankings WHERE range_days = ${days} ORDER BY kind, rank`);
  if (stored.length === 0) {
    await refreshRankings(db, now);
    return overviewRankings(db, days, 0, now);
  }
  const computedAt = stored[0]!.computedAt;
  const [books, schools] = await Promise.all([
    named(
      db,
      "book",
      stored.filter((row) => row.kind === "book"),
    ),
    named(
      db,
      "school",
      stored.filter((row) => row.kind === "school"),
    ),
  ]);
  return { books, schools, computedAt, stale: now - computedAt > RANKING_MAX_AGE_MS };
}

export interface InactiveSchool {
  id: number;
  name: string;
  slug: string;
  lastActiveDay: string | null;
  teachers: number;
}

/**
 * Schools whose teachers have not read for 30 days (the renewals at risk), longest quiet first;
 * schools added in the last 30 days are not counted yet. Walks the last-active index.
 */
export async function inactiveSchools(db: Db, now = Date.now(), limit = TOP_COUNT) {
  const since = dayOf(now - 29 * 86_400_000);
  const addedBefore = now - 30 * 86_400_000;
  const quiet = sql`(last_active_day IS NULL OR last_active_day < ${since}) AND created_at < ${addedBefore}`;
  const [[count], schools] = await Promise.all([
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM schools WHERE ${quiet}`),
    db.all<InactiveSchool>(sql`SELECT id, name, slug, last_active_day AS lastActiveDay,
      (SELECT count(*) FROM teachers WHERE teachers.school_id = schools.id) AS teachers
      FROM schools WHERE ${quiet} ORDER BY last_active_day, id LIMIT ${limit}`),
  ]);
  return { count: count?.n ?? 0, since, schools };
}

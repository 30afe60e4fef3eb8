import { dayOf } from "#shared/rules/licence.ts";
import { openLocalState } from "../../scripts/lib/local-state.ts";
import { getDb } from "../../workers/db/client.ts";
import { refreshRankings } from "../../workers/reports/rankings.ts";

/** Every `schoolEvery`-th scale school reads (scale-00005, scale-00010, ...), each with its own 20 teachers. */
export const USAGE = { activeSchools: 2_000, schoolEvery: 5, teachersPerSchool: 20, days: 366 } as const;
const TEACHERS = USAGE.activeSchools * USAGE.teachersPerSchool;
const EMAIL_DOMAIN = "usage.scale.example.org";
const DAY_MS = 86_400_000;

/** Weekdays outside the summer (20 June - 25 August) and winter (22 December - 2 January) breaks. */
function isSchoolDay(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const monthDay = day.slice(5);
  return weekday >= 1 && weekday <= 5 && !(monthDay >= "06-20" && monthDay <= "08-25") && monthDay <= "12-21" && monthDay >= "01-03";
}

/**
 * One xorshift-multiply round on a 32-bit integer column (SQLite has no XOR: a ^ b = (a | b) - (a & b)).
 * Each round reads its input four times, so the rounds go through MATERIALIZED steps, not nested text.
 */
const round = (v: string) => `((((${v} >> 16) | ${v}) - ((${v} >> 16) & ${v})) * 73244475 & 4294967295)`;
const xorShift = (v: string) => `(((${v} >> 16) | ${v}) - ((${v} >> 16) & ${v}))`;

/**
 * The book in `slot` (0-99) of scale school `school` (its number, as in its slug), as scale-seed.ts
 * assigns them: book number 1 + ((i * 7919 + j * 1009) % 100000) for j < 100. `addUsageRollups` checks
 * that the rows it generates name assigned books.
 */
const assignedBook = (bookBase: number, school: string, slot: string) => `${bookBase} + 1 + ((${school} * 7919 + ${slot} * 1009) % 100000)`;

interface Generation {
  /** The reading teachers' ids. */
  first: number;
  last: number;
  /** The id before the first scale book's. */
  bookBase: number;
}

/**
 * One school day's teacher rows. Each teacher has a habit (from their id): reads on 20-80% of school
 * days (50% on average), around a favourite of the school's 100 books. On an active day the day's
 * hash picks one book near the favourite, a third of the time a second one, 5-40 pages each at
 * 20-70 s a page, in school hours.
 */
function dayRowsSql(day: string, { first, last, bookBase }: Generation): string {
  const dayNumber = Date.parse(`${day}T00:00:00Z`) / DAY_MS;
  return `INSERT INTO reading_daily (day, school_id, book_id, teacher_id, pages, seconds, last_at)
    WITH s0 AS MATERIALIZED (SELECT t.id, t.school_id, CAST(substr(s.slug, 7) AS INTEGER) AS school, t.id AS a, t.id * 100000 + ${dayNumber} AS b
        FROM teachers t JOIN schools s ON s.id = t.school_id WHERE t.id BETWEEN ${first} AND ${last}),
      s1 AS MATERIALIZED (SELECT id, school_id, school, ${round("a")} AS a, ${round("b")} AS b FROM s0),
      s2 AS MATERIALIZED (SELECT id, school_id, school, ${round("a")} AS a, ${round("b")} AS b FROM s1),
      t AS MATERIALIZED (SELECT id, school_id, school, ${xorShift("a")} AS habit, ${xorShift("b")} AS h FROM s2),
      nth(i) AS (VALUES (0), (1)),
      r AS (SELECT id, school_id, school, h, i, ((habit >> 8) % 100 + (h >> 4) % 6 + i * (1 + (h >> 8) % 4)) % 100 AS slot,
          5 + (h >> (12 + 6 * i)) % 36 AS pages
        FROM t, nth WHERE h % 100 < 20 + habit % 61 AND (i = 0 OR (h >> 24) % 3 = 0))
    SELECT '${day}', school_id, ${assignedBook(bookBase, "school", "slot")}, id, pages, pages * (20 + (h >> 26) % 51),
      ${dayNumber * DAY_MS} + (28800 + (h >> 7) % 25200 + i * 1800) * 1000
    FROM r ORDER BY 2, 3, 4`;
}

/**
 * The 40,000 reading teachers (added once; the rollups can be regenerated without them). Numbers are
 * written into the SQL, not bound: D1 binds a JS number as REAL, and `k / 20.0` is no school number.
 */
async function readingTeachers(db: D1Database): Promise<Generation> {
  const find = () =>
    db
      .prepare(`SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM teachers WHERE email LIKE '%@${EMAIL_DOMAIN}'`)
      .first<{ first: number; last: number; n: number }>();
  let found = await find();
  if (!found?.n) {
    await db
      .prepare(`INSERT INTO teachers (school_id, name, email, mobile, password_hash)
        WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${TEACHERS - 1})
        SELECT s.id, 'Reader ' || k, printf('reader%05d@${EMAIL_DOMAIN}', k), '5550000000', (SELECT password_hash FROM teachers LIMIT 1)
        FROM n JOIN schools s ON s.slug = printf('scale-%05d', ${USAGE.schoolEvery} * (k / ${USAGE.teachersPerSchool} + 1)) ORDER BY k`)
      .run();
    found = await find();
  }
  // The day's SQL walks an id range: the teachers must be the only ones in it.
  if (found?.n !== TEACHERS || found.last - found.first + 1 !== TEACHERS) throw new Error(`reading teachers: ${JSON.stringify(found)}`);
  // Book number 1's ISBN (scale-seed.ts); no index, read once.
  const book = await db.prepare("SELECT id FROM books WHERE isbn = '979-1-000001-00-0'").first<{ id: number }>();
  if (!book) throw new Error("no scale book 1");
  return { first: found.first, last: found.last, bookBase: book.id - 1 };
}

/**
 * Replaces every rollup in the database with the synthetic year ending on `now`'s day (the demo
 * seed's 90 days of reading in five schools go too: the scale year is all the reading there is), then
 * sets the last-active days and computes the stored rankings (as the hourly job would).
 */
export async function addUsageRollups(persistTo: string, log: (line: string) => void, now = Date.now()) {
  const proxy = await openLocalState(persistTo);
  const started = performance.now();
  const took = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
  try {
    const db = proxy.env.DB;
    const generation = await readingTeachers(db);
    // The teacher rows go by dropping their table and creating it again from its own SQL: deleting
    // millions of rows one by one took minutes (and lost the proxy's connection). Its indexes are
    // created after the year: kept in place, each day's rows landed all over the book, teacher and
    // school indexes and a day's inserts slowed from 0.9 to 2 s as they grew; built at the end, they
    // are sorted once. (The primary key grows in day order.)
    const { results: schema } = await db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'reading_daily' AND sql IS NOT NULL ORDER BY type = 'index'")
      .all<{ type: string; name: string; sql: string }>();
    const indexes = schema.filter((entry) => entry.type === "index");
    await db.batch([
      db.prepare("DROP TABLE reading_daily"),
      ...schema.filter((entry) => entry.type === "table").map((table) => db.prepare(table.sql)),
      ...["school_usage_daily", "usage_daily", "usage_rankings"].map((table) => db.prepare(`DELETE FROM ${table}`)),
    ]);
    log(`  usage: rollups emptied in ${took(started)}`);
    const days = Array.from({ length: USAGE.days }, (_, i) => dayOf(now - (USAGE.days - 1 - i) * DAY_MS)).filter(isSchoolDay);
    for (const [i, day] of days.entries()) {
      await db.batch([
        db.prepare(dayRowsSql(day, generation)),
        db
          .prepare(`INSERT INTO school_usage_daily (school_id, day, active_teachers, books_opened, pages, seconds)
          SELECT school_id, day, count(DISTINCT teacher_id), count(*), sum(pages), sum(seconds) FROM reading_daily WHERE day = ? GROUP BY school_id`)
          .bind(day),
        db
          .prepare(`INSERT INTO usage_daily (day, active_teachers, books_opened, pages, seconds)
          SELECT day, count(DISTINCT teacher_id), count(*), sum(pages), sum(seconds) FROM reading_daily WHERE day = ? GROUP BY day`)
          .bind(day),
      ]);
      if (i === 0) {
        const stray = await db
          .prepare(`SELECT count(*) AS n FROM reading_daily r WHERE day = ?
            AND NOT EXISTS (SELECT 1 FROM book_access a WHERE a.school_id = r.school_id AND a.book_id = r.book_id)`)
          .bind(day)
          .first<{ n: number }>();
        if (stray?.n) throw new Error(`${stray.n} generated rows name a book their school is not assigned`);
      }
      if ((i + 1) % 50 === 0) log(`  usage: ${i + 1} of ${days.length} school days, ${took(started)}`);
    }
    const generateSeconds = +((performance.now() - started) / 1000).toFixed(1);
    const indexed = performance.now();
    for (const index of indexes) await db.prepare(index.sql).run();
    log(`  usage: ${indexes.map((index) => index.name).join(", ")} created in ${took(indexed)}`);
    const lastActive = performance.now();
    await db.batch([
      db.prepare("UPDATE teachers SET last_active_day = (SELECT max(day) FROM reading_daily WHERE teacher_id = teachers.id)"),
      db.prepare("UPDATE schools SET last_active_day = (SELECT max(day) FROM reading_daily WHERE school_id = schools.id)"),
    ]);
    log(`  usage: last active days ${took(lastActive)}`);
    const rankings = performance.now();
    await refreshRankings(getDb(db), now);
    const rankingsSeconds = +((performance.now() - rankings) / 1000).toFixed(1);
    log(`  usage: stored rankings (refreshRankings, the hourly job's) in ${rankingsSeconds} s`);
    const rows = (await db
      .prepare("SELECT (SELECT count(*) FROM reading_daily) AS readingDaily, (SELECT count(*) FROM school_usage_daily) AS schoolDays")
      .first<{ readingDaily: number; schoolDays: number }>())!;
    const seconds = +((performance.now() - started) / 1000).toFixed(1);
    log(`  usage: ${rows.readingDaily} teacher rows, ${rows.schoolDays} school rows over ${days.length} school days in ${seconds} s`);
    return { day: dayOf(now), schoolDaysInYear: days.length, ...rows, seconds, generateSeconds, rankingsSeconds };
  } finally {
    await proxy.dispose();
  }
}
export type UsageBuild = Awaited<ReturnType<typeof addUsageRollups>>;

import { ALL_BOOKS } from "#shared/rules/shelf-query.ts";
import { openLocalState } from "../../scripts/lib/local-state.ts";
import { getAdminSession } from "../../workers/auth/sessions.ts";
import { listAdminBooks, searchAdminBooks } from "../../workers/books/list.ts";
import { type Db, getDb } from "../../workers/db/client.ts";
import { unstarBook } from "../../workers/reading/favourites.ts";
import { findSchoolBook, listSchoolBooks, searchSchoolBooks } from "../../workers/reading/library.ts";
import { recentReading } from "../../workers/reading/progress.ts";
import { listShelfPage, summariseShelf } from "../../workers/reading/shelf.ts";
import { schoolReport } from "../../workers/reports/detail.ts";
import { usageOverview } from "../../workers/reports/overview.ts";
import { lastDays } from "../../workers/reports/range.ts";
import { listSchools } from "../../workers/schools/list.ts";
import { findSchoolBySlug } from "../../workers/schools/lookup.ts";
import { busiestSchool } from "./usage-worker.ts";

export interface QueryPlan {
  query: string;
  sql: string;
  plan: string[];
  /**
   * Plan lines that read a whole large table without an index, or the FTS index once per row
   * (see FTS_PER_ROW): either makes the query's time grow with the catalogue. The check fails on any.
   */
  fullScans: string[];
  tempBTrees: string[];
}

type Recorded = { sql: string; params: unknown[] };

// A plain `SCAN books` reads every row; `SCAN books USING [COVERING] INDEX x` walks an index. The
// usage rollups and teachers grow with the schools too (a year at scale: millions of teacher rows).
const LARGE_TABLES = /^SCAN (books|schools|book_access|teachers|reading_daily|school_usage_daily|usage_daily|usage_rankings)(?: AS \w+)?$/;
const NOT_ALIAS = new Set([
  "where",
  "on",
  "left",
  "inner",
  "cross",
  "join",
  "group",
  "order",
  "limit",
  "using",
  "natural",
  "union",
  "window",
]);

/**
 * A plan line names a table by its alias alone (`SCAN t` for `FROM teachers t`): the line with the
 * table's own name, for LARGE_TABLES.
 */
function unaliased(detail: string, statement: string): string {
  const scan = /^SCAN (\w+)$/.exec(detail);
  if (!scan) return detail;
  for (const [, table, alias] of statement.matchAll(/\b(?:from|join)\s+[`"]?(\w+)[`"]?\s+(?:as\s+)?(\w+)/gi))
    if (alias === scan[1] && !NOT_ALIAS.has(alias!.toLowerCase())) return `SCAN ${table} AS ${alias}`;
  return detail;
}

/**
 * An FTS5 scan handed a rowid equality besides its MATCH: FTS5's idxStr then holds `=` (as in
 * `SCAN books_fts VIRTUAL TABLE INDEX 0:=M5`, where `M5` alone is the plain MATCH). When the rowid
 * comes from an IN list or a join, FTS5 re-runs the whole (prefix) match once per value: the
 * teacher search without the `+` in `+books_fts.rowid IN (...)` took over 1 s at scale.
 */
const FTS_PER_ROW = /^SCAN books_fts VIRTUAL TABLE INDEX \d+:\S*=/;

/** Hands drizzle a D1 that remembers every statement it prepares, with its parameters. */
function recordingD1(real: D1Database, into: Recorded[]): D1Database {
  const wrap = (sql: string): D1PreparedStatement => {
    const entry: Recorded = { sql, params: [] };
    into.push(entry);
    const statement = real.prepare(sql);
    return {
      bind: (...params: unknown[]) => {
        entry.params = params;
        return statement.bind(...params);
      },
      first: (column?: string) => statement.first(column as string),
      run: () => statement.run(),
      all: () => statement.all(),
      raw: (options?: { columnNames?: boolean }) => statement.raw(options as { columnNames: true }),
    } as unknown as D1PreparedStatement;
  };
  return {
    prepare: wrap,
    batch: (statements: D1PreparedStatement[]) => real.batch(statements),
    exec: (sql: string) => real.exec(sql),
  } as unknown as D1Database;
}

/**
 * The app's own functions for each hot query, on the school with 1,000 books (or a given one); the
 * usage reports on the school that read the most in the year.
 */
function hotQueries(db: Db, ids: { school: number; teacher: number; book: number; readingSchool: number }, now: number) {
  const cookie = (name: string) => new Request("http://bench.test/", { headers: { Cookie: `${name}=bench-token-that-matches-nothing` } });
  return [
    ["school by slug (findSchoolBySlug)", () => findSchoolBySlug(db, "big-library")],
    ["admin session by token hash (getAdminSession)", () => getAdminSession(db, cookie("lectern_admin"))],
    ["dashboard shelf (summariseShelf)", () => summariseShelf(db, ids.school, 48, 0)],
    ["dashboard continue reading (recentReading)", () => recentReading(db, ids.teacher, ids.school)],
    // The library's sorts and combined filters (issue 16): every one walks the school's own rows.
    [
      "dashboard shelf, Science + Standard 9, recently added (summariseShelf)",
      () => summariseShelf(db, ids.school, 48, ids.teacher, { ...ALL_BOOKS, subject: "Science", grade: 9, sort: "added" }),
    ],
    [
      "dashboard shelf, text filter, recently read (summariseShelf + FTS)",
      () => summariseShelf(db, ids.school, 48, ids.teacher, { ...ALL_BOOKS, q: "science", sort: "read" }),
    ],
    ["dashboard shelf, My books (summariseShelf)", () => summariseShelf(db, ids.school, 48, ids.teacher, { ...ALL_BOOKS, mine: true })],
    [
      "shelf page 2, Science (listShelfPage)",
      () => listShelfPage(db, ids.school, ids.teacher, { ...ALL_BOOKS, subject: "Science" }, 48, 48),
    ],
    ["unstar a book (unstarBook; starBook checks the shelf alike)", () => unstarBook(db, ids.teacher, ids.school, ids.book)],
    ["school's books (listSchoolBooks)", () => listSchoolBooks(db, ids.school)],
    ["school's books, searched (listSchoolBooks + FTS)", () => listSchoolBooks(db, ids.school, "science")],
    ["search-books FTS (searchSchoolBooks)", () => searchSchoolBooks(db, ids.school, "science")],
    ["one book of the school (findSchoolBook)", () => findSchoolBook(db, ids.school, ids.book)],
    ["admin books by title", () => listAdminBooks(db, { page: 1, pageSize: 25, sort: "title", dir: "asc" })],
    ["admin books by title, page 2000", () => listAdminBooks(db, { page: 2000, pageSize: 25, sort: "title", dir: "desc" })],
    ["admin books by createdAt", () => listAdminBooks(db, { page: 1, pageSize: 25, sort: "createdAt", dir: "desc" })],
    ["admin books search (FTS)", () => listAdminBooks(db, { query: "science", page: 1, pageSize: 25 })],
    ["admin books search, page 5 (FTS)", () => listAdminBooks(db, { query: "science", page: 5, pageSize: 25 })],
    ["admin books search by title (FTS)", () => listAdminBooks(db, { query: "science", page: 1, pageSize: 25, sort: "title" })],
    ["admin books search by grade (FTS)", () => listAdminBooks(db, { query: "science", page: 1, pageSize: 25, sort: "grade" })],
    ["admin book picker (searchAdminBooks)", () => searchAdminBooks(db, "science")],
    ["admin schools by name", () => listSchools(db, { query: "", page: 1, pageSize: 25, sort: "name", dir: "asc" })],
    ["admin schools by name, page 200", () => listSchools(db, { query: "", page: 200, pageSize: 25, sort: "name", dir: "desc" })],
    // Issue 17: the admin home's overview over a year, and one school's year (bench/lib/usage-reports.ts times them).
    ["usage overview, 365 days (usageOverview)", () => usageOverview(db, 365, now)],
    ["school usage report, 365 days (schoolReport)", () => schoolReport(db, ids.readingSchool, lastDays(365, now), now)],
  ] as const;
}

/**
 * Runs every hot query through the app's own functions against the local D1 in `persistTo`,
 * recording the SQL they send, then asks the same binding for EXPLAIN QUERY PLAN of each.
 */
export async function explainHotQueries(persistTo: string): Promise<{ plans: QueryPlan[]; rows: Record<string, number> }> {
  const proxy = await openLocalState(persistTo);
  try {
    const real = proxy.env.DB;
    const rows = (await real
      .prepare(
        "SELECT (SELECT count(*) FROM schools) AS schools, (SELECT count(*) FROM books) AS books, (SELECT count(*) FROM book_access) AS book_access, (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM teachers) AS teachers, (SELECT count(*) FROM reading_daily) AS reading_daily, (SELECT count(*) FROM school_usage_daily) AS school_usage_daily, (SELECT count(*) FROM books_fts WHERE books_fts MATCH '\"science\"*') AS fts_matches_science",
      )
      .first<Record<string, number>>())!;
    const ids = (await real
      .prepare(
        "SELECT s.id AS school, t.id AS teacher, (SELECT book_id FROM book_access WHERE school_id = s.id LIMIT 1) AS book FROM schools s JOIN teachers t ON t.school_id = s.id WHERE s.slug = 'big-library'",
      )
      .first<{ school: number; teacher: number; book: number }>())!;
    const now = Date.now();
    const readingSchool = (await busiestSchool(getDb(real), now)).id;
    const plans: QueryPlan[] = [];
    const recorded: Recorded[] = [];
    for (const [query, run] of hotQueries(getDb(recordingD1(real, recorded)), { ...ids, readingSchool }, now)) {
      recorded.length = 0;
      await run();
      const reads = recorded.filter((r) => /^\s*(select|with)\b/i.test(r.sql));
      // drizzle prepares a batched statement twice; one plan each is enough.
      for (const statement of reads.filter((r, i) => reads.findIndex((other) => other.sql === r.sql) === i)) {
        const result = await real
          .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
          .bind(...statement.params)
          .all<{ id: number; parent: number; detail: string }>();
        const depth = new Map<number, number>();
        const plan = result.results.map((row) => {
          const level = (depth.get(row.parent) ?? -1) + 1;
          depth.set(row.id, level);
          return `${"  ".repeat(level)}${row.detail}`;
        });
        const details = result.results.map((row) => row.detail.trim());
        plans.push({
          query,
          sql: statement.sql.replace(/\s+/g, " ").trim(),
          plan,
          fullScans: details.filter((d) => LARGE_TABLES.test(unaliased(d, statement.sql)) || FTS_PER_ROW.test(d)),
          tempBTrees: details.filter((d) => d.startsWith("USE TEMP B-TREE")),
        });
      }
    }
    return { plans, rows };
  } finally {
    await proxy.dispose();
  }
}

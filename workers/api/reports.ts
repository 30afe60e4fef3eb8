import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type CsvColumns, toCsv } from "#shared/csv.ts";
import type { Db } from "../db/client.ts";
import { books, schools } from "../db/schema.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { validate } from "../kernel/validate.ts";
import { licenceSeatDays, licenceSeatUse } from "../licences/seat-use.ts";
import { csvResponse } from "../reports/csv.ts";
import { schoolsReadingBook, stopPages, teacherUsage } from "../reports/detail.ts";
import {
  exportFileName,
  INACTIVE_COLUMNS,
  RANKED_COLUMNS,
  SEAT_DAY_COLUMNS,
  STOP_COLUMNS,
  TEACHER_COLUMNS,
  USAGE_COLUMNS,
} from "../reports/exports.ts";
import { type ReportQuery, ReportQuerySchema } from "../reports/range.ts";
import { inactiveSchools, liveRanking } from "../reports/rankings.ts";
import { usageReport } from "../reports/usage.ts";
import { flushForReport } from "../school-object/objects.ts";

/** The most rows a ranking export holds. */
const EXPORT_ROWS = 10_000;

const withSchool = ReportQuerySchema.refine((query) => query.schoolId !== undefined, {
  error: "Give the school as schoolId",
  path: ["schoolId"],
});
const withBook = ReportQuerySchema.refine((query) => query.bookId !== undefined, { error: "Give the book as bookId", path: ["bookId"] });
const FormatOnly = z.object({ format: z.enum(["json", "csv"], { error: "The format must be json or csv" }).default("json") });

type Subjects = { book: { id: number; pageCount: number | null } | null };

/** The school and book a query names, looked up by id alone; null for one named that does not exist. */
async function subjects(db: Db, query: ReportQuery): Promise<Subjects | "School not found" | "Book not found"> {
  const [[school], [book]] = await Promise.all([
    query.schoolId === undefined ? [] : db.select({ id: schools.id }).from(schools).where(eq(schools.id, query.schoolId)),
    query.bookId === undefined ? [] : db.select({ id: books.id, pageCount: books.pageCount }).from(books).where(eq(books.id, query.bookId)),
  ]);
  if (query.schoolId !== undefined && !school) return "School not found";
  if (query.bookId !== undefined && !book) return "Book not found";
  return { book: book ?? null };
}

const scopeName = (what: string, query: ReportQuery) =>
  [what, query.schoolId === undefined ? "" : `school-${query.schoolId}`, query.bookId === undefined ? "" : `book-${query.bookId}`]
    .filter(Boolean)
    .join("-");

/**
 * One report's answer: 404 for a school or book the query names that does not exist, else the
 * rows `run` computes, as CSV with `format=csv` or as JSON (`json`, by default the range and the
 * rows under `key`).
 */
async function answer<Row>(
  c: Context<AdminApiEnv>,
  query: ReportQuery,
  report: { name: string; key: string; columns: CsvColumns<Row> },
  run: (db: Db, found: Subjects) => Promise<Row[] | { rows: Row[]; json: object }>,
) {
  const { db } = c.var.context;
  const found = await subjects(db, query);
  if (typeof found === "string") return c.json({ error: found }, 404);
  if (query.schoolId !== undefined) await flushForReport(c.env, query.schoolId, query);
  const result = await run(db, found);
  const { rows, json } = Array.isArray(result) ? { rows: result, json: { from: query.from, to: query.to, [report.key]: result } } : result;
  if (query.format === "csv") return csvResponse(toCsv(report.columns, rows), exportFileName(scopeName(report.name, query), query));
  return c.json(json);
}

/**
 * Usage reports for admins (docs/decisions/0019). Every report answers JSON, or CSV with
 * `format=csv`; ranges are `from`/`to` UTC days, at most 366 of them. A report about one school
 * flushes that school's object first; the platform-wide ones read what the objects have flushed
 * (at most FLUSH_INTERVAL_MS behind: docs/decisions/0024).
 */
export const reportsApi = new Hono<AdminApiEnv>()
  .use(requireRole("admin"))
  .get("/usage", validate("query", ReportQuerySchema), (c) => {
    const query = c.req.valid("query");
    return answer(c, query, { name: "usage", key: "days", columns: USAGE_COLUMNS }, async (db) => {
      const report = await usageReport(db, query, query);
      return { rows: report.days, json: report };
    });
  })
  .get("/books", validate("query", ReportQuerySchema), (c) => {
    const query = c.req.valid("query");
    const columns = RANKED_COLUMNS("bookId", "title");
    return answer(c, query, { name: "books", key: "books", columns }, (db) => liveRanking(db, "book", query, EXPORT_ROWS, query.schoolId));
  })
  .get("/schools", validate("query", ReportQuerySchema), (c) => {
    const query = c.req.valid("query");
    const columns = RANKED_COLUMNS("schoolId", "school");
    return answer(c, query, { name: "schools", key: "schools", columns }, (db) =>
      query.bookId === undefined ? liveRanking(db, "school", query, EXPORT_ROWS) : schoolsReadingBook(db, query.bookId, query, EXPORT_ROWS),
    );
  })
  .get("/teachers", validate("query", withSchool), (c) => {
    const query = c.req.valid("query");
    return answer(c, query, { name: "teachers", key: "teachers", columns: TEACHER_COLUMNS }, (db) =>
      teacherUsage(db, query.schoolId!, query),
    );
  })
  .get("/stop-pages", validate("query", withBook), (c) => {
    const query = c.req.valid("query");
    return answer(c, query, { name: "stop-pages", key: "stops", columns: STOP_COLUMNS }, (db, { book }) =>
      stopPages(db, query.bookId!, book?.pageCount ?? null, query),
    );
  })
  // Seats per licence (docs/decisions/0028): JSON has each licence's figures and its days; the CSV one row per licence and day.
  .get("/seats", validate("query", ReportQuerySchema), (c) => {
    const query = c.req.valid("query");
    const scope = { schoolId: query.schoolId, bookId: query.bookId };
    return answer(c, query, { name: "seats", key: "days", columns: SEAT_DAY_COLUMNS }, async (db) => {
      const [licences, days] = await Promise.all([licenceSeatUse(db, scope, query), licenceSeatDays(db, scope, query)]);
      return { rows: days, json: { from: query.from, to: query.to, licences, days } };
    });
  })
  .get("/inactive-schools", validate("query", FormatOnly), async (c) => {
    const { schools: quiet, since, count } = await inactiveSchools(c.var.context.db, Date.now(), EXPORT_ROWS);
    if (c.req.valid("query").format === "csv") return csvResponse(toCsv(INACTIVE_COLUMNS, quiet), exportFileName("inactive-schools"));
    return c.json({ since, count, schools: quiet });
  });

import { type Context, Hono } from "hono";
import { z } from "zod";
import { findBook } from "../books/detail.ts";
import { type AdminApiEnv, requireAdmin } from "../http/guards.ts";
import { validate } from "../http/validate.ts";
import { csvResponse, toCsv } from "../reports/csv.ts";
import { schoolsReadingBook, stopPages, teacherUsage } from "../reports/detail.ts";
import { exportFileName, INACTIVE_COLUMNS, RANKED_COLUMNS, STOP_COLUMNS, TEACHER_COLUMNS, USAGE_COLUMNS } from "../reports/exports.ts";
import { type ReportQuery, ReportQuerySchema } from "../reports/range.ts";
import { inactiveSchools, liveRanking } from "../reports/rankings.ts";
import { usageReport } from "../reports/usage.ts";
import { findSchoolRow } from "../schools/list.ts";

/** The most rows a ranking export holds. */
const EXPORT_ROWS = 10_000;

const withSchool = ReportQuerySchema.refine((query) => query.schoolId !== undefined, {
  error: "Give the school as schoolId",
  path: ["schoolId"],
});
const withBook = ReportQuerySchema.refine((query) => query.bookId !== undefined, { error: "Give the book as bookId", path: ["bookId"] });
const FormatOnly = z.object({ format: z.enum(["json", "csv"], { error: "The format must be json or csv" }).default("json") });

/** 404 for a school or book the query names that does not exist; the book itself when named. */
async function subjects(c: Context<AdminApiEnv>, query: ReportQuery) {
  const { db } = c.var.context;
  const [school, book] = await Promise.all([
    query.schoolId === undefined ? null : findSchoolRow(db, query.schoolId),
    query.bookId === undefined ? null : findBook(db, query.bookId),
  ]);
  if (query.schoolId !== undefined && !school) return { refusal: c.json({ error: "School not found" }, 404) } as const;
  if (query.bookId !== undefined && !book) return { refusal: c.json({ error: "Book not found" }, 404) } as const;
  return { book } as const;
}

const scopeName = (what: string, query: ReportQuery) =>
  [what, query.schoolId === undefined ? "" : `school-${query.schoolId}`, query.bookId === undefined ? "" : `book-${query.bookId}`]
    .filter(Boolean)
    .join("-");

/**
 * Usage reports for admins (docs/decisions/0019). Every report answers JSON, or CSV with
 * `format=csv`; ranges are `from`/`to` UTC days, at most 366 of them.
 */
export const reportsApi = new Hono<AdminApiEnv>()
  .use(requireAdmin)
  .get("/usage", validate("query", ReportQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const found = await subjects(c, query);
    if ("refusal" in found) return found.refusal;
    const report = await usageReport(c.var.context.db, query, query);
    if (query.format === "csv") return csvResponse(toCsv(USAGE_COLUMNS, report.days), exportFileName(scopeName("usage", query), query));
    return c.json(report);
  })
  .get("/books", validate("query", ReportQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const found = await subjects(c, query);
    if ("refusal" in found) return found.refusal;
    const books = await liveRanking(c.var.context.db, "book", query, EXPORT_ROWS, query.schoolId);
    if (query.format === "csv")
      return csvResponse(toCsv(RANKED_COLUMNS("bookId", "title"), books), exportFileName(scopeName("books", query), query));
    return c.json({ from: query.from, to: query.to, books });
  })
  .get("/schools", validate("query", ReportQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const found = await subjects(c, query);
    if ("refusal" in found) return found.refusal;
    const { db } = c.var.context;
    const schools =
      query.bookId === undefined
        ? await liveRanking(db, "school", query, EXPORT_ROWS)
        : await schoolsReadingBook(db, query.bookId, query, EXPORT_ROWS);
    if (query.format === "csv") {
      return csvResponse(toCsv(RANKED_COLUMNS("schoolId", "school"), schools), exportFileName(scopeName("schools", query), query));
    }
    return c.json({ from: query.from, to: query.to, schools });
  })
  .get("/teachers", validate("query", withSchool), async (c) => {
    const query = c.req.valid("query");
    const found = await subjects(c, query);
    if ("refusal" in found) return found.refusal;
    const teachers = await teacherUsage(c.var.context.db, query.schoolId!, query);
    if (query.format === "csv") return csvResponse(toCsv(TEACHER_COLUMNS, teachers), exportFileName(scopeName("teachers", query), query));
    return c.json({ from: query.from, to: query.to, teachers });
  })
  .get("/stop-pages", validate("query", withBook), async (c) => {
    const query = c.req.valid("query");
    const found = await subjects(c, query);
    if ("refusal" in found) return found.refusal;
    const stops = await stopPages(c.var.context.db, query.bookId!, found.book?.pageCount ?? null, query);
    if (query.format === "csv") return csvResponse(toCsv(STOP_COLUMNS, stops), exportFileName(scopeName("stop-pages", query), query));
    return c.json({ from: query.from, to: query.to, stops });
  })
  .get("/inactive-schools", validate("query", FormatOnly), async (c) => {
    const { schools, since, count } = await inactiveSchools(c.var.context.db, Date.now(), EXPORT_ROWS);
    if (c.req.valid("query").format === "csv") return csvResponse(toCsv(INACTIVE_COLUMNS, schools), exportFileName("inactive-schools"));
    return c.json({ since, count, schools });
  });

import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { toCsv } from "#shared/csv.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { answerJson, failureResponse, runJson } from "../http/run-command.ts";
import { validate } from "../kernel/validate.ts";
import { csvResponse } from "../reports/csv.ts";
import { teacherUsage } from "../reports/detail.ts";
import { exportFileName, RANKED_COLUMNS, TEACHER_COLUMNS, USAGE_COLUMNS } from "../reports/exports.ts";
import { DefaultedRangeQuerySchema } from "../reports/range.ts";
import { liveRanking } from "../reports/rankings.ts";
import { usageReport } from "../reports/usage.ts";
import { flushForReport } from "../school-object/objects.ts";
import { coordinatorSchoolReport, coordinatorTeachers } from "../teachers/coordinator-views.ts";
import {
  asCoordinator,
  coordinatorDisableCommand,
  coordinatorEnableCommand,
  coordinatorSendResetCommand,
  coordinatorSignOutCommand,
} from "../teachers/coordinators.ts";

/** The most rows a CSV of the school's books holds (as the admins' exports). */
const EXPORT_ROWS = 10_000;

/** Without `from` and `to`, the last 30 days, as the My school page opens on. */
const UsageQuerySchema = z.intersection(
  DefaultedRangeQuerySchema,
  z.object({
    format: z.enum(["json", "csv"], { error: "The format must be json or csv" }).default("json"),
    // The CSV's content: the days (by default), the school's books, or its teachers, as the admin's three CSVs.
    report: z.enum(["usage", "books", "teachers"], { error: "The report must be usage, books or teachers" }).default("usage"),
  }),
);

/** The teacher is named by the path alone: no body is read. */
const TEACHER = { params: ["teacherId"], body: false } as const;

/**
 * The reads of My school are a coordinator's only: a plain teacher of the school is 403. (The writes
 * ask the same in their command, with the teacher they act on; guarding them here too would ask twice.)
 */
export const coordinatorOnly = createMiddleware<TeacherApiEnv>(async (c, next) => {
  const { school, teacher } = c.var.teacher;
  const coordinator = await asCoordinator(c.var.context.db, { schoolId: school.id, teacherId: teacher.id });
  if (!coordinator.ok) return failureResponse(c, coordinator.failure);
  await next();
});

/**
 * A coordinator's view of their own school (docs/decisions/0030), mounted at
 * /api/schools/slug/{slug}/coordinator. The teacher guard admits only a signed-in teacher of the
 * school the path names (another school's teacher gets 404, as for the library); each route then
 * asks D1 whether that teacher is a coordinator (`coordinatorOnly`, or the write's command: a plain
 * teacher gets 403). The school is always
 * the session's: no parameter names another.
 */
export const coordinatorApi = new Hono<TeacherApiEnv>()
  .get("/teachers", requireRole("teacher"), coordinatorOnly, async (c) => {
    const { db, env } = c.var.context;
    return c.json({ teachers: await coordinatorTeachers(db, env, c.var.teacher.school.id) });
  })
  .post("/teachers/:teacherId/disable", requireRole("teacher"), runJson(coordinatorDisableCommand, answerJson, TEACHER))
  .post("/teachers/:teacherId/enable", requireRole("teacher"), runJson(coordinatorEnableCommand, answerJson, TEACHER))
  .post("/teachers/:teacherId/sign-out", requireRole("teacher"), runJson(coordinatorSignOutCommand, answerJson, TEACHER))
  .post("/teachers/:teacherId/send-reset", requireRole("teacher"), runJson(coordinatorSendResetCommand, answerJson, TEACHER))
  .get("/usage", requireRole("teacher"), coordinatorOnly, validate("query", UsageQuerySchema), async (c) => {
    const { db, env } = c.var.context;
    const { school } = c.var.teacher;
    const query = c.req.valid("query");
    const range = { from: query.from, to: query.to };
    if (query.format === "json")
      return c.json({ from: range.from, to: range.to, ...(await coordinatorSchoolReport(db, env, school.id, range)) });
    const name = exportFileName(`${query.report}-${school.slug}`, range);
    await flushForReport(env, school.id, range);
    if (query.report === "books")
      return csvResponse(toCsv(RANKED_COLUMNS("bookId", "title"), await liveRanking(db, "book", range, EXPORT_ROWS, school.id)), name);
    if (query.report === "teachers") return csvResponse(toCsv(TEACHER_COLUMNS, await teacherUsage(db, school.id, range)), name);
    return csvResponse(toCsv(USAGE_COLUMNS, (await usageReport(db, range, { schoolId: school.id })).days), name);
  });

/**
 * A school's data export (docs/decisions/0044, workers/exports/), and a teacher's own data:
 *   GET  /api/schools/:id/exports                                   an admin: { exports } still kept, newest first
 *   POST /api/schools/:id/exports                                   an admin asks for one (audited) → 202 { export }
 *   GET  /api/schools/:id/exports/:exportId/download                the ZIP (audited)
 *   GET  /api/schools/slug/:slug/coordinator/exports                the same three for the school's coordinator
 *   POST /api/schools/slug/:slug/coordinator/exports
 *   GET  /api/schools/slug/:slug/coordinator/exports/:exportId/download
 *   GET  /api/teacher/my-data                                       the signed-in teacher's own data, as a ZIP
 * The coordinator's school is their session's: the teacher guard admits only a teacher of the
 * school the path names (another school's is 404), and a plain teacher is 403. An export id of
 * another school is not found under this school's.
 */
import { type Context, Hono } from "hono";
import type { AuditActor } from "../admins/audit.ts";
import { coordinatorExportCommand, requestSchoolExportCommand } from "../exports/commands.ts";
import { listSchoolExports, openExport, zipResponse } from "../exports/download.ts";
import { type ExportView, schoolExports } from "../exports/store.ts";
import { teacherDataArchive } from "../exports/teacher-export.ts";
import { type AdminApiEnv, actorOf, requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { failureResponse, runJson } from "../http/run-command.ts";
import type { AppEnv } from "../kernel/context.ts";
import { coordinatorActor, findCoordinator, NOT_COORDINATOR } from "../teachers/coordinators.ts";
import { SCHOOL_NOT_FOUND } from "../teachers/management.ts";
import { parseId } from "../validation/schemas.ts";
import { coordinatorOnly } from "./coordinator.ts";

/** What asking for an export answers: 202, the job is on its way. */
const accepted = (c: Context<AppEnv>, value: ExportView) => c.json({ export: value }, 202);

async function download<Env extends AppEnv>(c: Context<Env>, schoolId: number, actor: AuditActor) {
  const opened = await openExport(c.var.context, schoolId, c.req.param("exportId") ?? "", actor);
  if (!opened.ok) return failureResponse(c, opened.failure);
  return zipResponse(opened.value.body, opened.value.fileName, opened.value.size);
}

/** Mounted at /api/schools, after the schools routes. */
export const schoolExportsApi = new Hono<AdminApiEnv>()
  .get("/:id/exports", requireRole("admin"), async (c) => {
    const schoolId = parseId(c.req.param("id"));
    const exports = schoolId ? await listSchoolExports(c.var.context.db, c.env, schoolId) : null;
    return exports ? c.json({ exports }) : c.json({ error: SCHOOL_NOT_FOUND }, 404);
  })
  .post("/:id/exports", requireRole("admin"), runJson(requestSchoolExportCommand, accepted, { params: ["id"], body: false }))
  .get("/:id/exports/:exportId/download", requireRole("admin"), async (c) => {
    const schoolId = parseId(c.req.param("id"));
    if (!schoolId) return c.json({ error: SCHOOL_NOT_FOUND }, 404);
    return download(c, schoolId, actorOf(c));
  });

/** Mounted at /api/schools/slug/:slug/coordinator. */
export const coordinatorExportsApi = new Hono<TeacherApiEnv>()
  .get("/exports", requireRole("teacher"), coordinatorOnly, async (c) => {
    return c.json({ exports: await schoolExports(c.env.BOOKS, c.var.teacher.school.id) });
  })
  .post("/exports", requireRole("teacher"), runJson(coordinatorExportCommand, accepted, { body: false }))
  .get("/exports/:exportId/download", requireRole("teacher"), async (c) => {
    const { school, teacher } = c.var.teacher;
    const coordinator = await findCoordinator(c.var.context.db, { schoolId: school.id, teacherId: teacher.id });
    if (!coordinator) return c.json({ error: NOT_COORDINATOR }, 403);
    return download(c, school.id, coordinatorActor(coordinator.email));
  });

/** Mounted at /api/teacher. */
export const teacherDataApi = new Hono<TeacherApiEnv>().get("/my-data", requireRole("teacher"), async (c) => {
  const { body, fileName } = await teacherDataArchive(c.var.context, c.var.teacher);
  return zipResponse(body, fileName);
});

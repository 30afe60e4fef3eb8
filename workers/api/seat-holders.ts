/**
 * Who holds a school's seats, and freeing one (issue 41, workers/licences/seat-holders.ts):
 *   GET    /api/schools/:id/seats                                    an admin: { seats: HeldSeat[] }
 *   DELETE /api/schools/:id/seats/:bookId/:teacherId                 an admin frees one (audited)
 *   GET    /api/schools/slug/:slug/coordinator/seats                 the school's coordinator
 *   DELETE /api/schools/slug/:slug/coordinator/seats/:bookId/:teacherId
 * The coordinator's school is their session's (the teacher guard admits only a teacher of the
 * school the path names: another school's is 404); a plain teacher is 403.
 */
import { Hono } from "hono";
import { type AdminApiEnv, requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { answerJson, runJson } from "../http/run-command.ts";
import { coordinatorFreeSeatCommand, freeSeatCommand, schoolSeatHolders } from "../licences/seat-holders.ts";
import { coordinatorOnly } from "./coordinator.ts";
import { schoolList } from "./school-list.ts";

/** Mounted at /api/schools, after the schools routes. */
export const schoolSeatsApi = new Hono<AdminApiEnv>()
  .get("/:id/seats", requireRole("admin"), schoolList("seats", schoolSeatHolders))
  .delete(
    "/:id/seats/:bookId/:teacherId",
    requireRole("admin"),
    runJson(freeSeatCommand, answerJson, { params: ["id", "bookId", "teacherId"], body: false }),
  );

/** Mounted at /api/schools/slug/:slug/coordinator. */
export const coordinatorSeatsApi = new Hono<TeacherApiEnv>()
  .get("/seats", requireRole("teacher"), coordinatorOnly, async (c) => {
    const { db, env } = c.var.context;
    return c.json({ seats: (await schoolSeatHolders(db, env, c.var.teacher.school.id)) ?? [] });
  })
  .delete(
    "/seats/:bookId/:teacherId",
    requireRole("teacher"),
    runJson(coordinatorFreeSeatCommand, answerJson, { params: ["bookId", "teacherId"], body: false }),
  );

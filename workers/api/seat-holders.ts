/**
 * Who holds a school's seats, and freeing one (issue 41, workers/licences/seat-holders.ts):
 *   GET    /api/schools/:id/seats                                    an admin: { seats: HeldSeat[] }
 *   DELETE /api/schools/:id/seats/:bookId/:teacherId                 an admin frees one (audited)
 *   GET    /api/schools/slug/:slug/coordinator/seats                 the school's coordinator
 *   DELETE /api/schools/slug/:slug/coordinator/seats/:bookId/:teacherId
 * The coordinator's school is their session's (the teacher guard admits only a teacher of the
 * school the path names: another school's is 404); a plain teacher is 403.
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/context.ts";
import { type AdminApiEnv, requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { parseInput } from "../http/validate.ts";
import { coordinatorFreeSeatCommand, freeSeatCommand, schoolSeatHolders } from "../licences/seat-holders.ts";
import { SCHOOL_NOT_FOUND } from "../teachers/management.ts";
import { IdTextSchema } from "../validation/schemas.ts";
import { coordinatorOnly } from "./coordinator.ts";

const IdText = IdTextSchema();
const answer = <Value extends object>(c: Context<AppEnv>, value: Value) => c.json(value);

/** Mounted at /api/schools, after the schools routes. */
export const schoolSeatsApi = new Hono<AdminApiEnv>()
  .get("/:id/seats", requireRole("admin"), async (c) => {
    const id = parseInput(IdText, c.req.param("id"));
    if (!id.ok) return c.json({ error: SCHOOL_NOT_FOUND }, 404);
    const seats = await schoolSeatHolders(c.var.context.db, c.env, id.data);
    return seats ? c.json({ seats }) : c.json({ error: SCHOOL_NOT_FOUND }, 404);
  })
  .delete(
    "/:id/seats/:bookId/:teacherId",
    requireRole("admin"),
    runJson(freeSeatCommand, answer, { params: ["id", "bookId", "teacherId"], body: false }),
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
    runJson(coordinatorFreeSeatCommand, answer, { params: ["bookId", "teacherId"], body: false }),
  );

import type { Context } from "hono";
import { Hono } from "hono";
import { type AdminApiEnv, actorOf, requireAdmin } from "../http/guards.ts";
import { clientIp, requireSameOrigin } from "../http/request-guards.ts";
import {
  deleteTeacher,
  endTeacherSessions,
  listSchoolTeachers,
  type ManageResult,
  SCHOOL_NOT_FOUND,
  sendTeacherReset,
  setTeacherDisabled,
  TEACHER_NOT_FOUND,
} from "../teachers/management.ts";
import { IdTextSchema } from "../validation/schemas.ts";

type Ids = { schoolId: number; teacherId: number };

const IdText = IdTextSchema();

/** The school's and the teacher's ids from the path, read strictly; a malformed one names no teacher (404). */
function teacherIds(c: Context<AdminApiEnv>): Ids | null {
  const schoolId = IdText.safeParse(c.req.param("id"));
  const teacherId = IdText.safeParse(c.req.param("teacherId"));
  return schoolId.success && teacherId.success ? { schoolId: schoolId.data, teacherId: teacherId.data } : null;
}

const notFound = (c: Context<AdminApiEnv>) => c.json({ error: TEACHER_NOT_FOUND }, 404);

function answer<T extends object>(c: Context<AdminApiEnv>, result: ManageResult<T>) {
  if (!result.ok) return c.json({ error: result.error }, result.status);
  const { ok: _ok, ...body } = result;
  return c.json(body);
}

/**
 * /api/schools/:id/teachers: a school's teachers for admins (docs/decisions/0015). Mounted after
 * the schools routes, so `/slug/:slug` and `/:id` keep their meaning; each route has its own guards
 * (a sub-app's `use` would reach every /api/schools path).
 */
export const schoolTeachersApi = new Hono<AdminApiEnv>()
  .get("/:id/teachers", requireAdmin, async (c) => {
    const schoolId = IdText.safeParse(c.req.param("id"));
    if (!schoolId.success) return c.json({ error: SCHOOL_NOT_FOUND }, 404);
    const teachers = await listSchoolTeachers(c.var.context.db, c.env, schoolId.data);
    return teachers ? c.json({ teachers }) : c.json({ error: SCHOOL_NOT_FOUND }, 404);
  })
  .post("/:id/teachers/:teacherId/disable", requireAdmin, requireSameOrigin, async (c) => {
    const ids = teacherIds(c);
    if (!ids) return notFound(c);
    return answer(c, await setTeacherDisabled(c.var.context.db, c.env, actorOf(c), ids.schoolId, ids.teacherId, true));
  })
  .post("/:id/teachers/:teacherId/enable", requireAdmin, requireSameOrigin, async (c) => {
    const ids = teacherIds(c);
    if (!ids) return notFound(c);
    return answer(c, await setTeacherDisabled(c.var.context.db, c.env, actorOf(c), ids.schoolId, ids.teacherId, false));
  })
  .post("/:id/teachers/:teacherId/sign-out", requireAdmin, requireSameOrigin, async (c) => {
    const ids = teacherIds(c);
    if (!ids) return notFound(c);
    return answer(c, await endTeacherSessions(c.var.context.db, c.env, actorOf(c), ids.schoolId, ids.teacherId));
  })
  .post("/:id/teachers/:teacherId/send-reset", requireAdmin, requireSameOrigin, async (c) => {
    const ids = teacherIds(c);
    if (!ids) return notFound(c);
    const { db, config } = c.var.context;
    const client = { ip: clientIp(c.req.raw), origin: new URL(c.req.url).origin };
    return answer(c, await sendTeacherReset(db, config, actorOf(c), ids.schoolId, ids.teacherId, client));
  })
  .delete("/:id/teachers/:teacherId", requireAdmin, requireSameOrigin, async (c) => {
    const ids = teacherIds(c);
    if (!ids) return notFound(c);
    return answer(c, await deleteTeacher(c.var.context.db, c.env, actorOf(c), ids.schoolId, ids.teacherId));
  });

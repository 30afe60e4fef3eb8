/**
 * The API's one guard per role. Each reads what the request context already resolved and checked
 * (workers/http/request-context.ts); none looks a session up again. React Router's pages have the
 * same three in app/lib/guards/, answering with redirects instead of 401.
 */
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { adminActor } from "../admins/audit.ts";
import type { AdminSession, TeacherCookieRef, TeacherSession } from "../auth/sessions.ts";
import { signedOut } from "../auth/signed-out.ts";
import type { School } from "../db/schema.ts";
import type { AppEnv, RequestContext } from "../kernel/context.ts";
import { findSchoolBySlug } from "../schools/lookup.ts";
import { failureBody } from "./failure-status.ts";

export type TeacherApiEnv = AppEnv & { Variables: { teacher: TeacherSession } };
export type AdminApiEnv = AppEnv & { Variables: { admin: AdminSession } };
export type ReaderApiEnv = AppEnv & { Variables: { reader: Reader } };
export type SchoolApiEnv = AppEnv & { Variables: { school: School } };

/**
 * Who may read a book: an admin (every book), or a teacher (their school's books); on a page view,
 * a teacher cookie whose session the page route checks in the school's object (`viewer`).
 */
export type Reader =
  | { kind: "admin"; admin: AdminSession }
  | { kind: "teacher"; teacher: TeacherSession }
  | { kind: "viewer"; viewer: TeacherCookieRef };

const NO_STORE = "private, no-store";

/**
 * The answer to a request with no signed-in teacher: 404 for a teacher of another school (like a
 * school that does not exist), else 401, saying when an admin disabled the teacher (`disabled`).
 */
function noTeacher(c: { json: (body: object, status: 401 | 404) => Response }, context: RequestContext) {
  if (context.teacherOfOtherSchool) return c.json({ error: "School not found" }, 404);
  return c.json(failureBody(signedOut(context.teacherDisabled ? "disabled" : "none")), 401);
}

/** A signed-in teacher of the school the request names (or of their own school where it names none), else `noTeacher`. */
const teacherGuard = createMiddleware<TeacherApiEnv>(async (c, next) => {
  const { teacher } = c.var.context;
  if (!teacher) return noTeacher(c, c.var.context);
  c.set("teacher", teacher);
  c.header("Cache-Control", NO_STORE);
  await next();
});

/**
 * A signed-in admin (a teacher's session is not one), else 401; with `superadmin`, a plain admin
 * is refused with a 403.
 */
const adminGuardFor = (superadmin: boolean) =>
  createMiddleware<AdminApiEnv>(async (c, next) => {
    const { admin } = c.var.context;
    if (!admin) return c.json({ error: "Admin sign-in required" }, 401);
    if (superadmin && admin.admin.role !== "superadmin") return c.json({ error: "Superadmin access required" }, 403);
    c.set("admin", admin);
    c.header("Cache-Control", NO_STORE);
    await next();
  });

const adminGuard = adminGuardFor(false);
const superadminGuard = adminGuardFor(true);

/** An admin, or else a teacher (whose school decides which books exist), else `noTeacher`. A viewer is checked by the route. */
const readerGuard = createMiddleware<ReaderApiEnv>(async (c, next) => {
  const { admin, teacher, pageViewer } = c.var.context;
  // Refusals too: a page view's 401 reads the same with a made-up cookie as without one (docs/decisions/0036).
  c.header("Cache-Control", NO_STORE);
  if (admin) c.set("reader", { kind: "admin", admin });
  else if (teacher) c.set("reader", { kind: "teacher", teacher });
  else if (pageViewer) c.set("reader", { kind: "viewer", viewer: pageViewer });
  else return noTeacher(c, c.var.context);
  await next();
});

/**
 * The API's one guard, by role: "teacher" (a signed-in teacher of the school the request names),
 * "admin" (an admin or superadmin), "superadmin", or "reader" (who may read a book: an admin, a
 * teacher, or a page viewer the route checks). Each sets its session on `c.var` for the handler.
 */
export function requireRole(role: "teacher"): MiddlewareHandler<TeacherApiEnv>;
export function requireRole(role: "admin" | "superadmin"): MiddlewareHandler<AdminApiEnv>;
export function requireRole(role: "reader"): MiddlewareHandler<ReaderApiEnv>;
export function requireRole(role: "teacher" | "admin" | "superadmin" | "reader"): MiddlewareHandler {
  return { teacher: teacherGuard, admin: adminGuard, superadmin: superadminGuard, reader: readerGuard }[role] as MiddlewareHandler;
}

/**
 * The school a teacher account call names in its JSON body (send-otp, register, login, reset on the
 * bare domain): on a school's host it must be that school, whatever the body says; the admin host
 * and invalid hosts name none. Null when there is no such school.
 */
export async function schoolNamedByBody(context: AppEnv["Variables"]["context"], slug: string): Promise<School | null> {
  const { host, school } = context.tenant;
  if (host.kind === "admin" || host.kind === "invalid") return null;
  if (host.kind === "school") return host.slug === slug ? school : null;
  if (context.teacher?.school.slug === slug) return context.teacher.school;
  return findSchoolBySlug(context.db, slug);
}

/** The actor the audit log records for an admin request. Use after requireRole("admin"). */
export function actorOf(c: { var: { admin: AdminSession } }) {
  return adminActor(c.var.admin);
}

import { redirect } from "react-router";
import type { AdminSession } from "../../../workers/auth/sessions.ts";
import { requireAdmin } from "./admin.server.ts";
import { requireTeacher, type SignedInTeacher } from "./teacher.server.ts";

type TeacherArgs = Parameters<typeof requireTeacher>[0];
type AdminArgs = Parameters<typeof requireAdmin>[0];

/**
 * The pages' one guard, by role (the API's is workers/http/guards.ts, requireRole): a teacher
 * signed in to the school the page is about, else a redirect to its login page; an admin (or a
 * superadmin), else the admin login; a superadmin, else the superadmin login. Each reads what the
 * request context already checked.
 */
export function requireRole(role: "teacher", args: TeacherArgs): SignedInTeacher;
export function requireRole(role: "admin" | "superadmin", args: AdminArgs): AdminSession;
export function requireRole(role: "teacher" | "admin" | "superadmin", args: TeacherArgs | AdminArgs): SignedInTeacher | AdminSession {
  if (role === "teacher") return requireTeacher(args as TeacherArgs);
  const session = requireAdmin(args);
  if (role === "superadmin" && session.admin.role !== "superadmin") throw redirect("/superadmin/login");
  return session;
}

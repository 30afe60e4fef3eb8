import { createContext, redirect } from "react-router";
import { getTeacherSession } from "../../../workers/auth/sessions.ts";
import { getDb } from "../../../workers/db/client.ts";
import { appContext } from "../../../workers/http/context.ts";
import type { PublicSchool } from "../../../workers/schools/public-school.ts";
import { redirectTarget } from "../redirect-target.ts";
import { requireSchool } from "./tenant.server.ts";

export interface SignedInTeacher {
  teacher: { id: number; name: string; email: string };
  school: PublicSchool & { id: number };
  basePath: string;
}

/** Set by the school layout's middleware for every page under it: one session lookup per request. */
export const teacherContext = createContext<SignedInTeacher>();

type Args = Parameters<typeof requireSchool>[0] & { request: Request };

/**
 * The teacher signed in to this school, or a redirect to the school's login page. A teacher of
 * another school is not signed in here, whatever their cookie says.
 */
export async function requireTeacher(args: Args): Promise<SignedInTeacher> {
  const { school, basePath } = requireSchool(args);
  const session = await tenantTeacherSession(args);
  if (!session) {
    const url = new URL(args.request.url);
    const back = url.pathname.replace(/\.data$/, "");
    throw redirect(`${basePath || "/"}?redirectTo=${encodeURIComponent(back)}`);
  }
  return { teacher: session.teacher, school: { ...school, id: session.school.id }, basePath };
}

/**
 * Where the login page sends a teacher once signed in: back to the page that sent them here
 * (`?redirectTo=`), but only ever a page of this school, else the dashboard.
 */
export function loginTarget(request: Request, basePath: string): string {
  return redirectTarget(new URL(request.url).searchParams.get("redirectTo"), basePath, `${basePath}/dashboard`);
}

/** A teacher already signed in to this school skips the login page. */
export async function redirectIfSignedIn(args: Args): Promise<void> {
  const { tenant } = args.context.get(appContext);
  if (await tenantTeacherSession(args)) throw redirect(loginTarget(args.request, tenant.basePath));
}

/**
 * The request's teacher session if it is one of this school's teachers, else null. The Worker read
 * it with the school (`tenant.teacherSession`); only its expiry is left to check here.
 */
async function tenantTeacherSession(args: Args) {
  const { env, tenant } = args.context.get(appContext);
  if (!tenant.school) return null;
  const session = await getTeacherSession(getDb(env.DB), args.request, Date.now(), tenant.teacherSession);
  return session && session.school.id === tenant.school.id ? session : null;
}

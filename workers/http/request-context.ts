import { findSchoolById, getAdminSession, readTeacherCookie, readTeacherCookieRef } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { readConfig } from "../kernel/config.ts";
import type { HostTenant, RequestContext } from "../kernel/context.ts";
import { findSchoolBySlug } from "../schools/lookup.ts";
import { apiPathSlug, isApiPath, resolveHost, schoolBasePath, slugFromPath } from "./tenancy.ts";

/**
 * The slug a request names: the school's own host, else a school page's path (`/{slug}`,
 * `/schools/{slug}/...`) or the API's `/api/schools/slug/{slug}/...`. Requests whose JSON body
 * names the school (the teacher account calls) are bound by `schoolNamedByBody` in workers/http/guards.ts.
 */
export function tenantSlug(host: HostTenant, pathname: string): string | null {
  if (host.kind === "school") return host.slug;
  if (host.kind !== "main") return null;
  if (isApiPath(pathname)) return apiPathSlug(pathname);
  return slugFromPath(pathname);
}

/** An API path naming another school than the school's own host: no school at all. */
function namesOtherSchool(host: HostTenant, pathname: string): boolean {
  if (host.kind !== "school") return false;
  const named = apiPathSlug(pathname);
  return named !== null && named !== host.slug;
}

/**
 * Resolves, once, what every later step reads: host, tenant, the teacher and admin sessions
 * (validated here: expiry, and the teacher's school against the tenant's) and the database.
 * A signed-in teacher's school page costs one D1 read (the tenant's school, by slug) and one call
 * to the school's object (the session), made at the same time.
 */
/**
 * A teacher's page view: a page image or its text (the paths the reader asks for on every page turn).
 * Its session is checked by the school's object, not here: every answer of such a view leaves
 * through workers/reading/page-view-gate.ts, which checks it first when the view did not.
 */
const PAGE_VIEW_PATH = /^\/api\/books\/[^/]+\/pages\/[^/]+(?:\/text)?$/;

export async function resolveRequestContext(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  nonce: string | null,
  now = Date.now(),
  /** The host as the pipeline resolved it (once per request). */
  resolved?: HostTenant,
): Promise<RequestContext> {
  const url = new URL(request.url);
  const config = readConfig(env as unknown as Record<string, unknown>);
  const db = getDb(env.DB);
  const host = resolved ?? resolveHost(url.hostname, config.appDomain);
  const slug = tenantSlug(host, url.pathname);
  const tenant = (school: RequestContext["tenant"]["school"]) => ({ host, slug, school, basePath: slug ? schoolBasePath(host, slug) : "" });
  // Admins work on the main and admin hosts only: a school's host never carries an admin.
  const adminSession = () => (host.kind === "main" || host.kind === "admin" ? getAdminSession(db, request, now) : Promise.resolve(null));
  if (request.method === "GET" && PAGE_VIEW_PATH.test(url.pathname)) {
    // The hot path: no D1 read for the session or the tenant; the page route checks both.
    const [admin, pageViewer] = await Promise.all([adminSession(), readTeacherCookieRef(db, request)]);
    const base = { env, ctx, config, db, tenant: tenant(null), teacherOfOtherSchool: false, teacherDisabled: false, nonce };
    return { ...base, teacher: null, pageViewer: admin ? null : pageViewer, admin };
  }
  // The tenant's school and the cookie's session (checked by its school's object) at once.
  const tenantSchool = !slug || namesOtherSchool(host, url.pathname) ? Promise.resolve(null) : findSchoolBySlug(db, slug);
  const sameSchool = async (id: number) => {
    const school = await tenantSchool;
    return school?.id === id ? school : findSchoolById(db, id);
  };
  const [{ session, disabledSchoolId }, school] = await Promise.all([readTeacherCookie(db, env, request, now, sameSchool), tenantSchool]);
  const teacher = session && (!slug || session.school.id === school?.id) ? session : null;
  const admin = await adminSession();
  return {
    env,
    ctx,
    config,
    db,
    tenant: tenant(school),
    teacher,
    pageViewer: null,
    teacherOfOtherSchool: Boolean(session && !teacher),
    teacherDisabled: disabledSchoolId !== null && (!slug || disabledSchoolId === school?.id),
    admin,
    nonce,
  };
}

/**
 * The context of a page whose own context could not be resolved because a part of the platform
 * failed (`unavailable`, kernel/platform-failure.ts): nobody signed in, no school looked up. The
 * root's middleware answers it with the 503 page before any loader or guard runs, so no page ever
 * treats the teacher as signed out (docs/decisions/0047).
 */
export function unavailableContext(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  nonce: string | null,
  host: HostTenant,
  unavailable: RequestContext["unavailable"],
): RequestContext {
  const config = readConfig(env as unknown as Record<string, unknown>);
  const slug = tenantSlug(host, new URL(request.url).pathname);
  const tenant = { host, slug, school: null, basePath: slug ? schoolBasePath(host, slug) : "" };
  const signedOut = { teacher: null, pageViewer: null, teacherOfOtherSchool: false, teacherDisabled: false, admin: null };
  return { env, ctx, config, db: getDb(env.DB), tenant, ...signedOut, nonce, unavailable };
}

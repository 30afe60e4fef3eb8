import { createContext } from "react-router";
import type { AdminSession, TeacherCookieRef, TeacherSession } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import type { School } from "../db/schema.ts";
import type { AppConfig } from "./config.ts";
import type { Failure } from "./failure.ts";

/** The school a request is about, by its host or its path. */
export interface RequestTenant {
  host: HostTenant;
  /** The slug named by the host or the path, whether or not such a school exists. */
  slug: string | null;
  /** That school; null when the request names none or no school has the slug. */
  school: School | null;
  /** Prefix for links inside the school's pages: '' on its subdomain, `/schools/{slug}` otherwise. */
  basePath: string;
}

/**
 * Everything the request pipeline resolves once per request (workers/http/request-context.ts),
 * read by the API as `c.var.context` and by React Router's loaders, actions and middlewares as
 * `context.get(appContext)`.
 */
export interface RequestContext {
  env: Env;
  ctx: ExecutionContext;
  config: AppConfig;
  db: Db;
  tenant: RequestTenant;
  /**
   * The signed-in teacher, checked: the session is live and, when the request names a school,
   * the teacher is one of that school's. Null otherwise.
   */
  teacher: TeacherSession | null;
  /** A live teacher session of another school than the one the request names (null when none). */
  teacherOfOtherSchool: boolean;
  /**
   * The request's teacher cookie is the session of a teacher an admin has disabled (of the school
   * the request names, if it names one): no one is signed in, and the pages say why.
   */
  teacherDisabled: boolean;
  /**
   * On a page view (a page image or text, the hot path): the teacher cookie's session, not yet
   * checked. The page route checks it in the school's object in the same call that spends the
   * page (docs/decisions/0024); `teacher` is then null and the tenant's school is not looked up.
   */
  pageViewer: TeacherCookieRef | null;
  /** The signed-in admin or superadmin, checked (live, not disabled); never on a school's host. */
  admin: AdminSession | null;
  /** The CSP nonce of this page's inline scripts; null for API answers and in development. */
  nonce: string | null;
  /**
   * A part of the platform (D1, R2, a school's object) failed while this page was being answered
   * (kernel/platform-failure.ts): set by the pipeline when the context itself could not be resolved,
   * or by React Router's handleError (app/entry.server.tsx) when a loader or action hit it. The
   * root's middleware answers it as a 503 (docs/decisions/0047).
   */
  unavailable?: Failure;
}

export const appContext = createContext<RequestContext>();

/** The Hono environment of every API route. */
export type AppEnv = { Bindings: Env; Variables: { context: RequestContext } };

export type HostTenant =
  | { kind: "main" }
  | { kind: "admin" }
  | { kind: "school"; slug: string }
  /** A subdomain that can never be a school (reserved word, bad label, nested subdomain). */
  | { kind: "invalid" };

/** The client's address as Cloudflare reports it; one bucket for all local requests. */
export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "local";
}

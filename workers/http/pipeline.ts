import { RouterContextProvider } from "react-router";
import { api } from "../api/index.ts";
import { findSchoolWithTeacherSession, readSessionToken } from "../auth/sessions.ts";
import { sha256Hex } from "../auth/tokens.ts";
import { type Db, getDb } from "../db/client.ts";
import { findSchoolBySlug } from "../schools/lookup.ts";
import { readConfig } from "./config.ts";
import { appContext, type RequestTenant } from "./context.ts";
import { createNonce, withSecurityHeaders } from "./security-headers.ts";
import { type HostTenant, pagePath, resolveHost, schoolBasePath, slugFromPath } from "./tenancy.ts";

export type PageRenderer = (request: Request, context: RouterContextProvider) => Promise<Response>;

const ADMIN_HOST_PASSTHROUGH = /^\/(admin|superadmin|api|assets|__manifest)(\/|$)/;

/**
 * The Worker's request pipeline: API to Hono, everything else to React Router with the tenant
 * resolved, and security headers on every answer. `renderPage` is injected so tests can run the
 * pipeline without a React Router build.
 */
export function createAppHandler(renderPage: PageRenderer, options: { dev: boolean }) {
  return async function handle(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    const https = url.protocol === "https:";
    const config = readConfig(env as unknown as Record<string, unknown>);
    const host = resolveHost(url.hostname, config.appDomain);

    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      const response = await api.fetch(request, env, ctx);
      return withSecurityHeaders(response, { nonce: null, strict: true, https });
    }

    // admin.{domain} is the admin area: anything outside it lands there.
    // React Router's data requests (/admin.data) name the same page as their path without ".data".
    if (host.kind === "admin" && !ADMIN_HOST_PASSTHROUGH.test(pagePath(url.pathname))) {
      const target = new URL(`/admin${url.pathname === "/" ? "" : url.pathname}${url.search}`, url);
      return withSecurityHeaders(Response.redirect(target.toString(), 302), { nonce: null, strict: true, https });
    }

    const nonce = options.dev ? null : createNonce();
    const tenant = await resolveRequestTenant(getDb(env.DB), host, url.pathname, request);
    const context = new RouterContextProvider();
    context.set(appContext, { env, ctx, config, tenant, nonce });
    const response = await renderPage(request, context);
    return withSecurityHeaders(response, { nonce, strict: !options.dev, https });
  };
}

/**
 * The school the page is about, by host or path. With a teacher cookie, the session is read in
 * the same statement and handed on unchecked; the school layout's middleware checks it.
 */
export async function resolveRequestTenant(db: Db, host: HostTenant, pathname: string, request?: Request): Promise<RequestTenant> {
  const slug = host.kind === "school" ? host.slug : host.kind === "main" ? slugFromPath(pathname) : null;
  if (!slug) return { host, slug, school: null, basePath: "" };
  const basePath = schoolBasePath(host, slug);
  const token = request ? readSessionToken(request, "teacher") : null;
  if (!token) return { host, slug, school: await findSchoolBySlug(db, slug), basePath };
  const found = await findSchoolWithTeacherSession(db, slug, await sha256Hex(token));
  return { host, slug, school: found?.school ?? null, basePath, teacherSession: found?.teacherSession };
}

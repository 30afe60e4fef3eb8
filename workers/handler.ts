import { RouterContextProvider } from "react-router";
import { api } from "./api/index.ts";
import { readConfig } from "./config.ts";
import { appContext, type RequestTenant } from "./context.ts";
import { type Db, getDb } from "./db/client.ts";
import { findSchoolBySlug } from "./schools.ts";
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
    const tenant = await resolveRequestTenant(getDb(env.DB), host, url.pathname);
    const context = new RouterContextProvider();
    context.set(appContext, { env, ctx, config, tenant, nonce });
    const response = await renderPage(request, context);
    return withSecurityHeaders(response, { nonce, strict: !options.dev, https });
  };
}

export async function resolveRequestTenant(db: Db, host: HostTenant, pathname: string): Promise<RequestTenant> {
  const slug = host.kind === "school" ? host.slug : host.kind === "main" ? slugFromPath(pathname) : null;
  const school = slug ? await findSchoolBySlug(db, slug) : null;
  return { host, slug, school, basePath: slug ? schoolBasePath(host, slug) : "" };
}

import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { RouterContextProvider } from "react-router";
import { api } from "../api/index.ts";
import { readConfig } from "../kernel/config.ts";
import { type AppEnv, appContext, type HostTenant } from "../kernel/context.ts";
import type { Failure } from "../kernel/failure.ts";
import { log, withRequestId } from "../kernel/log.ts";
import { platformFailure } from "../kernel/platform-failure.ts";
import { requireUtf8Json } from "../kernel/validate.ts";
import { MANIFEST_PATHS, manifestResponse, SERVICE_WORKER_PATH, serviceWorkerResponse } from "./app-shell-files.ts";
import { failureBody, failureHeaders } from "./failure-status.ts";
import { resolveRequestContext, unavailableContext } from "./request-context.ts";
import { requireSameOrigin } from "./request-guards.ts";
import { createNonce, withSecurityHeaders } from "./security-headers.ts";
import { API_BASE, isApiPath, isServedHost, pagePath, resolveHost } from "./tenancy.ts";

export type PageRenderer = (request: Request, context: RouterContextProvider) => Promise<Response>;

type PipelineEnv = AppEnv & { Variables: { nonce: string | null; host: HostTenant } };

const ADMIN_HOST_PASSTHROUGH = new RegExp(`^/(admin|superadmin|${API_BASE.slice(1)}|assets|__manifest)(/|$)`);

/** Cloudflare's ray id (16 hex digits and the colo); anything else a client sent is not used. */
const RAY_ID = /^[0-9a-f]{16}(-[A-Z]{3})?$/;

function executionContextOf(c: { readonly executionCtx: unknown }): ExecutionContext {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    // Tests may call fetch without one; nothing here needs waitUntil to succeed.
    return { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  }
}

/**
 * The Worker's one request pipeline (docs/decisions/0014):
 *   1. security headers on every answer (a CSP nonce per page);
 *   2. a host that is not ours is refused (400); the admin host keeps to the admin area;
 *   3. a state-changing request (an API call or a page's action) must come from our own origin;
 *   4. the request context, resolved once: host, tenant, teacher and admin sessions (checked), db;
 *   5. /api to the Hono routes, reading it as `c.var.context`;
 *   6. every other path to React Router, reading it as `context.get(appContext)`.
 * `renderPage` is React Router's request handler; tests may pass their own.
 */
export function createApp(renderPage: PageRenderer, options: { dev: boolean }) {
  const app = new Hono<PipelineEnv>();

  // A request id on every request and every log line of it (log.ts): Cloudflare's ray id where
  // there is one, answered as X-Request-Id so a teacher's report of an error can be matched.
  app.use(async (c, next) => {
    const ray = c.req.header("cf-ray");
    const requestId = ray && RAY_ID.test(ray) ? ray : crypto.randomUUID();
    await withRequestId(requestId, next);
    try {
      c.res.headers.set("X-Request-Id", requestId);
    } catch {
      // A response whose headers are immutable (one passed through from a fetch): copied.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("X-Request-Id", requestId);
    }
  });

  app.use(async (c, next) => {
    const page = !isApiPath(c.req.path);
    const nonce = page && !options.dev ? createNonce() : null;
    c.set("nonce", nonce);
    await next();
    c.res = withSecurityHeaders(c.res, { nonce, strict: !page || !options.dev, https: new URL(c.req.url).protocol === "https:" });
  });

  // Only our own hosts are served: a Host someone else chose never reaches a route that builds an
  // address from the request (an e-mail's link, a sign-in's way back; docs/decisions/0029).
  // admin.{domain} is the admin area: anything outside it lands there. React Router's data
  // requests (/admin.data) name the same page as their path without ".data".
  app.use(async (c, next) => {
    const url = new URL(c.req.url);
    const { appDomain } = readConfig(c.env as unknown as Record<string, unknown>);
    if (!isServedHost(url.hostname, appDomain)) {
      const error = `This site does not answer at this address. Use ${appDomain} or a school's address under it.`;
      return isApiPath(url.pathname) ? c.json({ error }, 400) : c.text(error, 400);
    }
    const host = resolveHost(url.hostname, appDomain);
    c.set("host", host);
    if (host.kind === "admin" && !ADMIN_HOST_PASSTHROUGH.test(pagePath(url.pathname))) {
      return c.redirect(new URL(`/admin${url.pathname === "/" ? "" : url.pathname}${url.search}`, url).toString(), 302);
    }
    await next();
  });

  // The service worker's script: asked for on every school page load, so before any session or
  // school is looked up (no D1, no school object; docs/decisions/0049).
  app.get(SERVICE_WORKER_PATH, () => serviceWorkerResponse());

  // Every state change, an API call or a page's action, must come from our own origin: one check
  // for both, before any route and before a session is looked up.
  app.use(requireSameOrigin);

  // A JSON body whose bytes are not UTF-8 is refused before any route reads it (never stored as U+FFFD).
  app.use(`${API_BASE}/*`, requireUtf8Json);

  app.use(async (c, next) => {
    const ctx = executionContextOf(c);
    try {
      c.set("context", await resolveRequestContext(c.req.raw, c.env, ctx, c.var.nonce, Date.now(), c.var.host));
    } catch (error) {
      // A page whose context needs a part that is away (D1 for the school or the session, the
      // school's object) still answers as a page: React Router's root answers the 503 (app/root.tsx).
      const unavailable = platformFailure(error);
      if (!unavailable || isApiPath(c.req.path)) throw error;
      log.warn("A part of the platform is unavailable", { path: c.req.path, error });
      c.set("context", unavailableContext(c.req.raw, c.env, ctx, c.var.nonce, c.var.host, unavailable));
    }
    await next();
  });

  for (const path of MANIFEST_PATHS) app.get(path, (c) => manifestResponse(c.var.context.tenant, c.req.param("slug")));
  app.route("/", api);
  app.all(`${API_BASE}/*`, (c) => c.json({ error: "Not found" }, 404));
  app.all(API_BASE, (c) => c.json({ error: "Not found" }, 404));

  app.all("*", async (c) => {
    const context = new RouterContextProvider();
    context.set(appContext, c.var.context);
    const response = withRetryAfter(await renderPage(c.req.raw, context), c.var.context.unavailable);
    // A signed-in page (and its .data answer) is one person's: never kept by a shared computer's
    // cache or one in between, so Back after signing out cannot show it to the next teacher.
    const { teacher, admin } = c.var.context;
    if (!teacher && !admin) return response;
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "private, no-store");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  });

  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      return isApiPath(c.req.path) ? c.json({ error: error.message || "Request failed" }, error.status) : error.getResponse();
    }
    // Two writes racing for the same unique value: the loser is told so, never a 500.
    if (isUniqueViolation(error)) {
      const message = "That already exists: someone saved the same thing a moment ago. Reload to see it.";
      return isApiPath(c.req.path) ? c.json({ error: message }, 409) : c.text(message, 409);
    }
    // A part of the platform away (D1, R2, a school's object): 503, with when to try again (decision 0047).
    const unavailable = platformFailure(error);
    if (unavailable) {
      log.warn("A part of the platform is unavailable", { method: c.req.method, path: c.req.path, error });
      const headers = { ...failureHeaders(unavailable), "Cache-Control": "private, no-store" };
      return isApiPath(c.req.path) ? c.json(failureBody(unavailable), 503, headers) : c.text(unavailable.error, 503, headers);
    }
    log.error("Request failed", { method: c.req.method, path: c.req.path, error });
    if (isApiPath(c.req.path)) return c.json({ error: "Something went wrong on our side. Please try again." }, 500);
    return c.text("Something went wrong on our side. Please try again.", 500);
  });

  return app;
}

/** A page answered 503 because a part was away (app/root.tsx) says when to come back, as the API's 503 does. */
function withRetryAfter(response: Response, unavailable: Failure | undefined): Response {
  if (response.status !== 503 || !unavailable || response.headers.has("Retry-After")) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(failureHeaders(unavailable))) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** D1's UNIQUE constraint error, wherever drizzle wrapped it. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String(e).includes("UNIQUE constraint failed")) return true;
  }
  return false;
}

/**
 * Sign-in with the school's Google or Microsoft accounts (docs/decisions/0029):
 *   GET /api/auth/oidc/{google|microsoft}/start?school={slug}   302 to the provider (PKCE S256, state, nonce)
 *   GET /api/auth/oidc/{google|microsoft}/callback              the provider's answer, on the deployment's own host
 *   GET /api/auth/oidc/complete?ticket=                          back on the teacher's host: the session
 * A refusal sends the teacher back to the school's login page with `?signInError={reason}`, where
 * the page says why; an answer that names no sign-in under way is 400.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { sessionCookie } from "../auth/sessions.ts";
import { schoolBasePath } from "../http/tenancy.ts";
import type { AppEnv } from "../kernel/context.ts";
import { findSchoolBySlug } from "../schools/lookup.ts";
import { completeSignIn, finishSignIn, REFUSALS, type SignInRefusal, startSignIn } from "../sso/flow.ts";
import { type ProviderName, ProviderNameSchema, providerApps } from "../sso/providers.ts";
import { SIGN_IN_TTL_MS } from "../sso/sealed-state.ts";
import { SlugParamSchema } from "../validation/schemas.ts";

const STATE_COOKIE = "lectern_oidc";
const cookieName = (secure: boolean) => (secure ? `__Host-${STATE_COOKIE}` : STATE_COOKIE);

function stateCookie(request: Request, state: string | null): string {
  const secure = new URL(request.url).protocol === "https:";
  return [
    `${cookieName(secure)}=${state ?? ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${state ? SIGN_IN_TTL_MS / 1000 : 0}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

function readState(request: Request): string | null {
  const name = cookieName(new URL(request.url).protocol === "https:");
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || null;
  }
  return null;
}

/** The deployment's one registered callback: its own host (APP_DOMAIN), whatever host the teacher is on. */
function callbackUrl(c: Context<AppEnv>, provider: ProviderName): string {
  const url = new URL(c.req.url);
  const host = `${c.var.context.config.appDomain}${url.port ? `:${url.port}` : ""}`;
  return `${url.protocol}//${host}/api/auth/oidc/${provider}/callback`;
}

/**
 * Where a sign-in comes back to, the school's login page: on APP_DOMAIN (or its `www.`), or on the
 * school's own subdomain of it; the host is one of those names, built from APP_DOMAIN, never the
 * one a request names (a start sent with `Host: evil.test` would otherwise send the ticket there).
 * Not ok on any other host, which could not finish the sign-in: its state cookie would not reach
 * the address built here.
 */
function schoolReturnAddress(c: Context<AppEnv>, slug: string): { ok: boolean; url: string } {
  const url = new URL(c.req.url);
  const { config, tenant } = c.var.context;
  const ours = tenant.host.kind === "school" ? [`${tenant.host.slug}.${config.appDomain}`] : [config.appDomain, `www.${config.appDomain}`];
  const hostname = ours.find((name) => name === url.hostname);
  const origin = `${url.protocol}//${hostname ?? ours[0]}${url.port ? `:${url.port}` : ""}`;
  return { ok: hostname !== undefined, url: `${origin}${schoolBasePath(tenant.host, slug)}` };
}

/** The school's login page with the reason a sign-in was refused. */
function backToLogin(returnTo: string, reason: SignInRefusal): string {
  if (reason === "limit") return `${returnTo}/limit-reached`;
  const url = new URL(returnTo);
  url.searchParams.set("signInError", reason);
  return url.toString();
}

const StartQuery = z.object({ school: SlugParamSchema });

export const ssoApi = new Hono<AppEnv>()
  .get("/:provider/start", async (c) => {
    const provider = ProviderNameSchema.safeParse(c.req.param("provider"));
    const query = StartQuery.safeParse({ school: c.req.query("school") });
    if (!provider.success) return c.json({ error: "Sign in with google or microsoft" }, 404);
    if (!query.success) return c.json({ error: "Say which school: ?school={slug}" }, 400);
    const { tenant, db } = c.var.context;
    // A school's own subdomain serves only that school; the admin host none.
    if (tenant.host.kind === "admin" || tenant.host.kind === "invalid") return c.json({ error: "School not found" }, 404);
    if (tenant.host.kind === "school" && tenant.host.slug !== query.data.school) return c.json({ error: "School not found" }, 404);
    const school = tenant.host.kind === "school" ? tenant.school : await findSchoolBySlug(db, query.data.school);
    if (!school) return c.json({ error: "School not found" }, 404);
    const returnTo = schoolReturnAddress(c, school.slug);
    if (!returnTo.ok) return c.json({ error: `Sign in from ${returnTo.url}: this address cannot finish a sign-in.` }, 400);
    const app = providerApps(c.env)[provider.data];
    if (!app) return c.redirect(backToLogin(returnTo.url, "off"), 302);
    const started = await startSignIn(db, app, c.var.context.config.authSecret, {
      school,
      returnTo: returnTo.url,
      redirectUri: callbackUrl(c, provider.data),
    });
    if (!started.ok) return c.redirect(backToLogin(returnTo.url, started.reason), 302);
    c.header("Set-Cookie", stateCookie(c.req.raw, started.stateId));
    c.header("Cache-Control", "no-store");
    return c.redirect(started.url, 302);
  })
  .get("/complete", async (c) => {
    const ticket = c.req.query("ticket") ?? "";
    const outcome = await completeSignIn(c.var.context.db, c.env, {
      ticket,
      origin: new URL(c.req.url).origin,
      cookieState: readState(c.req.raw),
      userAgent: c.req.header("User-Agent") ?? null,
    });
    c.header("Cache-Control", "no-store");
    if (!outcome.ok) {
      if (!outcome.returnTo) return c.json({ error: REFUSALS[outcome.reason] }, 400);
      c.header("Set-Cookie", stateCookie(c.req.raw, null));
      return c.redirect(backToLogin(outcome.returnTo, outcome.reason), 302);
    }
    c.header("Set-Cookie", stateCookie(c.req.raw, null));
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", outcome.token), { append: true });
    return c.redirect(outcome.next, 302);
  })
  .get("/:provider/callback", async (c) => {
    const provider = ProviderNameSchema.safeParse(c.req.param("provider"));
    if (!provider.success) return c.json({ error: "Sign in with google or microsoft" }, 404);
    const app = providerApps(c.env)[provider.data];
    if (!app) return c.json({ error: REFUSALS.off }, 404);
    const params = new URL(c.req.url).searchParams;
    const { db, config } = c.var.context;
    const outcome = await finishSignIn(db, app, config.authSecret, { params, redirectUri: callbackUrl(c, provider.data) });
    c.header("Cache-Control", "no-store");
    if (outcome.ok) return c.redirect(outcome.next, 302);
    if (!outcome.returnTo) return c.json({ error: REFUSALS[outcome.reason] }, 400);
    return c.redirect(backToLogin(outcome.returnTo, outcome.reason), 302);
  });

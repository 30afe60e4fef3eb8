import { isValidSlug } from "#shared/rules/slug.ts";
import type { HostTenant } from "../kernel/context.ts";

/**
 * Where the tenancy lives in a URL, defined once: app/routes.ts mounts the school pages under
 * `/{SCHOOLS}/:slug`, the API mounts its routes under API_BASE and a school's under
 * `{API_BASE}{API_SCHOOL_BY_SLUG}/:slug`, and the request context reads the school from the same.
 */
export const API_BASE = "/api";
export const SCHOOLS = "schools";
export const API_SCHOOL_BY_SLUG = `/${SCHOOLS}/slug` as const;

/** A path the API answers (JSON), not a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === API_BASE || pathname.startsWith(`${API_BASE}/`);
}

/** The school an API path names (`/api/schools/slug/{slug}/...`), or null. */
export function apiPathSlug(pathname: string): string | null {
  const prefix = `${API_BASE}${API_SCHOOL_BY_SLUG}/`;
  if (!pathname.startsWith(prefix)) return null;
  const segment = pathname.slice(prefix.length).split("/")[0];
  return segment ? safeDecode(segment).trim().toLowerCase() : null;
}

/**
 * Which part of the product a host name serves. `localhost` always counts as an app domain,
 * so `lincoln-high.localhost:8787` works locally without DNS.
 */
export function resolveHost(hostname: string, appDomain: string): HostTenant {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  for (const domain of new Set([appDomain.toLowerCase(), "localhost"])) {
    if (host === domain) return { kind: "main" };
    if (!host.endsWith(`.${domain}`)) continue;
    const label = host.slice(0, -(domain.length + 1));
    if (label === "www") return { kind: "main" };
    if (label === "admin") return { kind: "admin" };
    return isValidSlug(label) ? { kind: "school", slug: label } : { kind: "invalid" };
  }
  // Loopback addresses (local tools) serve the main site; the pipeline refuses any other host first (isServedHost).
  return { kind: "main" };
}

/** 127.0.0.0/8 and ::1: reached only from the machine itself. */
const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Whether this deployment answers on a host: APP_DOMAIN and its subdomains, localhost and its
 * subdomains (local development), and loopback addresses (the local tools and benches). Any other
 * Host a request names is refused before anything reads it, so no answer, e-mail link or sign-in
 * return address is ever built on a host someone else chose (docs/decisions/0029).
 */
export function isServedHost(hostname: string, appDomain: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (LOOPBACK.test(host)) return true;
  return [appDomain.toLowerCase(), "localhost"].some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * The page a path is for: React Router's client-side navigations fetch `/{page}.data`
 * (and `/_root.data` for `/`), which name the same page and so the same school.
 */
export function pagePath(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/** The school slug named by a path, `/schools/{slug}/...` or the short `/{slug}`. */
export function slugFromPath(pathname: string): string | null {
  const segments = pagePath(pathname).split("/").filter(Boolean);
  const [first, second] = segments;
  if (first === SCHOOLS) return second ? safeDecode(second).toLowerCase() : null;
  if (first && segments.length === 1) {
    const slug = safeDecode(first).toLowerCase();
    return isValidSlug(slug) ? slug : null;
  }
  return null;
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Where a school's pages live for the visitor: '' on its subdomain, `/schools/{slug}` on the main host. */
export function schoolBasePath(host: HostTenant, slug: string): string {
  return host.kind === "school" ? "" : `/${SCHOOLS}/${slug}`;
}

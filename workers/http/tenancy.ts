import { z } from "zod";

/**
 * Words that can never be a school slug: they are (or may become) top-level routes,
 * subdomains with another meaning, or names a school could use to impersonate the product.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "about",
  "account",
  "accounts",
  "admin",
  "administrator",
  "api",
  "app",
  "assets",
  "auth",
  "billing",
  "blog",
  "book",
  "books",
  "build",
  "cdn",
  "contact",
  "dashboard",
  "demo",
  "dev",
  "docs",
  "download",
  "downloads",
  "email",
  "files",
  "ftp",
  "health",
  "help",
  "home",
  "images",
  "img",
  "join",
  "lectern",
  "limit-reached",
  "login",
  "logout",
  "mail",
  "media",
  "new",
  "pdf",
  "pdf-viewer",
  "pricing",
  "privacy",
  "public",
  "register",
  "reset",
  "root",
  "school",
  "schools",
  "search",
  "security",
  "settings",
  "signin",
  "signout",
  "signup",
  "smtp",
  "staging",
  "static",
  "status",
  "superadmin",
  "support",
  "system",
  "teacher",
  "teachers",
  "terms",
  "test",
  "www",
]);

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A school slug: a valid DNS label (so it also works as a subdomain) that is not reserved. */
export const SlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "A slug needs at least 2 characters")
  .max(63, "A slug can have at most 63 characters")
  .regex(SLUG_PATTERN, "Use lower-case letters, digits and single hyphens, not at the start or end")
  .refine((s) => !s.includes("--"), "A slug cannot contain two hyphens in a row")
  .refine((s) => !RESERVED_SLUGS.has(s), "This slug is reserved");

export function isValidSlug(slug: string): boolean {
  return SlugSchema.safeParse(slug).success && slug === slug.toLowerCase();
}

export type HostTenant =
  | { kind: "main" }
  | { kind: "admin" }
  | { kind: "school"; slug: string }
  /** A subdomain that can never be a school (reserved word, bad label, nested subdomain). */
  | { kind: "invalid" };

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
  // Any other host (a workers.dev preview, a bare IP) serves the main site.
  return { kind: "main" };
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
  if (first === "schools") return second ? safeDecode(second).toLowerCase() : null;
  if (first && segments.length === 1) {
    const slug = safeDecode(first).toLowerCase();
    return isValidSlug(slug) ? slug : null;
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Where a school's pages live for the visitor: '' on its subdomain, `/schools/{slug}` on the main host. */
export function schoolBasePath(host: HostTenant, slug: string): string {
  return host.kind === "school" ? "" : `/schools/${slug}`;
}

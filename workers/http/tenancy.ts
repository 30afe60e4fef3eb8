import { isValidSlug } from "../schools/slug.ts";

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

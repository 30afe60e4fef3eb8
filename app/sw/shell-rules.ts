/**
 * What the offline shell keeps and what it never keeps (docs/decisions/0049), as plain functions
 * of a URL: the service worker (app/sw/service-worker.ts) and the page (app/lib/offline/app-shell.ts)
 * both ask them, so a rule is written once.
 */

/** A message a page sends the worker, and its answer. */
export type ShellMessage = { type: "keep-page"; url: string };
export type ShellReply = { ok: true } | { ok: false; error: string };

/** Every cache the shell owns starts with this, so forgetting the shell is one sweep. */
export const SHELL_CACHE_PREFIX = "lectern-shell-";
/** The HTML of the school pages a signed-in teacher opened (or kept). */
export const PAGES_CACHE = `${SHELL_CACHE_PREFIX}pages`;
/** The build's hashed files, one cache per build so an update drops the last build's files. */
export const assetsCacheName = (version: string) => `${SHELL_CACHE_PREFIX}assets-${version}`;

/** How long a navigation waits for the network before the kept copy is shown instead. */
export const NAVIGATION_TIMEOUT_MS = 4000;

/** The pages a school's teacher may open offline, after the school's base path (`/schools/{slug}` or the subdomain's ""). */
const SHELL_PAGES = [/^\/dashboard$/, /^\/dashboard\/book\/\d+$/, /^\/dashboard\/book\/\d+\/view$/, /^\/books$/, /^\/books\/\d+$/];

/** A slug as app/routes.ts mounts it: lower-case letters, digits and hyphens. */
const SCHOOL_PREFIX = /^\/schools\/[a-z0-9][a-z0-9-]*(?=\/)/;

/**
 * Where a school's offline page lives: `{base}/offline`. The base is the school's path on the main
 * host, or nothing on the school's own subdomain.
 */
export const OFFLINE_PAGE = "/offline";

/** The school's base path of a page path, and the rest: `/schools/x/dashboard` -> ["/schools/x", "/dashboard"]. */
export function splitSchoolPath(pathname: string): { base: string; rest: string } {
  const base = SCHOOL_PREFIX.exec(pathname)?.[0] ?? "";
  return { base, rest: pathname.slice(base.length) };
}

/**
 * Whether a page (a navigation's URL) is one the shell keeps: the dashboard, the library, a
 * book's page and its reader. Never the admin's or the superadmin's pages, the sign-in page, the
 * teacher's account (their devices and sessions) nor the coordinator's "My school".
 */
export function isShellPage(url: URL, origin: string): boolean {
  if (url.origin !== origin) return false;
  const { rest } = splitSchoolPath(url.pathname);
  return SHELL_PAGES.some((page) => page.test(rest)) || rest === OFFLINE_PAGE;
}

/** The offline page of the school a path belongs to. */
export function offlinePageOf(url: URL): string {
  return `${url.origin}${splitSchoolPath(url.pathname).base}${OFFLINE_PAGE}`;
}

/** The build's hashed files (`/assets/name-hash.ext`): the same URL is always the same bytes. */
export function isVersionedAsset(url: URL, origin: string): boolean {
  return url.origin === origin && /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(url.pathname);
}

/**
 * Requests the shell never answers from a cache nor stores: the API (page images are `no-store`,
 * and a kept book's pages live in the encrypted store, not here), the admin areas, anything not a GET.
 */
export function isNeverCached(url: URL, method: string): boolean {
  if (method !== "GET") return true;
  const path = url.pathname;
  return /^\/(api|admin|superadmin)(\/|$)/.test(path) || /^admin\./.test(url.hostname);
}

/**
 * What the worker does with a request: "pass" leaves it to the browser, untouched and never
 * stored; "page-data" is a page's data for a navigation inside the app (`{page}.data`), never
 * stored either, but turned into a full page load when there is no connection.
 */
export type ShellRoute = "shell-page" | "other-page" | "page-data" | "asset" | "pass";

export function routeOf(request: Pick<Request, "url" | "method" | "mode">, origin: string): ShellRoute {
  const url = new URL(request.url);
  if (url.origin !== origin || isNeverCached(url, request.method)) return "pass";
  if (request.mode === "navigate") return isShellPage(url, origin) ? "shell-page" : "other-page";
  if (url.pathname.endsWith(".data")) return "page-data";
  // React Router's route list for the links on a page: the same build version and paths are the same answer.
  if (url.pathname === "/__manifest" && url.searchParams.has("version")) return "asset";
  return isVersionedAsset(url, origin) ? "asset" : "pass";
}

/** The page a `{page}.data` request is for (`/_root.data` is `/`), without React Router's own parameters. */
export function pageOfData(url: URL): string {
  const path = url.pathname === "/_root.data" ? "/" : url.pathname.slice(0, -".data".length);
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.toString();
  return `${path}${query ? `?${query}` : ""}`;
}

/** A page answer worth keeping: the page itself, as the server sent it (not a redirect, not an error). */
export function isKeepableAnswer(response: Response): boolean {
  // "basic": our own origin's answer as fetched ("default": one built in code); never an opaque or
  // redirect answer, whose page is not the one asked for.
  const own = response.type === "basic" || response.type === "default";
  return own && response.status === 200 && !response.redirected && (response.headers.get("Content-Type") ?? "").startsWith("text/html");
}

/** The build's files a page's HTML names (scripts, preloads, styles): what it needs to open offline. */
export function assetPathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/["'(]\s*(\/assets\/[^"'()\s?#]+)/g)) if (match[1]) found.add(match[1]);
  return [...found];
}

/**
 * The build files a script chunk imports, statically or with import() (the build names its
 * siblings "./name.js", in backquotes inside import()): a page's lazy parts (the offline list, the toolbar's "Keep for offline",
 * the sign-out's clean-up) load after it shows, so the page's HTML does not name them, and offline
 * they must come from the shell's cache like the rest.
 */
export function chunkImportsIn(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/["'`]\.\/([\w.-]+\.(?:js|css))["'`]/g)) if (match[1]) found.add(`/assets/${match[1]}`);
  return [...found];
}

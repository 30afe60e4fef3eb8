import { forgetShellCaches, keepPage, storePage } from "./shell-cache.ts";
import {
  assetsCacheName,
  NAVIGATION_TIMEOUT_MS,
  offlinePageOf,
  PAGES_CACHE,
  pageOfData,
  routeOf,
  SHELL_CACHE_PREFIX,
  type ShellMessage,
  type ShellReply,
} from "./shell-rules.ts";

/**
 * Lectern's service worker (docs/decisions/0049), built by vite/service-worker.ts into one script
 * the Worker serves at /sw.js. School pages: network first, the kept copy after a short wait;
 * the build's hashed files: cache first; nothing else is touched (the API, page images, admin).
 */

declare const self: ServiceWorkerGlobalScope;
/** The build this worker belongs to (vite/service-worker.ts): a new build is a new worker. */
declare const SHELL_VERSION: string;

const ASSETS_CACHE = assetsCacheName(SHELL_VERSION);

/** The Static Routing API's install step (Chromium): requests it names go to the network without this worker. */
type RoutingInstallEvent = ExtendableEvent & {
  addRoutes?(rules: { condition: { urlPattern: URLPatternInit }; source: "network" }[]): Promise<void>;
};

self.addEventListener("install", (event: RoutingInstallEvent) => {
  // Nothing to fetch first: the next page the teacher opens is kept as it comes.
  void self.skipWaiting();
  // The API never reaches this worker (routeOf passes it anyway): a request a closing page sends
  // with keepalive, the reader giving its seat back on pagehide (app/lib/reader/reader-api.ts), was
  // now and then lost on its way through the worker, and the seat stayed taken for SEAT_HOLD_MS.
  // Page images skip the worker's start-up too. A browser without the API goes through the worker as before.
  if (event.addRoutes)
    event.waitUntil(event.addRoutes([{ condition: { urlPattern: { pathname: "/api/*" } }, source: "network" }]).catch(() => {}));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await self.clients.claim();
      await refreshKeptPages();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const route = routeOf(request, self.location.origin);
  if (route === "shell-page") event.respondWith(navigate(event, new URL(request.url)));
  else if (route === "other-page") event.respondWith(navigateUncached(request, new URL(request.url)));
  else if (route === "page-data") event.respondWith(pageData(request, new URL(request.url)));
  else if (route === "asset") event.respondWith(cacheFirst(request).catch(() => reloadInstead(request)));
  // "pass": the API, page images, the admin's pages, other origins: the browser fetches them as if there were no worker.
});

self.addEventListener("message", (event) => {
  const message = event.data as ShellMessage | undefined;
  const port = event.ports[0];
  if (message?.type !== "keep-page" || !port) return;
  const answer = (reply: ShellReply) => port.postMessage(reply);
  event.waitUntil(
    keepPage(message.url, ASSETS_CACHE).then(
      (kept) =>
        answer(kept ? { ok: true } : { ok: false, error: "This page could not be kept for offline reading. Sign in again and retry." }),
      () => answer({ ok: false, error: "This page could not be kept for offline reading: check your connection and try again." }),
    ),
  );
});

/**
 * A school page: the network's answer when it comes within NAVIGATION_TIMEOUT_MS (and kept for
 * next time), else the kept copy, else the school's offline page. A late answer still refreshes the copy.
 */
async function navigate(event: FetchEvent, url: URL): Promise<Response> {
  const network = fetch(event.request);
  // Kept beside the page, not before it: the first visit of a build also fetches its files, and
  // the teacher must not wait for them. The copy is taken before the browser reads the answer.
  event.waitUntil(network.then((response) => storePage(url.href, response.clone(), ASSETS_CACHE)).catch(() => false));
  const kept = await caches.match(url.href, { cacheName: PAGES_CACHE });
  if (!kept) return network.catch(() => offlinePage(url));
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), NAVIGATION_TIMEOUT_MS));
  const first = await Promise.race([network.catch(() => null), timeout]);
  return first ?? kept;
}

/** Any other page of ours: from the network, or when there is none, the school's offline page. */
async function navigateUncached(request: Request, url: URL): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(offlinePageOf(url), { cacheName: PAGES_CACHE });
    if (offline) return offline;
    throw error;
  }
}

/**
 * A page's data for a navigation inside the app. With no connection, React Router is told to load
 * the page itself instead (a 204 "reload document" redirect, as the server sends one), which this
 * worker then answers from its copy or with the offline page, rather than an error in the page.
 */
async function pageData(request: Request, url: URL): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    const headers = { "X-Remix-Redirect": pageOfData(url), "X-Remix-Status": "302", "X-Remix-Reload-Document": "true" };
    return new Response(null, { status: 204, headers });
  }
}

/**
 * A build file or route list that is neither kept nor reachable. For React Router's route list
 * (`/__manifest`), its own "reload the document" answer: the link being followed then loads as a
 * page, which this worker answers from its copy or with the offline page. A file fails as it would.
 */
function reloadInstead(request: Request): Response {
  if (new URL(request.url).pathname !== "/__manifest") return Response.error();
  return new Response(null, { status: 204, headers: { "X-Remix-Reload-Document": "true" } });
}

/** The school's offline page when it was kept, else a plain sentence: never the browser's error. */
async function offlinePage(url: URL): Promise<Response> {
  const kept = await caches.match(offlinePageOf(url), { cacheName: PAGES_CACHE });
  if (kept) return kept;
  const text = "You are offline, and this page was not kept on this device. Connect to the internet and reload to open it.";
  return new Response(text, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(ASSETS_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/**
 * A new build: the kept pages name the last build's files, so each is fetched again (the teacher
 * is online, the new worker just came) and kept with this build's files; the last build's files
 * then go. A page the server no longer gives (signed out, a book removed) goes too.
 */
async function refreshKeptPages(): Promise<void> {
  const pages = await caches.open(PAGES_CACHE);
  const urls = (await pages.keys()).map((request) => request.url);
  const results = await Promise.all(urls.map((url) => keepPage(url, ASSETS_CACHE).catch(() => null)));
  // Signed out since: everything the shell kept goes.
  if (urls.length > 0 && results.every((kept) => kept === false)) await forgetShellCaches();
  const names = await caches.keys();
  const stale = names.filter((name) => name.startsWith(`${SHELL_CACHE_PREFIX}assets-`) && name !== ASSETS_CACHE);
  await Promise.all(stale.map((name) => caches.delete(name)));
}

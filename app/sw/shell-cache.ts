import {
  assetPathsIn,
  chunkImportsIn,
  isKeepableAnswer,
  isShellPage,
  offlinePageOf,
  PAGES_CACHE,
  SHELL_CACHE_PREFIX,
} from "./shell-rules.ts";

/**
 * The shell's caches, as the service worker fills and empties them. Plain functions over the Cache
 * API (the same in a page and in the worker), given the build's assets cache by name.
 */

/** Stores a page's answer and the build files it names; the answer's own headers (its CSP and nonce) go with it. */
export async function storePage(url: string, response: Response, assetsCache: string): Promise<boolean> {
  if (!isKeepableAnswer(response)) return false;
  const html = await response.clone().text();
  // The files first: a page kept without them would open as a blank screen offline.
  await storeAssets(new URL(url).origin, assetPathsIn(html), assetsCache);
  const pages = await caches.open(PAGES_CACHE);
  await pages.put(url, response);
  // The school's offline page comes with the first page kept: it is what a page never kept shows.
  const offline = offlinePageOf(new URL(url));
  if (offline !== url && !(await pages.match(offline))) await keepPage(offline, assetsCache).catch(() => false);
  return true;
}

/**
 * Fetches a page as the signed-in teacher and keeps it. False when it is not a shell page or the
 * server did not answer it as one (signed out: the sign-in page; the book gone: a 404).
 */
export async function keepPage(url: string, assetsCache: string): Promise<boolean> {
  const target = new URL(url);
  if (!isShellPage(target, target.origin)) return false;
  const response = await fetch(target, { credentials: "same-origin", cache: "no-store" });
  const kept = await storePage(target.href, response, assetsCache);
  // A page the server no longer gives this teacher must not open from a copy either.
  if (!kept) await (await caches.open(PAGES_CACHE)).delete(target.href);
  return kept;
}

/** How many build files are fetched at once: the page's own requests must not queue behind them. */
const ASSET_FETCHES = 3;

/**
 * Fetches the build files not yet kept (and the fonts a style sheet names), a few at a time. A
 * hashed file never changes, so the browser's HTTP cache may answer however old its copy is
 * (`force-cache`): the page that named them has usually just loaded them, and nothing goes out.
 */
async function storeAssets(origin: string, paths: string[], assetsCache: string): Promise<void> {
  const cache = await caches.open(assetsCache);
  const queue = [...new Set(paths)];
  const named = new Set(queue);
  const add = (found: string[]) => {
    for (const path of found) {
      if (named.has(path)) continue;
      named.add(path);
      queue.push(path);
    }
  };
  const next = async (): Promise<void> => {
    const path = queue.shift();
    if (path === undefined) return;
    const url = `${origin}${path}`;
    if (!(await cache.match(url))) {
      const response = await fetch(url, { credentials: "same-origin", cache: "force-cache" }).catch(() => null);
      if (response?.ok) {
        if (path.endsWith(".css")) add(assetPathsIn(await response.clone().text()));
        else if (path.endsWith(".js")) add(chunkImportsIn(await response.clone().text()));
        await cache.put(url, response);
      }
    }
    return next();
  };
  await Promise.all(Array.from({ length: ASSET_FETCHES }, next));
}

/** Every cache of the shell, gone: the sign-out, a 401, the sign-in page shown. */
export async function forgetShellCaches(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX)).map((name) => caches.delete(name)));
}

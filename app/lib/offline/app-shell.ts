import { forgetShellCaches } from "../../sw/shell-cache.ts";
import type { ShellMessage, ShellReply } from "../../sw/shell-rules.ts";

/**
 * The installable app's page side (docs/decisions/0049): registers the service worker on school
 * pages, asks it to keep a page for offline reading, and forgets everything it kept. The worker
 * itself is app/sw/service-worker.ts, served by the Worker at /sw.js.
 */

export const SERVICE_WORKER_URL = "/sw.js";
/** How long keeping a page may wait for the worker to be running (its first install). */
const READY_TIMEOUT_MS = 15_000;

const supported = () => typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof caches !== "undefined";

/**
 * Registers the worker, once, on a school's pages only: the root layout links a school's manifest
 * there and nowhere else, so the link is the sign (the admin's pages never get the worker).
 */
export function registerAppShell(): void {
  if (!supported() || !document.querySelector('link[rel="manifest"]')) return;
  const first = !navigator.serviceWorker.controller;
  navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: "/", updateViaCache: "none" })
    .then(async () => {
      // The page that installed the worker was fetched before it ran, so the worker never saw
      // it: keep it, or the first page a teacher opens would not open offline. Once the page is
      // idle, so fetching it again does not compete with what the teacher is doing.
      if (!first) return;
      await whenIdle();
      await keepPageForOffline(location.href).catch(() => {});
    })
    .catch(() => {
      // No worker (a private window, a blocked script): the site works as before, online only.
    });
}

/**
 * Keeps a school page (a book's page, its reader) and the build files it needs in the shell's
 * cache, fetched now as the signed-in teacher, so it opens with no connection. Rejects when the
 * page could not be kept; does nothing where the browser has no service workers.
 */
export async function keepPageForOffline(url: string): Promise<void> {
  if (!supported()) return;
  const worker = await readyWorker();
  const reply = await ask(worker, { type: "keep-page", url: new URL(url, location.href).href });
  if (!reply.ok) throw new Error(reply.error);
}

/**
 * Forgets every page and file the shell kept: on sign-out, on any 401 from the API, and when the
 * school's sign-in page shows (no session on this device). A kept book's pages are K's encrypted
 * store, erased by eraseOfflineCopies.
 */
export async function forgetOfflineShell(): Promise<void> {
  if (typeof caches === "undefined") return;
  await forgetShellCaches().catch(() => {});
}

/** After the page's load, when the browser has nothing else to do (at most a few seconds later). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () =>
      typeof requestIdleCallback === "function" ? requestIdleCallback(() => resolve(), { timeout: 5000 }) : setTimeout(resolve, 1000);
    if (document.readyState === "complete") idle();
    else addEventListener("load", idle, { once: true });
  });
}

async function readyWorker(): Promise<ServiceWorker> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("The offline app is not ready yet: reload the page and try again.")), READY_TIMEOUT_MS),
  );
  const registration = await Promise.race([navigator.serviceWorker.ready, timeout]);
  if (!registration.active) throw new Error("The offline app is not ready yet: reload the page and try again.");
  return registration.active;
}

function ask(worker: ServiceWorker, message: ShellMessage): Promise<ShellReply> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<ShellReply>) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
  });
}

import { serviceWorkerScript } from "virtual:lectern/service-worker";
import type { RequestTenant } from "../kernel/context.ts";
import { MANIFEST_FILE, webManifest } from "../schools/web-manifest.ts";
import { SCHOOLS } from "./tenancy.ts";

/**
 * The installable app's two files the Worker answers itself (docs/decisions/0049): the service
 * worker's script and a school's web app manifest.
 */

export const SERVICE_WORKER_PATH = "/sw.js";
/** A school's manifest: `/schools/{slug}/manifest.webmanifest`, or `/manifest.webmanifest` on its subdomain. */
export const MANIFEST_PATHS = [`/${SCHOOLS}/:slug/${MANIFEST_FILE}`, `/${MANIFEST_FILE}`] as const;

/**
 * Browsers ask for the script on every registration (each school page load) and compare its bytes,
 * so it is never kept by a cache in between (no-cache, and the page registers with updateViaCache
 * "none"). At the origin's root its scope may be "/" without a Service-Worker-Allowed header.
 */
export function serviceWorkerResponse(): Response {
  return new Response(serviceWorkerScript, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}

/**
 * The school's manifest; 404 where the request names no school (the main site, the admin's), or
 * where its path names another school than the host's (`named`: the path's slug, if any).
 */
export function manifestResponse(tenant: RequestTenant, named?: string): Response {
  if (!tenant.school || (named !== undefined && named !== tenant.slug))
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(JSON.stringify(webManifest(tenant.school, tenant.basePath)), {
    // Public (no session is read) and an hour: a school's new name reaches installed apps the same day.
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

import { data } from "react-router";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a browser sent this request from one of our own pages: the Origin must be ours, or (when
 * a browser omits Origin) Sec-Fetch-Site must say same-origin. The same rule as the API's
 * requireSameOrigin (workers/http/request-guards.ts), for the pages' actions, which it does not cover.
 */
export function isSameOriginRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.get("Origin");
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}

/** Call first in every action: refuses (403) a form post that another site made the browser send. */
export function requireSameOriginForm(request: Request): void {
  if (!isSameOriginRequest(request)) throw data({ error: "This request did not come from this site." }, { status: 403 });
}

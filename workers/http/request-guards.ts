import type { MiddlewareHandler } from "hono";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser did not send from our own page: the Origin must
 * be ours, or (when a browser omits Origin) Sec-Fetch-Site must say same-origin. SameSite=Lax
 * cookies already stop most cross-site posts; this closes the rest (and sibling subdomains,
 * which count as same-site).
 */
export const requireSameOrigin: MiddlewareHandler = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const origin = c.req.header("Origin");
  const expected = new URL(c.req.url).origin;
  const fetchSite = c.req.header("Sec-Fetch-Site");
  const allowed = origin ? origin === expected : fetchSite === "same-origin";
  if (!allowed) return c.json({ error: "This request did not come from this site." }, 403);
  return next();
};

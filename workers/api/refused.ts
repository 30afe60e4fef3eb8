import type { Context } from "hono";
import type { AppEnv } from "../kernel/context.ts";
import type { Refusal } from "../reading/page-view-gate.ts";

/** What a reader is sent is theirs alone: never stored by a cache, refusals included. */
export const NO_STORE = { "Cache-Control": "private, no-store" } as const;

/** A reading refusal as the API answers it (a page view's, an annotation's): its status, `{ error }` and what else it carries. */
export function refused<Env extends AppEnv>(c: Context<Env>, refusal: Refusal) {
  return c.json({ error: refusal.error, ...refusal.extra }, refusal.status, { ...NO_STORE, ...refusal.headers });
}

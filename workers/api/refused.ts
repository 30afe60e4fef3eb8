import type { Context } from "hono";
import { failureResponse } from "../http/run-command.ts";
import type { AppEnv } from "../kernel/context.ts";
import type { Failure } from "../kernel/failure.ts";

/** What a reader is sent is theirs alone: never stored by a cache, refusals included. */
export const NO_STORE = { "Cache-Control": "private, no-store" } as const;

/** A reading failure as the API answers it (a page view's, an annotation's): `failureResponse`, never stored. */
export function refused<Env extends AppEnv>(c: Context<Env>, failure: Failure) {
  return failureResponse(c, failure, NO_STORE);
}

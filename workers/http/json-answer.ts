import type { TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";

/**
 * What `c.json(value, status)` answers, by name. A helper that answers a generic value needs it
 * spelled out: the declarations tsc emits for the UI's type check (tsconfig.cloudflare.json) cannot
 * write hono's unexported JSONRespondReturn, and its expansion is longer than tsc will write (TS7056).
 */
export type JsonAnswer<T, Status extends ContentfulStatusCode = ContentfulStatusCode> = Response &
  TypedResponse<JSONParsed<T>, Status, "json">;

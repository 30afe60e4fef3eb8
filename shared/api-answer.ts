import type { ClientResponse } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";

/**
 * The body of a typed API call's successful answers (2xx), as the server's route declares it: read
 * by the UI's client (app/lib/api-client.ts) and by the worker tests alike.
 */
export type Ok<R> = R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? T : never) : never;

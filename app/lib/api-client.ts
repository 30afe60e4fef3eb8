import type { ClientResponse } from "hono/client";
import { hc } from "hono/client";
import type { Ok } from "#shared/api-answer.ts";
import type { Api } from "../../workers/api/index.ts";
import { errorText } from "./error-text.ts";
import { forgetOfflineShell } from "./offline/app-shell.ts";

/**
 * The Worker's API, typed from its routes (workers/api/index.ts): request and response types come
 * from the server's own code, so changing a response shape fails the type check of the UI reading it.
 */
export const api = hc<Api>("/", { init: { credentials: "same-origin" } });

/** The typed client's type, for modules that call the API with their own fetch and only need its types. */
export type Client = typeof api;

/** An API answer that was not OK, carrying the server's `error` text when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type { Ok };

/**
 * Runs a typed API call and returns its successful body. Non-OK answers throw ApiError with the
 * server's error text, or `fallback` (the spec's per-screen fallback message) when there is none;
 * a network failure throws ApiError with status 0.
 */
export async function call<R extends ClientResponse<unknown, number, string>>(request: () => Promise<R>, fallback: string): Promise<Ok<R>> {
  let response: R;
  try {
    response = await request();
  } catch {
    throw new ApiError("Network error: check your connection and try again.", 0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    // The session is gone: the pages kept for offline were this session's (docs/decisions/0049).
    if (response.status === 401) void forgetOfflineShell();
    throw new ApiError(errorText(body) ?? fallback, response.status, body);
  }
  return body as Ok<R>;
}

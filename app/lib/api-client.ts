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

/**
 * Calls the Worker's JSON API. Non-OK answers throw ApiError with the server's error text,
 * or `fallback` (the spec's per-screen fallback message) when there is none.
 */
export async function requestJson<T>(path: string, init: { method?: string; body?: unknown; fallback: string }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      credentials: "same-origin",
      headers: init.body === undefined ? undefined : { "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError("Network error: check your connection and try again.", 0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const text = body && typeof body === "object" && "error" in body && typeof body.error === "string" ? body.error : init.fallback;
    throw new ApiError(text, response.status, body);
  }
  return body as T;
}

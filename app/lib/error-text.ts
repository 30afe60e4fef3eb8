// Its own module: the reader imports it without the typed client (app/lib/api-client.ts).

/**
 * The one reading of a refusal on the client: the `error` sentence a body carries (an API answer,
 * an action's answer, the data a loader threw), or null when it carries none.
 */
export function errorText(body: unknown): string | null {
  if (typeof body === "string") return body || null;
  return body && typeof body === "object" && "error" in body && typeof body.error === "string" ? body.error : null;
}

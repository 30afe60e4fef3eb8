import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The Worker's one logger: a JSON line per event with the request id, so that every line of one
 * request can be found together (Workers Logs and `wrangler tail` keep them). The pipeline runs
 * each request inside `withRequestId` (the id is Cloudflare's `cf-ray` when there is one, answered
 * as `X-Request-Id`); the scheduled job runs in one of its own. Nothing else in the Worker calls
 * `console`.
 */

const scope = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(requestId: string, run: () => T): T {
  return scope.run({ requestId }, run);
}

/** The id of the request (or scheduled run) this code is running for, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

type Fields = Record<string, unknown>;

function line(level: "info" | "warn" | "error", message: string, fields: Fields = {}): string {
  const entry: Fields = { level, message, requestId: currentRequestId() ?? null };
  for (const [key, value] of Object.entries(fields)) entry[key] = value instanceof Error ? describeError(value) : value;
  try {
    return JSON.stringify(entry);
  } catch {
    // A field that cannot be written as JSON (a cycle, a BigInt) must not turn a log line into an error.
    return JSON.stringify({ level, message, requestId: entry.requestId, fields: String(Object.keys(fields)) });
  }
}

function describeError(error: Error): Fields {
  return {
    name: error.name,
    message: error.message,
    ...(error.cause !== undefined ? { cause: String(error.cause) } : {}),
    stack: error.stack,
  };
}

export const log = {
  info: (message: string, fields?: Fields) => console.log(line("info", message, fields)),
  warn: (message: string, fields?: Fields) => console.warn(line("warn", message, fields)),
  error: (message: string, fields?: Fields) => console.error(line("error", message, fields)),
};

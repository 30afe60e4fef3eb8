import type { Context } from "hono";
import type { ZodType } from "zod";
import { type Command, execute } from "../kernel/command.ts";
import type { AppEnv } from "../kernel/context.ts";
import type { Failure } from "../kernel/failure.ts";
import { readJsonBody } from "../kernel/validate.ts";
import { failureBody, failureHeaders, failureStatus } from "./failure-status.ts";

/**
 * The API's one adapter for a command (docs/decisions/0027-commands.md): the JSON body, with the
 * path's parameters named in `params` laid over it (a body cannot retarget the path's id), run
 * through `execute`; the value answered by `respond`, a failure by `failureResponse`.
 */
export function runJson<Env extends AppEnv, Schema extends ZodType, Value, Answer extends Response>(
  command: Command<Schema, Value>,
  respond: (c: Context<Env>, value: Value) => Answer,
  options: { params?: string[]; body?: boolean } = {},
) {
  const { params = [], body: hasBody = true } = options;
  return async (c: Context<Env>) => {
    let input: unknown = {};
    if (hasBody) {
      const body = await readJsonBody(c.req);
      if (!body.ok) return c.json({ error: body.error }, 400);
      input = body.value;
    }
    if (params.length) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) return c.json({ error: "Send a JSON object" }, 400);
      // Spread, not assigned: a body's own "__proto__" key stays a plain (ignored) key.
      const fromPath = Object.fromEntries(params.map((name) => [name, c.req.param(name)]));
      input = { ...fromPath, ...input, ...fromPath };
    }
    const outcome = await execute(command, c.var.context, input, c.req.raw);
    return outcome.ok ? respond(c, outcome.value) : failureResponse(c, outcome.failure);
  };
}

/** A command's value answered as it is (for `runJson`'s `respond`). */
export const answerJson = <Value extends object>(c: Context<AppEnv>, value: Value) => c.json(value);

/** A failure as the API answers it: its status, and `{ error }` with the field or rows it is about. */
export function failureResponse<Env extends AppEnv>(c: Context<Env>, failure: Failure) {
  return c.json(failureBody(failure), failureStatus(failure), failureHeaders(failure));
}

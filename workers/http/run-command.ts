import type { Context } from "hono";
import type { ZodType, z } from "zod";
import { type Command, execute } from "../kernel/command.ts";
import type { AppEnv } from "../kernel/context.ts";
import type { Failure } from "../kernel/failure.ts";
import { readJsonBody } from "../kernel/validate.ts";
import { failureBody, failureHeaders, failureStatus } from "./failure-status.ts";
import type { JsonAnswer } from "./json-answer.ts";

/** `Omit` over each member of a union (a schema's input may be one), not over the union as a whole. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * What a command route declares to Hono, as `zValidator("json", schema)` would (so `hc<Api>` types
 * the body the client sends): the schema's input less the fields the path names, which come from
 * the path; nothing for a command that reads no body. The path's parameters Hono types from the path.
 */
export type CommandInput<Schema extends ZodType, Params extends string, HasBody extends boolean> = HasBody extends true
  ? JsonInput<CommandBody<Schema, Params>>
  : // biome-ignore lint/complexity/noBannedTypes: Hono's own BlankInput is `{}`.
    {};

/** The body a command takes from the client: its schema's input, less the fields the path names. */
export type CommandBody<Schema extends ZodType, Params extends string = never> = OmitEach<z.input<Schema>, Params>;

/** A JSON body declared to Hono (for a route that picks its command by the body's shape). */
export type JsonInput<Body> = { in: { json: Body }; out: { json: Body } };

/**
 * The API's one adapter for a command (docs/decisions/0027-commands.md): the JSON body, with the
 * path's parameters named in `params` laid over it (a body cannot retarget the path's id), run
 * through `execute`; the value answered by `respond`, a failure by `failureResponse`. The handler
 * carries the command's input type (`CommandInput`), so a route using it declares its body to
 * Hono; the body is still read and parsed only here and in `execute` (readJsonBody, then
 * parseInput after the actor checks), whatever its Content-Type, as before.
 */
export function runJson<
  Env extends AppEnv,
  Schema extends ZodType,
  Value,
  Answer extends Response,
  const Params extends string = never,
  const HasBody extends boolean = true,
>(
  command: Command<Schema, Value>,
  respond: (c: Context<Env>, value: Value) => Answer,
  options: { params?: readonly Params[]; body?: HasBody } = {},
) {
  const { params = [], body: hasBody = true } = options;
  return async (c: Context<Env, string, CommandInput<Schema, Params, HasBody>>) => {
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
    return outcome.ok ? respond(c as unknown as Context<Env>, outcome.value) : failureResponse(c, outcome.failure);
  };
}

/** A command's value answered as it is (for `runJson`'s `respond`). */
export const answerJson = <Value extends object>(c: Context<AppEnv>, value: Value): JsonAnswer<Value> => c.json(value);

/** A failure as the API answers it: its status, `{ error }` with the field or rows it is about, Retry-After, and `headers`. */
export function failureResponse<Env extends AppEnv>(
  c: Context<Env, string, object>,
  failure: Failure,
  headers: Record<string, string> = {},
) {
  return c.json(failureBody(failure), failureStatus(failure), { ...headers, ...failureHeaders(failure) });
}

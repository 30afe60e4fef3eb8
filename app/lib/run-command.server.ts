import { data, type RouterContextProvider, type UNSAFE_DataWithResponseInit } from "react-router";
import type { ZodType } from "zod";
import { failureBody, failureHeaders, failureStatus } from "../../workers/http/failure-status.ts";
import { type Command, execute } from "../../workers/kernel/command.ts";
import { appContext } from "../../workers/kernel/context.ts";
import type { Failed, Outcome } from "../../workers/kernel/failure.ts";

/**
 * The pages' one adapter for a command (docs/decisions/0027-commands.md): the action hands over
 * what the form holds, `execute` parses it, takes the actor from the request context and runs the
 * command; the action answers with `reply`.
 */
export function runCommand<Schema extends ZodType, Value>(
  { context, request }: { context: Readonly<RouterContextProvider>; request: Request },
  command: Command<Schema, Value>,
  raw: unknown,
): Promise<Outcome<Value>> {
  return execute(command, context.get(appContext), raw, request);
}

/**
 * What a page action answers a refusal with, as the API does (workers/http/failure-status.ts): the
 * sentence and the field at fault (the form marks it: app/components/ui/field-error.tsx), beside
 * what the action adds (`intent`, what was entered; an import's `rows`, typed by the action, which
 * the failure fills in when it has them).
 */
export type Refusal<Extra> = Extra & { error: string; field?: string };

/**
 * A command's outcome as a page action's answer (Epic Stack's `submission.reply()` is the model):
 * a failure as `{ ...extra, error, field?, rows? }` with its status and headers; a value as it is,
 * or as `answer` makes it. An action that does more after a success replies to the failure alone:
 * `if (!outcome.ok) return reply(outcome, { intent })`. A refusal the action decides itself is a
 * failure too: `reply(failure("invalid", "Passwords do not match", "confirmPassword"), { intent })`.
 */
export function reply<Extra extends object = Record<never, never>>(
  outcome: Failed,
  extra?: Extra,
): UNSAFE_DataWithResponseInit<Refusal<Extra>>;
export function reply<Value, Extra extends object = Record<never, never>, Answer = Value>(
  outcome: Outcome<Value>,
  extra?: Extra,
  answer?: (value: Value) => Answer,
): Answer | UNSAFE_DataWithResponseInit<Refusal<Extra>>;
export function reply<Value, Extra extends object, Answer>(
  outcome: Outcome<Value>,
  extra?: Extra,
  answer?: (value: Value) => Answer,
): Answer | Value | UNSAFE_DataWithResponseInit<Refusal<Extra>> {
  if (outcome.ok) return answer ? answer(outcome.value) : outcome.value;
  const { failure } = outcome;
  const body = { ...extra, ...failureBody(failure) } as Refusal<Extra>;
  return data(body, { status: failureStatus(failure), headers: failureHeaders(failure) });
}

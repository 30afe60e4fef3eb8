import type { RouterContextProvider } from "react-router";
import type { ZodType } from "zod";
import { type Command, execute } from "../../workers/kernel/command.ts";
import { appContext } from "../../workers/kernel/context.ts";
import type { Outcome } from "../../workers/kernel/failure.ts";

export { failureStatus } from "../../workers/http/failure-status.ts";

/**
 * The pages' one adapter for a command (docs/decisions/0027-commands.md): the action hands over
 * what the form holds, `execute` parses it, takes the actor from the request context and runs the
 * command; the action shows the value, or the failure with `failureStatus` (the API's mapping).
 */
export function runCommand<Schema extends ZodType, Value>(
  { context, request }: { context: Readonly<RouterContextProvider>; request: Request },
  command: Command<Schema, Value>,
  raw: unknown,
): Promise<Outcome<Value>> {
  return execute(command, context.get(appContext), raw, request);
}

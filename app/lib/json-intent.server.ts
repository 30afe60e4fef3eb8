import type { z } from "zod";
import { done, failure, type Outcome } from "../../workers/kernel/failure.ts";
import { NOT_UTF8_MESSAGE, parseInput, readJsonBody } from "../../workers/kernel/validate.ts";

/**
 * A JSON page action's body and what it asks to be done with it (the import pages send a file's
 * rows with an `intent`). Decoded strictly: bytes that are not UTF-8 are refused, not stored as
 * U+FFFD. A body that is not JSON still comes to the intent's check, which refuses it by the intent.
 */
export async function readIntent<Schema extends z.ZodType<{ intent: string }>>(
  request: Request,
  schema: Schema,
): Promise<Outcome<{ intent: z.output<Schema>["intent"]; body: unknown }>> {
  const read = await readJsonBody(request);
  if (!read.ok && read.error === NOT_UTF8_MESSAGE) return failure("invalid", read.error);
  const body = read.ok ? read.value : null;
  const chosen = parseInput(schema, body);
  if (!chosen.ok) return failure("invalid", chosen.error, chosen.field);
  return done({ intent: chosen.data.intent, body });
}

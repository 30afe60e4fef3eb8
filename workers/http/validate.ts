import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";

/** First issue of a zod error as one sentence, prefixed with the field it is about. */
export function describeZodError(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  const [issue] = error.issues;
  if (!issue) return "Invalid request";
  const field = issue.path.map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** zod validation for a Hono route; failures answer 400 `{ error }` with a readable message. */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json({ error: describeZodError(result.error) }, 400);
  });
}

import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { CONTROL_CHARS_MESSAGE, controlCharPath } from "../validation/schemas.ts";

/** First issue of a zod error as one sentence, prefixed with the field it is about. */
export function describeZodError(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  const [issue] = error.issues;
  if (!issue) return "Invalid request";
  const field = issue.path.map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * zod validation for a Hono route; failures answer 400 `{ error }` with a readable message. Every
 * string in the input is checked for control characters first (NUL, ESC, ...; tabs and line breaks
 * pass), so none is stored whatever the route's schema says.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    const path = controlCharPath(result.data);
    if (path) return c.json({ error: describeZodError({ issues: [{ path, message: CONTROL_CHARS_MESSAGE }] }) }, 400);
    if (!result.success) return c.json({ error: describeZodError(result.error) }, 400);
  });
}

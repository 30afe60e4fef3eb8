import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { CONTROL_CHARS_MESSAGE, controlCharPath, MAX_INPUT_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from "../validation/schemas.ts";

/** What a refused input answers: a sentence for people, and the field it is about (for forms and scripts). */
export type InputError = { error: string; field?: string };

/**
 * The first issue of a zod error: its message, a sentence shown as it is (never prefixed with a
 * field name), and separately the path of the field it is about ("email", "rows.2.slug").
 */
export function describeZodError(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): InputError {
  const [issue] = error.issues;
  if (!issue) return { error: "Invalid request" };
  const field = issue.path.map(String).join(".");
  return field ? { error: issue.message, field } : { error: issue.message };
}

/**
 * zod validation for a Hono route; failures answer 400 `{ error, field }`: a sentence, and the
 * field it is about. Every
 * string in the input is checked for control characters first (NUL, ESC, ...; tabs and line breaks
 * pass), so none is stored whatever the route's schema says; input nested deeper than
 * MAX_INPUT_DEPTH is refused before that.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    // Ten thousand levels of brackets fit in 20 kB: refused before the walks below recurse into them.
    if (nestedDeeperThan(result.data, MAX_INPUT_DEPTH)) return c.json({ error: TOO_DEEP_MESSAGE }, 400);
    const path = controlCharPath(result.data);
    if (path) return c.json(describeZodError({ issues: [{ path, message: CONTROL_CHARS_MESSAGE }] }), 400);
    if (!result.success) return c.json(describeZodError(result.error), 400);
  });
}

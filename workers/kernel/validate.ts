import { zValidator } from "@hono/zod-validator";
import type { HonoRequest, ValidationTargets } from "hono";
import { createMiddleware } from "hono/factory";
import type { ZodType, z } from "zod";
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

/** Input parsed by parseInput: the schema's output, or why not (a sentence and the field). */
export type Parsed<T> = { ok: true; data: T } | ({ ok: false } & InputError);

/**
 * The one way input is parsed, for API routes (validate, below) and page actions alike: nesting
 * deeper than MAX_INPUT_DEPTH is refused before anything walks it, then every string is checked for
 * control characters (NUL, ESC, ...; tabs and line breaks pass), whatever the schema says, then
 * the schema. A refusal is a sentence and the field it is about.
 */
export function parseInput<Schema extends ZodType>(schema: Schema, raw: unknown): Parsed<z.output<Schema>> {
  const generic = genericRefusal(raw);
  if (generic) return { ok: false, ...generic };
  const result = schema.safeParse(raw);
  return result.success ? { ok: true, data: result.data } : { ok: false, ...describeZodError(result.error) };
}

function genericRefusal(raw: unknown): InputError | null {
  // Ten thousand levels of brackets fit in 20 kB: refused before the walks below recurse into them.
  if (nestedDeeperThan(raw, MAX_INPUT_DEPTH)) return { error: TOO_DEEP_MESSAGE };
  const path = controlCharPath(raw);
  return path ? describeZodError({ issues: [{ path, message: CONTROL_CHARS_MESSAGE }] }) : null;
}

export const NOT_UTF8_MESSAGE = "The request's body is not valid UTF-8 text. Send JSON encoded as UTF-8.";

/** Bytes as text, strictly: null when they are not UTF-8 (a lenient decoder puts U+FFFD where they were, and that gets stored). */
export function decodeUtf8(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Every API body declared as JSON is UTF-8 or refused here, before any route reads it (RFC 8259;
 * docs/decisions/0036). The bytes read stay in the request's body cache, so a route's
 * `c.req.json()` (zValidator's too) parses the same bytes afterwards. Bodies of other types (a
 * cover, a PDF part) are left alone; a command reads its body with `readJsonBody` whatever its type.
 */
export const requireUtf8Json = createMiddleware(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim() ?? "";
  if (c.req.raw.body && JSON_TYPE.test(type) && decodeUtf8(await c.req.arrayBuffer()) === null) {
    return c.json({ error: NOT_UTF8_MESSAGE }, 400);
  }
  await next();
});

/** A request's body (an API route's or a page action's) as JSON, decoded strictly as UTF-8: its value, or why not. */
export async function readJsonBody(
  req: Pick<HonoRequest | Request, "arrayBuffer">,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  const text = decodeUtf8(await req.arrayBuffer());
  if (text === null) return { ok: false, error: NOT_UTF8_MESSAGE };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: "Send the request's body as JSON" };
  }
}

/**
 * zod validation for a Hono route (parseInput's checks); failures answer 400 `{ error, field }`:
 * a sentence, and the field it is about.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    const generic = genericRefusal(result.data);
    if (generic) return c.json(generic, 400);
    if (!result.success) return c.json(describeZodError(result.error), 400);
  });
}

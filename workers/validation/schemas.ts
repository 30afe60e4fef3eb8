import { z } from "zod";
import { isCommonPassword } from "../auth/common-passwords.ts";

// Shared zod pieces for every boundary that takes these values (API bodies, forms, CSV rows).

export const EmailSchema = z
  .string({ error: "Please enter your email address" })
  .trim()
  .toLowerCase()
  .min(1, "Please enter your email address")
  .max(254, "That email address is too long")
  .pipe(z.email("Please enter a valid email address"));

/**
 * The domain of an address EmailSchema takes (lower case), or null. The one way an address's
 * domain is read: EmailSchema refuses a second "@" and a quoted local part, so
 * `x@school.org@evil.test` and `"x@school.org@"@evil.test` have no domain at all rather than
 * school.org (issue 41); what is left is the part after the last "@".
 */
export function emailDomain(address: string): string | null {
  const email = EmailSchema.safeParse(address);
  return email.success ? email.data.slice(email.data.lastIndexOf("@") + 1) : null;
}

export const PasswordSchema = z
  .string({ error: "Please enter a password" })
  .min(8, "Password must be at least 8 characters")
  .max(128, "Password must be at most 128 characters")
  .refine((p) => !isCommonPassword(p), "This password is too common. Please choose one that is harder to guess.");

export const MobileSchema = z
  .string({ error: "Please enter your mobile number" })
  .trim()
  .regex(/^\d{10}$/, "Mobile number must be exactly 10 digits");

export const PersonNameSchema = z
  .string({ error: "Please enter your full name" })
  .trim()
  .min(1, "Please enter your full name")
  .max(100, "Name must be at most 100 characters")
  .refine((name) => isPlainLine(name), "Remove the control characters (such as NUL) from your name");

export const OtpCodeSchema = z
  .string({ error: "Please enter the OTP sent to your email" })
  .trim()
  .regex(/^\d{6}$/, "The OTP is the 6-digit code from your email");

export const SlugParamSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter the school's slug")
  .max(63, "A slug can have at most 63 characters");

/** A row id as a URL carries it: decimal digits only (no sign, exponent, spaces or leading zeros), a safe integer. */
export function parseId(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * The body of a CSV import (schools, licences, the catalogue): the rows the admin page parsed from
 * the file, keyed by the API's field names, and, where that is not "the header, then one line per
 * row" (blank lines the client skipped), each row's number in the file as a spreadsheet shows it
 * (the header is row 1), used only when there is one per row.
 */
export const CsvImportBodySchema = (maxRows: number, tooMany: string) =>
  z.object({
    rows: z
      .array(z.record(z.string(), z.unknown(), { error: "Each row must be an object of fields" }), { error: "Send the file's rows" })
      .min(1, "The file has no rows")
      .max(maxRows, tooMany),
    rowNumbers: z.array(z.number().int().min(2).max(10_000_000)).max(maxRows).optional(),
  });

/** parseId of whatever a form or a path gave (a File, a number, nothing: no id). */
export function idFrom(raw: unknown): number | null {
  return typeof raw === "string" ? parseId(raw) : null;
}

/** An id in a URL path or query, read strictly (parseId); `message` is the 400's text. */
export const IdTextSchema = (message = "Not a valid id") =>
  z.string({ error: message }).transform((raw, ctx) => {
    const id = parseId(raw);
    if (id === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return id;
  });

/** A page number in a URL path (`/pages/:n`): 1 to 999,999, digits only. */
export const PageNumberTextSchema = z
  .string()
  .regex(/^[1-9]\d{0,5}$/, "The page number must be a whole number from 1")
  .transform(Number);

/** A page image's width in a query (`?w=`): a whole number from 1 to `max`. */
export const WidthTextSchema = (max: number) =>
  z
    .string()
    .regex(/^[1-9]\d{0,4}$/, `The width must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((width) => width <= max, `The width must be a whole number from 1 to ${max}`);

/** A page set's id in a URL path: 24 lower-case hex digits. */
export const PageSetIdSchema = z.string().regex(/^[0-9a-f]{24}$/, "Not a valid page set id");

/** A path or query value read by `schema`, or null when it does not fit (the caller decides what that answers, and when). */
export function paramOrNull<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.output<Schema> | null {
  const result = schema.safeParse(raw);
  return result.success ? result.data : null;
}

/** An id in a JSON body: a positive safe integer. */
export const IdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A list of ids in a JSON body, 1 to 500 of them ("Choose at least one book"). */
export const IdListSchema = (what: string) =>
  z.array(IdSchema).min(1, `Choose at least one ${what}`).max(500, `Choose at most 500 ${what}s at a time`);

/** Form and query fields left empty (or null in JSON) count as not given. */
export const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

// C0 controls (NUL, ESC, ...), DEL and C1 controls; multi-line text keeps tab, line feed and return.
const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);
const isLineBreakOrTab = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d;
function hasControl(text: string, allowLines: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControl(code) && !(allowLines && isLineBreakOrTab(code))) return true;
  }
  return false;
}
export const CONTROL_CHARS_MESSAGE = "Remove the control characters (such as NUL) from this text";

/** Whether a one-line text (a name, an address) is free of control characters. */
export const isPlainLine = (text: string) => !hasControl(text, false);
/** Whether a multi-line text (a description) is free of control characters other than tabs and line breaks. */
export const isPlainText = (text: string) => !hasControl(text, true);

/** Deeper than any input of the API (an import's rows of cells is 3): more is refused before anything walks it. */
export const MAX_INPUT_DEPTH = 32;
export const TOO_DEEP_MESSAGE = "This request is nested too deeply";

/** Whether a JSON value nests arrays and objects more than `max` levels deep (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The path of the first string in a JSON value that holds a control character (tabs and line breaks allowed), or null. */
export function controlCharPath(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === "string") return isPlainText(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = controlCharPath(item, [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = controlCharPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

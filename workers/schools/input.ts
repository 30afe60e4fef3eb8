import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { isOfflineBooksPerTeacher, OFFLINE_BOOKS_RULE } from "#shared/rules/offline.ts";
import { SlugSchema } from "#shared/rules/slug.ts";
import type { schools } from "../db/schema.ts";
import { blankToUndefined, CONTROL_CHARS_MESSAGE, EmailSchema, IdTextSchema, isPlainLine } from "../validation/schemas.ts";
import { guardedTeacherLimit } from "./write-guards.ts";

const numberToString = (value: unknown) => (typeof value === "number" ? String(value) : value);
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);

function requiredText(what: string, max: number) {
  const missing = `Please enter the ${what}`;
  return z.preprocess(
    numberToString,
    z
      .string({ error: missing })
      .trim()
      .min(1, missing)
      .max(max, `The ${what} can have at most ${max} characters`)
      .refine(isPlainLine, `${CONTROL_CHARS_MESSAGE} (the ${what})`),
  );
}

function optionalText(what: string, max: number) {
  const tooLong = `The ${what} can have at most ${max} characters`;
  return z
    .preprocess(
      blankToNull,
      z
        .string({ error: `The ${what} must be text` })
        .trim()
        .max(max, tooLong)
        .refine(isPlainLine, `${CONTROL_CHARS_MESSAGE} (the ${what})`)
        .nullable(),
    )
    .optional();
}

/** A school's id from a URL or a form field; anything else is a school that does not exist. */
export const SchoolIdSchema = IdTextSchema("Unknown school");

const ZIP_MESSAGE = "Enter a 5-digit ZIP code";
export const LIMIT_MESSAGE = "The teacher limit must be a whole number from 1 to 10000";
export const MAX_TEACHER_LIMIT = 10_000;

export const TeacherLimitSchema = z.preprocess(
  (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
  z.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_TEACHER_LIMIT, LIMIT_MESSAGE),
);

/** A school as admins enter it (form or CSV row). Keys are in form order, so the first error is the first field. */
export const SchoolInputSchema = z.object({
  schoolName: requiredText("school name", 200),
  slug: z.preprocess(blankToUndefined, SlugSchema.optional()),
  address1: requiredText("address", 200),
  address2: optionalText("second address line", 200),
  address3: optionalText("third address line", 200),
  city: requiredText("city", 100),
  state: requiredText("state", 50),
  zipCode: z.preprocess(
    numberToString,
    z
      .string({ error: ZIP_MESSAGE })
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, ZIP_MESSAGE),
  ),
  email: EmailSchema,
  principal: optionalText("principal's name", 200),
  teacherLimit: TeacherLimitSchema,
});

const SESSION_LIMIT_MESSAGE = "Sessions per teacher must be a whole number from 1 to 20";

export const SchoolUpdateSchema = SchoolInputSchema.partial().extend({
  // How many signed-in sessions (devices) one teacher may keep; a new sign-in past it ends the oldest.
  sessionLimit: z
    .number({ error: SESSION_LIMIT_MESSAGE })
    .int(SESSION_LIMIT_MESSAGE)
    .min(1, SESSION_LIMIT_MESSAGE)
    .max(20, SESSION_LIMIT_MESSAGE)
    .optional(),
  // Books one teacher may keep for offline reading at once (docs/decisions/0050); 0: none.
  offlineBooksPerTeacher: z.number({ error: OFFLINE_BOOKS_RULE }).refine(isOfflineBooksPerTeacher, OFFLINE_BOOKS_RULE).optional(),
});

export type SchoolInput = z.output<typeof SchoolInputSchema>;
export type SchoolUpdate = z.output<typeof SchoolUpdateSchema>;

export function toInsertValues(input: SchoolInput, slug: string): typeof schools.$inferInsert {
  const { schoolName, slug: _given, ...rest } = input;
  return {
    ...rest,
    slug,
    name: schoolName,
    address2: rest.address2 ?? null,
    address3: rest.address3 ?? null,
    principal: rest.principal ?? null,
  };
}

/** Only the fields the update names; `teacherLimit` comes back guarded (see guardedTeacherLimit). */
export function toUpdateValues(schoolId: number, input: SchoolUpdate): SQLiteUpdateSetSource<typeof schools> {
  const { schoolName, teacherLimit, ...rest } = input;
  const values: Record<string, unknown> = { ...rest, name: schoolName };
  if (teacherLimit !== undefined) values.teacherLimit = guardedTeacherLimit(schoolId, teacherLimit);
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

import { z } from "zod";
import { isValidIsbn, normalizeIsbn } from "#shared/rules/isbn.ts";
import { checkLicenceDays, LicenceTermsSchema } from "../licences/input.ts";
import { blankToUndefined, CONTROL_CHARS_MESSAGE, IdListSchema, IdTextSchema, isPlainLine, isPlainText } from "../validation/schemas.ts";

const IsbnSchema = z
  .string()
  .trim()
  .max(32, "Enter a 10- or 13-digit ISBN")
  .superRefine((value, ctx) => {
    if (!value) return;
    const digits = normalizeIsbn(value);
    if (!/^(\d{13}|\d{9}[\dX])$/.test(digits)) ctx.addIssue({ code: "custom", message: "Enter a 10- or 13-digit ISBN" });
    else if (!isValidIsbn(digits)) ctx.addIssue({ code: "custom", message: "This ISBN's check digit is wrong" });
  });

/** Optional text: missing leaves it alone, null or blank clears it. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Keep this under ${max} characters`)
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null));

/** Required text on one line: `missing` when it is absent or blank, `tooLong` past `max` characters. */
const requiredLine = (missing: string, max: number, tooLong: string) =>
  z.string({ error: missing }).trim().min(1, missing).max(max, tooLong).refine(isPlainLine, CONTROL_CHARS_MESSAGE);

const GRADE = "Grade must be 1 to 12";

export const BookFields = {
  title: requiredLine("Enter a title", 500, "Keep the title under 500 characters"),
  author1: requiredLine("Enter the first author", 200, "Keep the author under 200 characters"),
  author2: optionalText(200),
  description: z
    .string()
    .trim()
    .max(20_000, "Keep the description under 20,000 characters")
    .refine(isPlainText, CONTROL_CHARS_MESSAGE)
    .nullish(),
  isbn: IsbnSchema.nullish().transform((value) => (value === undefined ? undefined : value || null)),
  gradeLevel: z.number(GRADE).int(GRADE).min(1, GRADE).max(12, GRADE).nullish(),
  subject: optionalText(100),
};

export const BookCreateSchema = z.object({
  ...BookFields,
  // The book comes with its PDF (as the Add Books page adds it): if that PDF's pages are refused,
  // the book goes too, instead of staying as an empty record. Without it, a book keeps existing.
  provisional: z.boolean("provisional must be true or false").optional(),
});
/** An update names at least one field (an id beside them does not count). */
export const someBookField = [
  ({ id: _id, ...fields }: Record<string, unknown>) => Object.values(fields).some((value) => value !== undefined),
  "Send at least one field to change",
] as const;
export const BookUpdateSchema = z
  .object(BookFields)
  .partial()
  .refine(...someBookField);

export type BookCreate = z.infer<typeof BookCreateSchema>;
export type BookUpdate = z.infer<typeof BookUpdateSchema>;

/** One page of the admin catalogue, as /api/books and the Books page read it from a query string. */
export const BookListQuerySchema = z.object({
  query: z.string().max(200).optional(),
  page: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  pageSize: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100).default(25)),
  sort: z.preprocess(blankToUndefined, z.enum(["title", "createdAt", "grade"]).optional()),
  dir: z.preprocess(blankToUndefined, z.enum(["asc", "desc"]).optional()),
});

/** Assigning books to schools: every (school, book) pair. */
export const GrantAccessSchema = z
  .object({ schoolIds: IdListSchema("school"), bookIds: IdListSchema("book"), ...LicenceTermsSchema.shape })
  .superRefine(checkLicenceDays);

/** One assignment, named by the ids a URL or a form carries as text. */
export const AccessParamSchema = z.object({ schoolId: IdTextSchema(), bookId: IdTextSchema() });

/**
 * Licences from a CSV file (docs/decisions/0028), as schools are imported: every row checked with
 * all its problems named by the row number a spreadsheet shows, a preview, then all rows or none.
 * A row names its school by `slug` (or `schoolId`) and its book by `isbn` (or `bookId`), so the
 * Licences page's own CSV export can be edited and imported back. A row for a school and book that
 * have a licence already changes that licence's terms (a renewal typed in a spreadsheet).
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { normalizeIsbn } from "#shared/rules/isbn.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { type Actor, auditEntry } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import type { HotState } from "../school-object/objects.ts";
import { flagInFileDuplicates, importRowNumber } from "../schools/import-rows.ts";
import { CsvImportBodySchema, parseId } from "../validation/schemas.ts";
import { checkLicenceDays, DaySchema, MAX_SEATS, OfflineAllowedCellSchema, OfflineDaysCellSchema } from "./input.ts";
import { catalogueChanged, type NewLicence } from "./licences.ts";

/** One import is one transaction of a few statements (rows travel as JSON), so a file may be long. */
export const MAX_LICENCE_IMPORT_ROWS = 5000;

/** The columns a file may have; any other (the export's `school`, `title`, `state`...) is ignored. */
export const LICENCE_CSV_COLUMNS = ["slug", "isbn", "startsOn", "endsOn", "seats", "note", "offlineAllowed", "offlineDays"] as const;

export const LicenceImportBodySchema = CsvImportBodySchema(
  MAX_LICENCE_IMPORT_ROWS,
  `Import at most ${MAX_LICENCE_IMPORT_ROWS.toLocaleString("en-US")} licences at a time`,
);

/** new: no licence for the pair yet; change: one exists with other terms; unchanged: one exists with these. */
export type LicenceImportStatus = "new" | "change" | "unchanged" | "invalid";

export interface LicenceImportRow {
  /** The row's number in the file, header included (the first row under it is 2). */
  row: number;
  status: LicenceImportStatus;
  errors: string[];
  /** The school's and book's names once found (for the preview), else what the row said. */
  school: string;
  book: string;
  startsOn: string | null;
  endsOn: string | null;
  seats: number | null;
  existingId?: number;
}

export interface LicenceImportValidation {
  rows: LicenceImportRow[];
  summary: Record<LicenceImportStatus, number>;
}

const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const text = (value: unknown) => (typeof value === "number" ? String(value) : value);

/** A row's cells (strings, as the file has them), each problem prefixed with its column. */
const RowSchema = z
  .object({
    slug: z.preprocess(blank, z.string().trim().toLowerCase().optional()),
    schoolId: z.preprocess((v) => blank(text(v)), z.string().optional()),
    isbn: z.preprocess(blank, z.string().trim().optional()),
    bookId: z.preprocess((v) => blank(text(v)), z.string().optional()),
    startsOn: z.preprocess(blank, DaySchema.optional()),
    endsOn: z.preprocess((v) => blank(v) ?? null, DaySchema.nullable()),
    seats: z.preprocess(
      (v) => {
        const cell = blank(text(v));
        if (cell === undefined || (typeof cell === "string" && /^unlimited$/i.test(cell.trim()))) return null;
        return typeof cell === "string" && /^\d{1,9}$/.test(cell.trim()) ? Number(cell) : cell;
      },
      z
        .number({ error: "a whole number from 1, or empty for no limit" })
        .int()
        .min(1, "a whole number from 1, or empty for no limit")
        .max(MAX_SEATS, `at most ${MAX_SEATS.toLocaleString("en-US")}`)
        .nullable(),
    ),
    note: z.preprocess((v) => blank(v) ?? "", z.string({ error: "text" }).trim().max(200, "at most 200 characters")),
    offlineAllowed: OfflineAllowedCellSchema,
    offlineDays: OfflineDaysCellSchema,
  })
  .superRefine((row, ctx) => {
    if (!row.slug && !row.schoolId) ctx.addIssue({ code: "custom", message: "Give the school's slug (or its schoolId)" });
    if (!row.isbn && !row.bookId) ctx.addIssue({ code: "custom", message: "Give the book's isbn (or its bookId)" });
    if (!row.startsOn) ctx.addIssue({ code: "custom", path: ["startsOn"], message: "give the first day, as YYYY-MM-DD" });
    checkLicenceDays(row, ctx);
  });

type RowInput = z.output<typeof RowSchema>;

/** The file's cells by our column names, whatever their case in the header ("StartsOn", "ISBN"). */
function cells(row: Record<string, unknown>): Record<string, unknown> {
  const known = new Map(["schoolId", "bookId", ...LICENCE_CSV_COLUMNS].map((name) => [name.toLowerCase(), name]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const name = known.get(key.trim().toLowerCase());
    if (name) out[name] = value;
  }
  return out;
}

type Checked = {
  result: LicenceImportRow;
  input: RowInput;
  schoolId?: number;
  bookId?: number;
  /** The offline terms the row writes, once its licence (if any) is known. */
  offline?: { offlineAllowed: boolean; offlineDays: number };
};

type Found = { id: number; name: string; key: string };

/**
 * Checks every row (all its problems, not just the first) and says what importing it would do.
 * Four reads of D1 in one batch and one for the existing licences, whatever the file's length.
 */
export async function validateLicenceImport(
  db: Db,
  rows: Record<string, unknown>[],
  rowNumbers?: number[],
): Promise<LicenceImportValidation> {
  return (await checkRows(db, rows, rowNumbers)).validation;
}

/** validateLicenceImport's answer, and the rows as checked (their ids and values) for the import to write. */
async function checkRows(
  db: Db,
  rows: Record<string, unknown>[],
  rowNumbers?: number[],
): Promise<{ validation: LicenceImportValidation; checked: Checked[] }> {
  const numbers = rowNumbers?.length === rows.length ? rowNumbers : undefined;
  const checked: Checked[] = [];
  const results = rows.map((raw, index): LicenceImportRow => {
    const fields = cells(raw);
    const parsed = RowSchema.safeParse(fields);
    const said = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
    const result: LicenceImportRow = {
      row: importRowNumber(index, numbers),
      status: "new",
      errors: [],
      school: said(fields.slug) || said(fields.schoolId),
      book: said(fields.isbn) || said(fields.bookId),
      startsOn: null,
      endsOn: null,
      seats: null,
    };
    if (!parsed.success) {
      result.status = "invalid";
      result.errors = parsed.error.issues.map((issue) =>
        issue.path.length ? `${String(issue.path[0])}: ${issue.message}` : issue.message,
      );
      return result;
    }
    Object.assign(result, { startsOn: parsed.data.startsOn ?? null, endsOn: parsed.data.endsOn, seats: parsed.data.seats });
    checked.push({ result, input: parsed.data });
    return result;
  });

  const slugs = checked.flatMap((row) => row.input.slug ?? []);
  const schoolIds = checked.flatMap((row) => (row.input.slug ? [] : (parseId(row.input.schoolId ?? "") ?? [])));
  const isbns = checked.flatMap((row) => (row.input.isbn ? normalizeIsbn(row.input.isbn) : []));
  const bookIds = checked.flatMap((row) => (row.input.isbn ? [] : (parseId(row.input.bookId ?? "") ?? [])));
  const list = (values: unknown[]) => sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(values)])}))`;
  const normalIsbn = sql`upper(replace(replace(isbn, '-', ''), ' ', ''))`;
  // One round trip (a batch of reads).
  const [bySlug, bySchoolId, byIsbn, byBookId] = (
    await runTransaction(db, [
      sql`SELECT id, name, slug AS key FROM schools WHERE slug IN ${list(slugs)}`,
      sql`SELECT id, name, id AS key FROM schools WHERE id IN ${list(schoolIds)}`,
      sql`SELECT id, title AS name, ${normalIsbn} AS key FROM books WHERE provisional = 0 AND ${normalIsbn} IN ${list(isbns)}`,
      sql`SELECT id, title AS name, id AS key FROM books WHERE provisional = 0 AND id IN ${list(bookIds)}`,
    ])
  ).map((result) => result.results as unknown as Found[]) as [Found[], Found[], Found[], Found[]];
  const index = (found: Found[]) => {
    const map = new Map<string, Found[]>();
    for (const row of found) map.set(String(row.key), [...(map.get(String(row.key)) ?? []), row]);
    return map;
  };
  const [slugIndex, schoolIndex, isbnIndex, bookIndex] = [index(bySlug), index(bySchoolId), index(byIsbn), index(byBookId)];

  for (const row of checked) {
    const { input, result } = row;
    const school = input.slug ? slugIndex.get(input.slug)?.[0] : schoolIndex.get(String(parseId(input.schoolId ?? "")))?.[0];
    if (school) {
      row.schoolId = school.id;
      result.school = school.name;
    } else result.errors.push(input.slug ? `No school has the slug “${input.slug}”` : `No school has the id ${input.schoolId}`);
    const books = input.isbn
      ? (isbnIndex.get(normalizeIsbn(input.isbn)) ?? [])
      : (bookIndex.get(String(parseId(input.bookId ?? ""))) ?? []);
    const [book] = books;
    if (book && books.length === 1) {
      row.bookId = book.id;
      result.book = book.name;
    } else if (books.length > 1) result.errors.push(`${books.length} books have the ISBN ${input.isbn}: give the bookId instead`);
    else result.errors.push(input.isbn ? `No book has the ISBN ${input.isbn}` : `No book has the id ${input.bookId}`);
    if (result.errors.length) result.status = "invalid";
  }

  const found = checked.filter((row) => row.result.status !== "invalid");
  flagInFileDuplicates(
    found,
    (row) => `${row.schoolId}:${row.bookId}`,
    (number, others) => `Row ${number} has the same school and book as ${others}`,
  );
  const pairs = found.filter((row) => row.result.status !== "invalid");
  const existing = await db.all<{ id: number } & Required<NewLicence>>(sql`
    SELECT id, school_id AS schoolId, book_id AS bookId, starts_on AS startsOn, ends_on AS endsOn, seats, note,
      offline_allowed = 1 AS offlineAllowed, offline_days AS offlineDays FROM book_access
    WHERE (school_id, book_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(pairs.map((row) => [row.schoolId, row.bookId]))}))`);
  const byPair = new Map(existing.map((licence) => [`${licence.schoolId}:${licence.bookId}`, licence]));
  for (const row of pairs) {
    const licence = byPair.get(`${row.schoolId}:${row.bookId}`);
    // A term the row leaves empty is the licence's own, or a new licence's default.
    row.offline = {
      offlineAllowed: row.input.offlineAllowed ?? (licence ? Boolean(licence.offlineAllowed) : true),
      offlineDays: row.input.offlineDays ?? licence?.offlineDays ?? OFFLINE_DAYS_DEFAULT,
    };
    if (!licence) continue;
    const same =
      licence.startsOn === row.input.startsOn &&
      licence.endsOn === row.input.endsOn &&
      licence.seats === row.input.seats &&
      licence.note === row.input.note &&
      Boolean(licence.offlineAllowed) === row.offline.offlineAllowed &&
      licence.offlineDays === row.offline.offlineDays;
    Object.assign(row.result, { status: same ? "unchanged" : "change", existingId: licence.id });
  }
  const summary = { new: 0, change: 0, unchanged: 0, invalid: 0 };
  for (const result of results) summary[result.status]++;
  return { validation: { rows: results, summary }, checked };
}

const RACED = "Another change to these licences happened meanwhile; nothing was saved. Please check the file again.";
const AUDIT_CHUNK = 100;

/** What an import did: licences made, changed, and rows that were already as the file says. */
export type LicenceImportCounts = { created: number; changed: number; unchanged: number };

/**
 * Imports every row or none: the new and changed licences in one upsert and the audit entries (a
 * hundred rows each) in one transaction. Any invalid row refuses the file.
 */
export async function importLicences(
  db: Db,
  hot: HotState,
  actor: Actor,
  rows: Record<string, unknown>[],
  rowNumbers?: number[],
  now = Date.now(),
): Promise<Outcome<LicenceImportCounts>> {
  const { validation, checked } = await checkRows(db, rows, rowNumbers);
  const invalid = validation.summary.invalid;
  if (invalid)
    return failed({ kind: "invalid", error: `${invalid} of ${rows.length} rows cannot be imported; nothing was saved.`, rows: validation });
  // The new and changed rows, as the upsert writes them (it keys on the school and the book).
  const written: NewLicence[] = checked
    .filter((row) => row.result.status === "new" || row.result.status === "change")
    .map((row) => ({
      schoolId: row.schoolId!,
      bookId: row.bookId!,
      startsOn: row.input.startsOn!,
      endsOn: row.input.endsOn,
      seats: row.input.seats,
      note: row.input.note,
      offlineAllowed: row.offline?.offlineAllowed ?? true,
      offlineDays: row.offline?.offlineDays ?? OFFLINE_DAYS_DEFAULT,
    }));
  const unchanged = validation.summary.unchanged;
  if (!written.length) return done({ created: 0, changed: 0, unchanged });
  // One upsert: a licence made or deleted since the check still ends as the file says.
  const statements: SQL[] = [
    sql`INSERT INTO book_access (school_id, book_id, starts_on, ends_on, seats, note, offline_allowed, offline_days, created_at, updated_at)
      SELECT value ->> 'schoolId', value ->> 'bookId', value ->> 'startsOn', value ->> 'endsOn', value ->> 'seats', value ->> 'note',
        value ->> 'offlineAllowed', value ->> 'offlineDays', ${now}, ${now}
      FROM json_each(${JSON.stringify(written)}) WHERE true
      ON CONFLICT (school_id, book_id) DO UPDATE SET starts_on = excluded.starts_on, ends_on = excluded.ends_on,
        seats = excluded.seats, note = excluded.note, offline_allowed = excluded.offline_allowed,
        offline_days = excluded.offline_days, updated_at = excluded.updated_at`,
  ];
  for (let i = 0; i < written.length; i += AUDIT_CHUNK)
    statements.push(
      auditEntry(db, actor, { action: "licence.import", entityType: "licence", after: written.slice(i, i + AUDIT_CHUNK) }, now).getSQL(),
    );
  try {
    await runTransaction(db, statements);
  } catch (error) {
    // A school or book deleted since the check.
    if (String(error).includes("FOREIGN KEY constraint failed")) return failure("conflict", RACED);
    throw error;
  }
  await catalogueChanged(hot, [...new Set(written.map((row) => row.schoolId))]);
  return done({ created: validation.summary.new, changed: validation.summary.change, unchanged });
}

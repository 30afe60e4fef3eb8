/**
 * A catalogue at once (issue 42, docs/decisions/0040): a CSV's rows become books together, each
 * checked with its row number by the rules of adding one book (BookFields), all or none, and
 * provisional (a PDF that is refused takes its book with it). The rows' files follow through the
 * ordinary upload routes; catalogue-report.ts says where each book is.
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { fileKey, MAX_CATALOGUE_ROWS, rowList } from "#shared/catalogue-files.ts";
import { normalizeIsbn } from "#shared/rules/isbn.ts";
import type { Actor } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { adminCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import { CsvImportBodySchema, isPlainLine } from "../validation/schemas.ts";
import { BookFields } from "./input.ts";
import { randomId } from "./uploads.ts";

export const CatalogueBodySchema = CsvImportBodySchema(MAX_CATALOGUE_ROWS, `Import at most ${MAX_CATALOGUE_ROWS} books at a time`);

const fileName = (what: string, extensions: RegExp, kinds: string) =>
  z
    .string({ error: `Name the ${what} file` })
    .trim()
    .min(1, `Name the ${what} file`)
    .max(255, "Keep the file name under 255 characters")
    .refine((name) => isPlainLine(name) && !/[/\\]/.test(name), "Give the file's name alone, without a folder")
    .refine((name) => extensions.test(name), `The ${what} file must be ${kinds}`);

const RowSchema = z.object({
  ...BookFields,
  pdfFile: fileName("PDF", /\.pdf$/i, "a .pdf"),
  coverFile: fileName("cover", /\.(jpe?g|png|webp)$/i, "a .jpg, .png or .webp image").nullish(),
});

type Row = z.output<typeof RowSchema>;

/** Header names a spreadsheet may carry (any case, spaces and dashes ignored), as the fields they fill. */
const ALIASES: Record<string, string> = {
  title: "title",
  author: "author1",
  author1: "author1",
  author2: "author2",
  authors: "authors",
  isbn: "isbn",
  grade: "gradeLevel",
  gradelevel: "gradeLevel",
  standard: "gradeLevel",
  subject: "subject",
  description: "description",
  pdf: "pdfFile",
  pdffile: "pdfFile",
  pdffilename: "pdfFile",
  cover: "coverFile",
  coverfile: "coverFile",
  coverfilename: "coverFile",
};

const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);

/** A row's cells as the book's fields: known headers only, blank cells as none, "Standard 7" as 7, "A; B" as two authors. */
function fieldsOf(cells: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [header, value] of Object.entries(cells)) {
    const name = ALIASES[header.toLowerCase().replace(/[\s_-]/g, "")];
    if (name && !(name in fields)) fields[name] = blank(value);
  }
  const { authors, ...rest } = fields;
  if (typeof authors === "string" && rest.author1 === undefined) {
    const [author1, author2, ...more] = authors.split(";").map((name) => name.trim());
    Object.assign(rest, { author1, author2: author2 || null }, more.length ? { tooManyAuthors: true } : {});
  }
  const grade = rest.gradeLevel;
  if (typeof grade === "string") {
    const number = /^(?:standard|grade)?\s*(\d{1,2})$/i.exec(grade.trim());
    rest.gradeLevel = number ? Number(number[1]) : grade;
  }
  return rest;
}

/** One problem of a row: the field (as the template names the column) and the sentence. */
export interface RowProblem {
  field: string;
  message: string;
}

export interface CheckedRow {
  row: number;
  title: string;
  pdfFile: string;
  coverFile: string | null;
  problems: RowProblem[];
}

export interface CatalogueCheck {
  rows: CheckedRow[];
  /** Rows with a problem; `existing` of them only because their ISBN is in the catalogue already. */
  invalid: number;
  existing: number;
}

const text = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/**
 * Checks every row (all its problems), then between rows (a PDF named twice, an ISBN twice) and
 * against the catalogue (an ISBN a book has): one read of D1 whatever the file's length.
 */
export async function checkCatalogue(
  db: Db,
  rows: Record<string, unknown>[],
  rowNumbers?: number[],
): Promise<{ check: CatalogueCheck; valid: (Row & { row: number })[] }> {
  const numbers = rowNumbers?.length === rows.length ? rowNumbers : rows.map((_, i) => i + 2);
  const parsed = rows.map((cells, i) => {
    const fields = fieldsOf(cells);
    const result = RowSchema.safeParse(fields);
    const problems: RowProblem[] = result.success
      ? []
      : result.error.issues.map((issue) => ({ field: String(issue.path[0] ?? "row"), message: issue.message }));
    if (fields.tooManyAuthors) problems.push({ field: "authors", message: "Name at most two authors, separated by ;" });
    const checked: CheckedRow = {
      row: numbers[i]!,
      title: text(fields.title).trim(),
      pdfFile: text(fields.pdfFile).trim(),
      coverFile: text(fields.coverFile).trim() || null,
      problems,
    };
    return { checked, data: result.success ? result.data : null };
  });

  sameIn(parsed, (row) => (row.checked.pdfFile ? fileKey(row.checked.pdfFile) : null), "pdfFile", "the same PDF file as");
  sameIn(parsed, (row) => (row.data?.isbn ? normalizeIsbn(row.data.isbn) : null), "isbn", "the same ISBN as");

  const isbns = parsed.flatMap((row) => (row.data?.isbn ? [normalizeIsbn(row.data.isbn)] : []));
  const taken = isbns.length
    ? await db.all<{ id: number; title: string; isbn: string }>(sql`
        SELECT id, title, isbn FROM books
        WHERE isbn IS NOT NULL AND replace(replace(upper(isbn), '-', ''), ' ', '') IN (SELECT value FROM json_each(${JSON.stringify(isbns)}))`)
    : [];
  const byIsbn = new Map(taken.map((book) => [normalizeIsbn(book.isbn), book]));
  let existing = 0;
  for (const row of parsed) {
    const book = row.data?.isbn ? byIsbn.get(normalizeIsbn(row.data.isbn)) : undefined;
    if (!book) continue;
    if (!row.checked.problems.length) existing++;
    row.checked.problems.push({ field: "isbn", message: `A book with this ISBN exists: "${book.title}" (book ${book.id})` });
  }
  const checkedRows = parsed.map((row) => row.checked);
  const invalid = checkedRows.filter((row) => row.problems.length).length;
  const valid = parsed.flatMap((row) => (row.data && !row.checked.problems.length ? [{ ...row.data, row: row.checked.row }] : []));
  return { check: { rows: checkedRows, invalid, existing }, valid };
}

/** Flags rows sharing a key, each naming the others: "Row 7 has the same ISBN as row 3". */
function sameIn<R extends { checked: CheckedRow }>(rows: R[], keyOf: (row: R) => string | null, field: string, what: string) {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key) groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const row of group) {
      const others = group.filter((other) => other !== row).map((other) => other.checked.row);
      row.checked.problems.push({ field, message: `Row ${row.checked.row} has ${what} ${rowList(others)}` });
    }
  }
}

export interface CreatedRow {
  row: number;
  bookId: number;
  title: string;
  pdfFile: string;
  coverFile: string | null;
}

// A bound value stays well under D1's 2 MB per string: the rows travel in pieces of this many bytes of JSON.
const CHUNK_BYTES = 512 * 1024;

function chunksOf<T>(items: T[]): { offset: number; json: string }[] {
  const chunks: { offset: number; json: string }[] = [];
  let start = 0;
  let size = 0;
  items.forEach((item, i) => {
    const length = JSON.stringify(item).length + 1;
    if (i > start && size + length > CHUNK_BYTES) {
      chunks.push({ offset: start, json: JSON.stringify(items.slice(start, i)) });
      start = i;
      size = 0;
    }
    size += length;
  });
  chunks.push({ offset: start, json: JSON.stringify(items.slice(start)) });
  return chunks;
}

/**
 * Creates the import and its books in one transaction of a few statements whatever the file's
 * length (rows travel as JSON; D1 counts statements per invocation). The books take consecutive
 * ids from the one the import records, past any id AUTOINCREMENT ever gave (sqlite_sequence), so
 * row i's book is first_book_id + i without a read back. Each book gets its own audit entry.
 */
async function createCatalogue(db: Db, actor: Actor, rows: (Row & { row: number })[], now = Date.now()) {
  const importId = randomId();
  const values = rows.map((row) => ({
    row: row.row,
    title: row.title,
    author1: row.author1,
    author2: row.author2 ?? null,
    description: row.description ?? "",
    isbn: row.isbn ?? null,
    gradeLevel: row.gradeLevel ?? null,
    subject: row.subject ?? null,
    provisional: true,
    pdfFile: row.pdfFile,
    coverFile: row.coverFile ?? null,
  }));
  const first = sql`(SELECT first_book_id FROM book_imports WHERE id = ${importId})`;
  const statements: SQL[] = [
    sql`INSERT INTO book_imports (id, admin_id, row_count, first_book_id, created_at)
      VALUES (${importId}, ${actor.id}, ${rows.length},
        max(coalesce((SELECT max(id) FROM books), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'books'), 0)) + 1, ${now})
      RETURNING first_book_id AS firstBookId`,
  ];
  for (const { offset, json } of chunksOf(values)) {
    // D1 binds a JS number as a REAL: the sum is made an integer again (else the audit's id reads "12.0").
    const id = sql`cast(${first} + ${offset} + key AS integer)`;
    statements.push(
      sql`INSERT INTO books (id, title, author1, author2, description, isbn, grade_level, subject, provisional)
        SELECT ${id}, value ->> 'title', value ->> 'author1', value ->> 'author2', value ->> 'description', value ->> 'isbn',
          value ->> 'gradeLevel', value ->> 'subject', 1
        FROM json_each(${json})`,
      sql`INSERT INTO book_import_rows (import_id, row, book_id, title, pdf_file, cover_file)
        SELECT ${importId}, value ->> 'row', ${id}, value ->> 'title', value ->> 'pdfFile', value ->> 'coverFile' FROM json_each(${json})`,
      sql`INSERT INTO audit_log (admin_id, admin_email, action, entity_type, entity_id, after, at)
        SELECT ${actor.id}, ${actor.email}, 'book.create', 'book', cast(${id} AS text),
          json_set(json_remove(value, '$.row', '$.pdfFile', '$.coverFile'), '$.id', ${id}, '$.importId', ${importId}), ${now}
        FROM json_each(${json})`,
    );
  }
  const [created] = await runTransaction(db, statements);
  const firstBookId = Number(created!.results[0]!.firstBookId);
  const books: CreatedRow[] = values.map((row, i) => ({
    row: row.row,
    bookId: firstBookId + i,
    title: row.title,
    pdfFile: row.pdfFile,
    coverFile: row.coverFile,
  }));
  return { importId, books };
}

function refusal(check: CatalogueCheck, total: number) {
  const error = `${check.invalid} of ${total} rows cannot be imported; nothing was saved.`;
  // Only catalogue duplicates: the file is right but clashes with what exists, as a taken slug does.
  return failed({ kind: check.invalid === check.existing ? "conflict" : "invalid", error, rows: check });
}

/** Checks a file's rows and says what is wrong with each, saving nothing (the import page's preview). */
export const checkCatalogueCommand = adminCommand(CatalogueBodySchema, async ({ db }, { rows, rowNumbers }) =>
  done((await checkCatalogue(db, rows, rowNumbers)).check),
);

/** Every row's book or none; answers the import's id and each row's book and files. */
export const importCatalogueCommand = adminCommand(CatalogueBodySchema, async ({ db, actor }, { rows, rowNumbers }) => {
  const { check, valid } = await checkCatalogue(db, rows, rowNumbers);
  if (check.invalid) return refusal(check, rows.length);
  return done(await createCatalogue(db, actor, valid));
});

import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, runTransaction } from "../db/client.ts";
import { auditLog, type Book, bookAccess, books, schools, uploads } from "../db/schema.ts";
import { isValidIsbn, normalizeIsbn } from "../isbn.ts";
import { toFtsQuery, toTeacherBook } from "../library.ts";
import { type Actor, auditEntry } from "./audit.ts";
import { abortUploads } from "./book-uploads.ts";

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

const GRADE = "Grade must be 1 to 12";

const BookFields = {
  title: z.string().trim().min(1, "Enter a title").max(500, "Keep the title under 500 characters"),
  author1: z.string().trim().min(1, "Enter the first author").max(200, "Keep the author under 200 characters"),
  author2: optionalText(200),
  description: z.string().trim().max(20_000, "Keep the description under 20,000 characters").nullish(),
  isbn: IsbnSchema.nullish().transform((value) => (value === undefined ? undefined : value || null)),
  gradeLevel: z.number(GRADE).int(GRADE).min(1, GRADE).max(12, GRADE).nullish(),
  subject: optionalText(100),
};

export const BookCreateSchema = z.object(BookFields);
export const BookUpdateSchema = z
  .object(BookFields)
  .partial()
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), "Send at least one field to change");

export type BookCreate = z.infer<typeof BookCreateSchema>;
export type BookUpdate = z.infer<typeof BookUpdateSchema>;

export function toAdminBook(book: Book, schoolCount: number) {
  const { id, title, author1, author2, description, isbn, gradeLevel, subject, thumbnailPath, pdfPath, pageCount, createdAt } =
    toTeacherBook(book);
  return {
    id,
    title,
    author1,
    author2,
    description,
    isbn,
    gradeLevel,
    subject,
    thumbnailPath,
    pdfPath,
    pdfSize: book.pdfSize,
    pageCount,
    createdAt,
    updatedAt: book.updatedAt,
    schoolCount,
  };
}

export type AdminBook = ReturnType<typeof toAdminBook>;

// Raw queries name their columns like drizzle's selects, so rows map straight onto Book.
const BOOK_COLUMNS = sql.raw(
  "books.id, books.title, books.author1, books.author2, books.description, books.isbn, books.grade_level AS gradeLevel, " +
    "books.subject, books.cover_key AS coverKey, books.pdf_key AS pdfKey, books.pdf_size AS pdfSize, " +
    "books.page_count AS pageCount, books.created_at AS createdAt, books.updated_at AS updatedAt",
);
const RANK = "bm25(books_fts, 10.0, 5.0, 3.0, 3.0, 1.0)";

export type BookSort = "title" | "createdAt" | "grade" | "relevance";

/**
 * ORDER BY for a sort. id breaks ties so pages never overlap; title and createdAt walk their
 * indexes (an index on one column ends in the rowid). Grade has no index: a top-N sort, books
 * without a grade last.
 */
function orderBy(sort: BookSort, desc: boolean, c: { title: string; createdAt: string; grade: string; id: string; rank: string }) {
  const dir = desc ? "DESC" : "ASC";
  if (sort === "createdAt") return `${c.createdAt} ${dir}, ${c.id} ${dir}`;
  if (sort === "grade") return `${c.grade} ${dir} NULLS LAST, ${c.title} ASC, ${c.id} ASC`;
  if (sort === "relevance") return `${c.rank} ASC, ${c.title} ASC, ${c.id} ASC`;
  return `${c.title} ${dir}, ${c.id} ${dir}`;
}

export interface BookListQuery {
  query?: string;
  page: number;
  pageSize: number;
  sort?: "title" | "createdAt" | "grade";
  dir?: "asc" | "desc";
}

/**
 * One page of the catalogue and the total on the same filter, in one round trip. The page is
 * materialised before the school counts, so only its rows pay for the correlated subquery.
 */
export async function listAdminBooks(db: Db, input: BookListQuery) {
  const match = input.query?.trim() ? toFtsQuery(input.query) : null;
  if (input.query?.trim() && !match) return { books: [] as AdminBook[], total: 0, page: input.page, pageSize: input.pageSize };
  const sort: BookSort = input.sort ?? (match ? "relevance" : "title");
  const desc = input.dir === "desc";
  const inner = sql.raw(
    orderBy(sort, desc, { title: "books.title", createdAt: "books.created_at", grade: "books.grade_level", id: "books.id", rank: RANK }),
  );
  const outer = sql.raw(orderBy(sort, desc, { title: "title", createdAt: "createdAt", grade: "gradeLevel", id: "id", rank: "rank" }));
  const offset = (input.page - 1) * input.pageSize;
  const source = match
    ? sql`SELECT ${BOOK_COLUMNS}, ${sql.raw(RANK)} AS rank FROM books_fts JOIN ${books} ON ${books.id} = books_fts.rowid
          WHERE books_fts MATCH ${match}`
    : sql`SELECT ${BOOK_COLUMNS}, 0 AS rank FROM ${books}`;
  // One D1 batch (drizzle's own batch cannot carry raw statements with parameters).
  const [rows, count] = await runTransaction(db, [
    sql`WITH page AS MATERIALIZED (${source} ORDER BY ${inner} LIMIT ${input.pageSize} OFFSET ${offset})
      SELECT page.*, (SELECT count(*) FROM ${bookAccess} WHERE ${bookAccess.bookId} = page.id) AS schoolCount
      FROM page ORDER BY ${outer}`,
    match ? sql`SELECT count(*) AS total FROM books_fts WHERE books_fts MATCH ${match}` : sql`SELECT count(*) AS total FROM ${books}`,
  ]);
  return {
    books: (rows!.results as (Book & { schoolCount: number })[]).map((row) => toAdminBook(row, row.schoolCount)),
    total: Number(count!.results[0]?.total ?? 0),
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** The picker's quick search: the best 20 matches by relevance. */
export async function searchAdminBooks(db: Db, query: string) {
  const match = toFtsQuery(query);
  if (!match) return [];
  const rows = await db.all<Book>(sql`
    SELECT ${BOOK_COLUMNS} FROM books_fts JOIN ${books} ON ${books.id} = books_fts.rowid
    WHERE books_fts MATCH ${match} ORDER BY ${sql.raw(RANK)}, ${books.title} LIMIT 20`);
  return rows.map((book) => ({
    id: book.id,
    title: book.title || "Untitled Book",
    description: book.description,
    thumbnail: toTeacherBook(book).thumbnailPath,
    authors: [book.author1, book.author2].filter(Boolean).join(", "),
    isbn: book.isbn,
  }));
}

export async function findBook(db: Db, bookId: number): Promise<Book | null> {
  const [book] = await db.select().from(books).where(eq(books.id, bookId)).limit(1);
  return book ?? null;
}

/** A book with its school count, as lists show it; null when there is no such book. */
export async function getAdminBook(db: Db, bookId: number): Promise<AdminBook | null> {
  const [row] = await db
    .select({ book: books, schoolCount: sql<number>`(SELECT count(*) FROM ${bookAccess} WHERE ${bookAccess.bookId} = ${books.id})` })
    .from(books)
    .where(eq(books.id, bookId))
    .limit(1);
  return row ? toAdminBook(row.book, row.schoolCount) : null;
}

/** A book and every school that has it. */
export async function getAdminBookDetail(db: Db, bookId: number) {
  const [found, assigned] = await db.batch([
    db.select().from(books).where(eq(books.id, bookId)).limit(1),
    db
      .select({ id: schools.id, schoolName: schools.name, slug: schools.slug })
      .from(bookAccess)
      .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
      .where(eq(bookAccess.bookId, bookId))
      .orderBy(asc(schools.name), asc(schools.id)),
  ]);
  const [book] = found;
  return book ? { ...toAdminBook(book, assigned.length), schools: assigned } : null;
}

/** Blank optional text becomes NULL, a missing description the empty string the column wants. */
function bookValues(input: BookUpdate) {
  const { description, ...rest } = input;
  return { ...rest, ...(description === undefined ? {} : { description: description ?? "" }) };
}

export async function createBook(db: Db, actor: Actor, input: BookCreate, now = Date.now()): Promise<AdminBook> {
  const values = bookValues(input) as typeof books.$inferInsert;
  // The new id only exists inside the batch: last_insert_rowid() is the book's (the FTS trigger's
  // own insert does not leak out of the trigger), so the audit row names it without a second trip.
  const [[book]] = await db.batch([
    db.insert(books).values(values).returning(),
    db.insert(auditLog).values({
      adminId: actor.id,
      adminEmail: actor.email,
      action: "book.create",
      entityType: "book",
      entityId: sql`cast(last_insert_rowid() AS text)`,
      after: sql`json_patch(${JSON.stringify(values)}, json_object('id', last_insert_rowid()))`,
      at: now,
    }),
  ]);
  return toAdminBook(book!, 0);
}

export async function updateBook(db: Db, actor: Actor, bookId: number, input: BookUpdate, now = Date.now()) {
  const before = await findBook(db, bookId);
  if (!before) return null;
  const changes = { ...bookValues(input), updatedAt: Math.max(now, (before.updatedAt ?? 0) + 1) };
  const [[after]] = await db.batch([
    db.update(books).set(changes).where(eq(books.id, bookId)).returning(),
    auditEntry(db, actor, { action: "book.update", entityType: "book", entityId: bookId, before, after: changes }, now),
  ]);
  return after ? getAdminBook(db, bookId) : null;
}

/**
 * Deletes the row (assignments, progress and upload rows go with it by cascade), then what it
 * pointed at in R2: in-flight multipart uploads and the cover and PDF objects. Storage is cleaned
 * after the commit, so a failure there leaves an orphan object, never a book without its file.
 */
export async function deleteBook(db: Db, bucket: R2Bucket, actor: Actor, bookId: number, now = Date.now()): Promise<boolean> {
  const [found, pending] = await db.batch([
    db.select().from(books).where(eq(books.id, bookId)).limit(1),
    db.select().from(uploads).where(eq(uploads.bookId, bookId)),
  ]);
  const [before] = found;
  if (!before) return false;
  await db.batch([
    db.delete(books).where(eq(books.id, bookId)),
    auditEntry(db, actor, { action: "book.delete", entityType: "book", entityId: bookId, before }, now),
  ]);
  await abortUploads(bucket, pending);
  const keys = [before.coverKey, before.pdfKey].filter((key): key is string => !!key);
  if (keys.length) await bucket.delete(keys);
  return true;
}

/** Gives the book to every school that lacks it; returns how many new assignments were made. */
export async function assignToAllSchools(db: Db, actor: Actor, bookId: number, now = Date.now()): Promise<number> {
  const [result] = await runTransaction(db, [
    sql`INSERT INTO ${bookAccess} (school_id, book_id, created_at)
      SELECT ${schools.id}, ${bookId}, ${now} FROM ${schools} WHERE true ON CONFLICT DO NOTHING`,
    // changes() is the INSERT just before it in the same transaction.
    auditEntry(
      db,
      actor,
      { action: "book.assign_all", entityType: "book", entityId: bookId, after: sql`json_object('assigned', changes())` },
      now,
    ).getSQL(),
  ]);
  return result!.meta.changes;
}

export async function listAccess(db: Db, filter: { schoolId?: number; bookId?: number }) {
  return db
    .select({ schoolId: bookAccess.schoolId, bookId: bookAccess.bookId, schoolName: schools.name, slug: schools.slug, title: books.title })
    .from(bookAccess)
    .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(
      sql`${filter.schoolId === undefined ? sql`1` : eq(bookAccess.schoolId, filter.schoolId)}
        AND ${filter.bookId === undefined ? sql`1` : eq(bookAccess.bookId, filter.bookId)}`,
    )
    .orderBy(asc(schools.name), asc(books.title), asc(bookAccess.schoolId), asc(bookAccess.bookId))
    .limit(1000);
}

/** Ids among `ids` that `table` does not have (the ids travel as one JSON parameter). */
async function missingIds(db: Db, table: typeof schools | typeof books, ids: number[]): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    sql`SELECT value AS id FROM json_each(${JSON.stringify(ids)}) WHERE value NOT IN (SELECT id FROM ${table})`,
  );
  return rows.map((row) => row.id);
}

export type GrantResult = { ok: true; created: number } | { ok: false; error: string };

/** Assigns every (school, book) pair in one INSERT ... SELECT; pairs that exist are left alone. */
export async function grantAccess(
  db: Db,
  actor: Actor,
  input: { schoolIds: number[]; bookIds: number[] },
  now = Date.now(),
): Promise<GrantResult> {
  const schoolIds = [...new Set(input.schoolIds)];
  const bookIds = [...new Set(input.bookIds)];
  const missingSchools = await missingIds(db, schools, schoolIds);
  if (missingSchools.length) return { ok: false, error: `schoolIds: No school with id ${missingSchools.join(", ")}` };
  const missingBooks = await missingIds(db, books, bookIds);
  if (missingBooks.length) return { ok: false, error: `bookIds: No book with id ${missingBooks.join(", ")}` };
  const [result] = await runTransaction(db, [
    sql`INSERT INTO ${bookAccess} (school_id, book_id, created_at)
      SELECT s.value, b.value, ${now} FROM json_each(${JSON.stringify(schoolIds)}) AS s, json_each(${JSON.stringify(bookIds)}) AS b
      WHERE true ON CONFLICT DO NOTHING`,
    auditEntry(
      db,
      actor,
      {
        action: "book_access.grant",
        entityType: "book_access",
        after: sql`json_object('schoolIds', json(${JSON.stringify(schoolIds)}), 'bookIds', json(${JSON.stringify(bookIds)}), 'created', changes())`,
      },
      now,
    ).getSQL(),
  ]);
  return { ok: true, created: result!.meta.changes };
}

export async function revokeAccess(db: Db, actor: Actor, schoolId: number, bookId: number, now = Date.now()): Promise<boolean> {
  const where = sql`${bookAccess.schoolId} = ${schoolId} AND ${bookAccess.bookId} = ${bookId}`;
  const [before] = await db.select().from(bookAccess).where(where).limit(1);
  if (!before) return false;
  await db.batch([
    db.delete(bookAccess).where(where),
    auditEntry(db, actor, { action: "book_access.revoke", entityType: "book_access", entityId: `${schoolId}:${bookId}`, before }, now),
  ]);
  return true;
}

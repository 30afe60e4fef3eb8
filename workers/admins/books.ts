import { asc, eq, type SQL, sql } from "drizzle-orm";
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
const RANK = sql.raw("bm25(books_fts, 10.0, 5.0, 3.0, 3.0, 1.0)");

type BookListSort = "title" | "createdAt" | "grade";

/**
 * ORDER BY for a sort. id breaks ties so pages never overlap; title and createdAt walk their
 * indexes (an index on one column ends in the rowid). Grade has no index: a top-N sort, books
 * without a grade last.
 */
function orderBy(sort: BookListSort, desc: boolean) {
  const dir = desc ? "DESC" : "ASC";
  if (sort === "createdAt") return sql.raw(`books.created_at ${dir}, books.id ${dir}`);
  if (sort === "grade") return sql.raw(`books.grade_level ${dir} NULLS LAST, books.title ASC, books.id ASC`);
  return sql.raw(`books.title ${dir}, books.id ${dir}`);
}

const BY_RELEVANCE = sql.raw("page.rank, books.title, books.id");

/**
 * CTEs `n(total)` and `page(id, rank)`: the search's hit count and one page of its hits by
 * relevance (bm25, then title, then id). bm25 has to score every hit, so it runs on FTS rowids
 * alone; only the hits that rank no worse than the page's last one (with any ties at its rank;
 * all of them on the last page) are joined to books for the title that breaks ties.
 */
function rankedPage(match: string, limit: number, offset: number) {
  return sql`hits AS MATERIALIZED (SELECT rowid AS id, ${RANK} AS rank FROM books_fts WHERE books_fts MATCH ${match}),
    n AS (SELECT count(*) AS total FROM hits),
    page AS MATERIALIZED (
      SELECT hits.id, hits.rank FROM hits JOIN ${books} ON ${books.id} = hits.id
      WHERE hits.rank <= coalesce((SELECT rank FROM hits ORDER BY rank LIMIT 1 OFFSET ${offset + limit - 1}), 9e999)
      ORDER BY hits.rank, ${books.title}, ${books.id} LIMIT ${limit} OFFSET ${offset})`;
}

/**
 * CTEs `n(total)` and `page(id)` for a search in an explicit order, without bm25. A rare
 * word reads its hits and sorts them (one books lookup each); grade, which has no index, always
 * does. A common word walks the sort's index instead and keeps the books among the hits (the `+`
 * stops SQLite from driving the loop from the hits): a page of it ends after a few dozen entries.
 * Both plans are written out and the hit count sets the LIMIT of the one not taken to 0, which
 * SQLite checks before running it (a WHERE on the count would not be: it holds a subquery).
 */
function sortedPage(match: string, sort: BookListSort, order: SQL, limit: number, offset: number) {
  const hits = sql`SELECT rowid FROM books_fts WHERE books_fts MATCH ${match}`;
  const n = sql`n AS MATERIALIZED (SELECT count(*) AS total FROM books_fts WHERE books_fts MATCH ${match})`;
  const read = (count: SQL) => sql`SELECT id FROM (
    SELECT ${books.id} AS id FROM ${books} WHERE ${books.id} IN (${hits}) ORDER BY ${order} LIMIT ${count} OFFSET ${offset})`;
  if (sort === "grade") return sql`${n}, page AS MATERIALIZED (${read(sql`${limit}`)})`;
  // Measured at 100,000 books: a walk through the whole index takes about 4.5 ms, reading a hit
  // 0.5 to 0.8 µs. Once a twentieth of the catalogue matches, even a whole walk is not slower.
  const walk = sql`(SELECT total FROM n) * 20 > (SELECT max(${books.id}) FROM ${books})`;
  return sql`${n}, page AS MATERIALIZED (
    ${read(sql`CASE WHEN ${walk} THEN 0 ELSE ${limit} END`)}
    UNION ALL
    SELECT id FROM (
      SELECT ${books.id} AS id FROM ${books} WHERE +${books.id} IN (${hits})
      ORDER BY ${order} LIMIT CASE WHEN ${walk} THEN ${limit} ELSE 0 END OFFSET ${offset}))`;
}

export interface BookListQuery {
  query?: string;
  page: number;
  pageSize: number;
  /** Without a sort, a search is ordered by relevance and the whole catalogue by title. */
  sort?: BookListSort;
  dir?: "asc" | "desc";
}

/**
 * One page of the catalogue and the total on the same filter, in one statement. The page is
 * chosen on ids, then only its rows are read in full and pay for the school count; the LEFT JOIN
 * keeps one row (with the total) when the page is empty.
 */
export async function listAdminBooks(db: Db, input: BookListQuery) {
  const match = input.query?.trim() ? toFtsQuery(input.query) : null;
  if (input.query?.trim() && !match) return { books: [] as AdminBook[], total: 0, page: input.page, pageSize: input.pageSize };
  const offset = (input.page - 1) * input.pageSize;
  let order: SQL;
  let ctes: SQL;
  if (match && !input.sort) {
    order = BY_RELEVANCE;
    ctes = rankedPage(match, input.pageSize, offset);
  } else {
    order = orderBy(input.sort ?? "title", input.dir === "desc");
    ctes = match
      ? sortedPage(match, input.sort ?? "title", order, input.pageSize, offset)
      : sql`n AS (SELECT count(*) AS total FROM ${books}),
          page AS MATERIALIZED (SELECT ${books.id} AS id FROM ${books} ORDER BY ${order} LIMIT ${input.pageSize} OFFSET ${offset})`;
  }
  const rows = await db.all<Book & { schoolCount: number; total: number }>(sql`WITH ${ctes}
    SELECT ${BOOK_COLUMNS}, (SELECT count(*) FROM ${bookAccess} WHERE ${bookAccess.bookId} = ${books.id}) AS schoolCount, n.total
    FROM n LEFT JOIN page ON true LEFT JOIN ${books} ON ${books.id} = page.id
    ORDER BY ${order}`);
  return {
    books: rows.filter((row) => row.id !== null).map((row) => toAdminBook(row, row.schoolCount)),
    total: rows[0]?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** The picker's quick search: the best 20 matches by relevance. */
export async function searchAdminBooks(db: Db, query: string) {
  const match = toFtsQuery(query);
  if (!match) return [];
  const rows = await db.all<Book>(sql`WITH ${rankedPage(match, 20, 0)}
    SELECT ${BOOK_COLUMNS} FROM page JOIN ${books} ON ${books.id} = page.id ORDER BY ${BY_RELEVANCE}`);
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

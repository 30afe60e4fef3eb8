import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books } from "../db/schema.ts";
import { recentReading } from "./progress.ts";

/** A book as teachers see it: no storage keys, links to the Worker's own endpoints instead. */
export function toTeacherBook(book: Book) {
  return {
    id: book.id,
    title: book.title,
    author1: book.author1,
    author2: book.author2,
    description: book.description,
    isbn: book.isbn,
    gradeLevel: book.gradeLevel,
    subject: book.subject,
    pageCount: book.pageCount,
    thumbnailPath: coverPath(book),
    // Teachers never get the file's address: they read page images once the pages are ready.
    hasPdf: Boolean(book.pdfKey),
    readable: Boolean(book.pageSetId),
    createdAt: book.createdAt,
  };
}

export type TeacherBook = ReturnType<typeof toTeacherBook>;

import { coverPath } from "../books/category.ts";

const MAX_TERMS = 8;

/**
 * Turns what a person typed into a safe FTS5 prefix query: words only (letters and digits),
 * each quoted and prefix-matched, all required. Quotes, `*`, `NEAR`, `OR`, column filters and
 * unbalanced parentheses become plain words or disappear, so no input can be a syntax error.
 * Returns null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  // An ISBN as written ("978-1-955010"): the index also holds it without hyphens, as one token, so
  // it becomes one prefix term instead of short ones like "1"* that match half the catalogue.
  const isbn = input.trim();
  if (/^\d[\d-]*[\dXx]$/.test(isbn) && isbn.includes("-") && isbn.replace(/\D/g, "").length >= 6) {
    return `"${isbn.replace(/-/g, "").slice(0, 40)}"*`;
  }
  const words = input
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_TERMS)
    .map((word) => word.slice(0, 40));
  return words.length ? words.map((word) => `"${word}"*`).join(" ") : null;
}

// Raw FTS queries return columns as named here, so they map onto Book like drizzle's own selects.
const BOOK_COLUMNS = sql.raw(
  [
    "id",
    "title",
    "author1",
    "author2",
    "description",
    "isbn",
    "grade_level AS gradeLevel",
    "subject",
    "cover_key AS coverKey",
    "pdf_key AS pdfKey",
    "pdf_size AS pdfSize",
    "page_count AS pageCount",
    "created_at AS createdAt",
    "updated_at AS updatedAt",
  ]
    .map((column) => `books.${column}`)
    .join(", "),
);

// Title matches rank first, then authors, subject and ISBN, then the description.
const RANK = sql`bm25(books_fts, 10.0, 5.0, 3.0, 3.0, 1.0)`;

/**
 * FROM and WHERE for the school's books that match. The match walks the catalogue-wide hits once
 * and drops every book not on the school's shelf, read once into a temporary index, so only the
 * school's own hits reach the books lookup and bm25. The `+` keeps SQLite from handing the IN list
 * to FTS5, which would re-run the (prefix) match once per book on the shelf.
 */
function schoolMatches(schoolId: number, match: string) {
  return sql`FROM books_fts JOIN ${books} ON ${books.id} = books_fts.rowid
    WHERE books_fts MATCH ${match}
      AND +books_fts.rowid IN (SELECT ${bookAccess.bookId} FROM ${bookAccess} WHERE ${bookAccess.schoolId} = ${schoolId})`;
}

export interface ShelfSummary {
  total: number;
  /** How many of the school's books each (subject, grade) pair has: the chips and their counts. */
  groups: { subject: string | null; gradeLevel: number | null; count: number }[];
  /** The first books by title; all of them when `total` is not larger. */
  firstBooks: Book[];
  /** The reader's 'Continue reading' row, fetched in the same batch. */
  reading: Awaited<ReturnType<typeof recentReading>>;
}

/**
 * What the dashboard needs to paint, whatever the size of the shelf: the first page of books, the
 * category counts and the teacher's 'Continue reading' row, as one D1 batch (one round trip).
 */
export async function summariseShelf(db: Db, schoolId: number, firstPage: number, readerId: number): Promise<ShelfSummary> {
  const [groups, firstRows, reading] = await db.batch([
    db
      .select({ subject: books.subject, gradeLevel: books.gradeLevel, count: sql<number>`count(*)` })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .groupBy(books.subject, books.gradeLevel),
    db
      .select({ book: books })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .orderBy(asc(books.title), asc(books.id))
      .limit(firstPage),
    recentReading(db, readerId, schoolId),
  ]);
  return { total: groups.reduce((n, g) => n + g.count, 0), groups, firstBooks: firstRows.map((r) => r.book), reading };
}

/** Every book assigned to the school (optionally matching a search), in one query. */
export async function listSchoolBooks(db: Db, schoolId: number, search?: string): Promise<Book[]> {
  const match = search ? toFtsQuery(search) : null;
  if (search && !match) return [];
  if (!match) {
    const rows = await db
      .select({ book: books })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .orderBy(asc(books.title), asc(books.id));
    return rows.map((r) => r.book);
  }
  return db.all<Book>(sql`SELECT ${BOOK_COLUMNS} ${schoolMatches(schoolId, match)} ORDER BY ${RANK}, ${books.title}`);
}

/** The search dropdown: the best few matches among the school's books. */
export async function searchSchoolBooks(db: Db, schoolId: number, query: string, limit = 8) {
  const match = toFtsQuery(query);
  if (!match) return [];
  return db.all<Pick<Book, "id" | "title" | "author1" | "author2" | "subject" | "gradeLevel">>(sql`
    SELECT ${books.id} AS id, ${books.title} AS title, ${books.author1} AS author1, ${books.author2} AS author2,
           ${books.subject} AS subject, ${books.gradeLevel} AS gradeLevel
    ${schoolMatches(schoolId, match)}
    ORDER BY ${RANK}, ${books.title}
    LIMIT ${limit}`);
}

/** One book, only if it is assigned to the school; any other book is simply not there. */
export async function findSchoolBook(db: Db, schoolId: number, bookId: number): Promise<Book | null> {
  const [row] = await db
    .select({ book: books })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId)))
    .limit(1);
  return row?.book ?? null;
}

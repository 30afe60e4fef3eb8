import { and, eq, sql } from "drizzle-orm";
import { dayOf, daysLeft, ENDING_SOON_DAYS } from "#shared/rules/licence.ts";
import { type BookRow, pdfStateOf, preparingPdfSize } from "../books/pdf-state.ts";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books, schools } from "../db/schema.ts";
import { activeOn } from "../licences/list.ts";
import { compareTitles } from "./shelf-order.ts";

/** A book as teachers see it: no storage keys, links to the Worker's own endpoints instead. */
/**
 * A book as teachers see it. Its `licenceEndsOn`, the last day of the school's licence (null: no end),
 * becomes `availableUntil` when that is within ENDING_SOON_DAYS: the card and the page say so.
 */
export function toTeacherBook(book: BookRow & { licenceEndsOn?: string | null }) {
  const pdf = pdfStateOf(book);
  const licenceEndsOn = book.licenceEndsOn ?? null;
  const left = daysLeft({ endsOn: licenceEndsOn }, dayOf(Date.now()));
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
    // Teachers never get the file's address: they read page images once the pages are ready. A
    // PDF whose pages are still being prepared counts: the book says so rather than "no PDF".
    hasPdf: pdf !== "none",
    readable: pdf === "ready",
    createdAt: book.createdAt,
    availableUntil: left !== null && left <= ENDING_SOON_DAYS ? licenceEndsOn : null,
  };
}

export type TeacherBook = ReturnType<typeof toTeacherBook>;

/** A book of the teacher's library list: as teachers see it, with their star. */
export function toLibraryBook(book: ShelfBook) {
  return { ...toTeacherBook(book), starred: book.starred };
}

export type LibraryBook = ReturnType<typeof toLibraryBook>;

import { coverPath } from "#shared/rules/book-category.ts";

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
    "page_set_id AS pageSetId",
    "created_at AS createdAt",
    "updated_at AS updatedAt",
  ]
    .map((column) => `books.${column}`)
    .join(", "),
);

// Title matches rank first, then authors, subject and ISBN, then the description.
/** Teachers see a book while their school's licence for it is active today (UTC: docs/decisions/0028). */
export const licensedToday = () => activeOn(dayOf(Date.now()));

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
      AND +books_fts.rowid IN (SELECT ${bookAccess.bookId} FROM ${bookAccess} WHERE ${bookAccess.schoolId} = ${schoolId} AND ${licensedToday()})`;
}

/** A book of the shelf with whether this teacher starred it ('My books'). */
export type ShelfBook = BookRow & { licenceEndsOn: string | null; starred: boolean };

/** Every book assigned to the school (optionally matching a search), in one query. */
export async function listSchoolBooks(db: Db, schoolId: number, search?: string): Promise<BookRow[]> {
  const match = search ? toFtsQuery(search) : null;
  if (search && !match) return [];
  if (!match) {
    const rows = await db
      .select({ book: books, preparingPdfSize, licenceEndsOn: bookAccess.endsOn })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(and(eq(bookAccess.schoolId, schoolId), licensedToday()));
    return rows
      .map((r) => ({ ...r.book, preparingPdfSize: r.preparingPdfSize, licenceEndsOn: r.licenceEndsOn }))
      .sort((a, b) => compareTitles(a.title, b.title) || a.id - b.id);
  }
  return db.all<BookRow>(
    sql`SELECT ${BOOK_COLUMNS}, ${preparingPdfSize.sql} AS preparingPdfSize ${schoolMatches(schoolId, match)} ORDER BY ${RANK}, ${books.title}`,
  );
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
/**
 * A teacher's page view's one D1 read (docs/decisions/0024): of the school's book only what the
 * view needs (its page set, whether a PDF waits for pages), with the school's slug (the tenant
 * check) and name (the watermark). Narrow on purpose: the row's size is most of the read's time.
 */
export async function findBookForPageView(db: Db, schoolId: number, bookId: number) {
  const [row] = await db
    .select({
      book: { id: books.id, pageSetId: books.pageSetId, pdfKey: books.pdfKey },
      school: { slug: schools.slug, name: schools.name, email: schools.email },
      licence: { startsOn: bookAccess.startsOn, endsOn: bookAccess.endsOn, seats: bookAccess.seats },
    })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId)))
    .limit(1);
  return row ?? null;
}

export async function findSchoolBook(db: Db, schoolId: number, bookId: number): Promise<Book | null> {
  const [row] = await db
    .select({ book: books })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId), licensedToday()))
    .limit(1);
  return row?.book ?? null;
}

import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { dayOf, daysLeft, ENDING_SOON_DAYS } from "#shared/rules/licence.ts";
import { ALL_BOOKS, type ShelfGroup, type ShelfQuery } from "#shared/rules/shelf-query.ts";
import { type BookRow, pdfStateOf, preparingPdfSize } from "../books/pdf-state.ts";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books, favourites, readingProgress, schools } from "../db/schema.ts";
import { activeOn } from "../licences/licences.ts";
import { recentReading, type UnflushedProgress } from "./progress.ts";
import { compareTitles, pageOfShelf, type ShelfPlace } from "./shelf-order.ts";

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
const licensedToday = () => activeOn(dayOf(Date.now()));

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

export interface ShelfSummary {
  /** How many books the school has, whatever the filters. */
  total: number;
  /** Per (subject, grade): the school's books, those matching the text filter, and the teacher's starred ones among those. */
  groups: ShelfGroup[];
  /** The first page of the list the query asks for (`firstPage` books at most), each with the teacher's star. */
  firstBooks: ShelfBook[];
  /** The reader's 'Continue reading' row, fetched in the same batch. */
  reading: Awaited<ReturnType<typeof recentReading>>;
}

/** A book of the shelf with whether this teacher starred it ('My books'). */
export type ShelfBook = BookRow & { licenceEndsOn: string | null; starred: boolean };

/** What the shelf query keeps of the school's books: subject, grade, the text (the search index, as the header search). */
function shelfConditions(schoolId: number, query: ShelfQuery) {
  const match = toFtsQuery(query.q);
  const conditions = [eq(bookAccess.schoolId, schoolId), licensedToday()];
  if (query.subject) conditions.push(sql`trim(${books.subject}) = ${query.subject}`);
  if (query.grade !== null) conditions.push(eq(books.gradeLevel, query.grade));
  if (match) conditions.push(sql`+${books.id} IN (SELECT rowid FROM books_fts WHERE books_fts MATCH ${match})`);
  return and(...conditions);
}

const starredBy = (readerId: number) => and(eq(favourites.teacherId, readerId), eq(favourites.bookId, books.id));
const readBy = (readerId: number) => and(eq(readingProgress.teacherId, readerId), eq(readingProgress.bookId, books.id));

/**
 * One page of the list a shelf query asks for: the school's books (from `book_access` by school,
 * then each book by its key), narrowed by the filters and the teacher's stars, in SQL's order.
 * 'Recently added' is exact here. Titles SQLite can only approximate (case folded, accents not):
 * for the orders that compare them this page is a guess, which `shelfPage` checks against the
 * places and completes. Every filter and sort works on the school's own rows, never on the
 * catalogue, so its cost follows the shelf.
 */
function shelfPageQuery(db: Db, schoolId: number, readerId: number, query: ShelfQuery, from: number, limit: number) {
  const base = db
    .select({ book: books, preparingPdfSize, licenceEndsOn: bookAccess.endsOn, starred: sql<number>`${favourites.bookId} IS NOT NULL` })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .$dynamic();
  const starred = query.mine ? base.innerJoin(favourites, starredBy(readerId)) : base.leftJoin(favourites, starredBy(readerId));
  // NOCASE, then small letters before capitals: the collator's order for titles of letters, digits and spaces.
  const byTitle = [sql`${books.title} COLLATE NOCASE`, desc(books.title), asc(books.id)];
  const order =
    query.sort === "added"
      ? [desc(bookAccess.createdAt), desc(books.createdAt), desc(books.id)]
      : query.sort === "read"
        ? [sql`${readingProgress.updatedAt} IS NULL`, desc(readingProgress.updatedAt), ...byTitle]
        : byTitle;
  const sorted = query.sort === "read" ? starred.leftJoin(readingProgress, readBy(readerId)) : starred;
  return sorted
    .where(shelfConditions(schoolId, query))
    .orderBy(...order)
    .limit(limit)
    .offset(from);
}

/**
 * Where every book the shelf query keeps sits in an order that compares titles: its id, title and
 * the teacher's last reading. They come as one JSON array in one row (a few bytes a book; a row
 * per book costs D1 far more), read by `readPlaces`. 'Recently added' needs none: `LIMIT 0`.
 */
function shelfPlacesQuery(db: Db, schoolId: number, readerId: number, query: ShelfQuery) {
  const base = db
    .select({ places: sql<string>`json_group_array(json_array(${books.id}, ${books.title}, ${readingProgress.updatedAt}))` })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .leftJoin(readingProgress, readBy(readerId))
    .$dynamic();
  const kept = query.mine ? base.innerJoin(favourites, starredBy(readerId)) : base;
  return kept.where(shelfConditions(schoolId, query)).limit(query.sort === "added" ? 0 : 1);
}

function readPlaces(rows: { places: string }[]): ShelfPlace[] {
  const places = JSON.parse(rows[0]?.places ?? "[]") as [number, string, number | null][];
  return places.map(([id, title, readAt]) => ({ id, title, readAt }));
}

type ShelfRow = { book: Book; preparingPdfSize: number | null; licenceEndsOn: string | null; starred: number | boolean };

/**
 * The page in the reader's order: SQL's page when the sort is exact there, else the page the
 * places give (`pageOfShelf`, titles by the collator), from SQL's guess, with any book the guess
 * missed (a title with an accent, say) read by id: one more query, only then.
 */
async function shelfPage(
  db: Db,
  schoolId: number,
  readerId: number,
  sort: ShelfQuery["sort"],
  page: { places: ShelfPlace[]; guess: ShelfRow[]; from: number; limit: number },
): Promise<ShelfBook[]> {
  if (sort === "added") return page.guess.map(toShelfBook);
  const ids = pageOfShelf(page.places, sort, page.from, page.limit);
  const found = new Map(page.guess.map((row) => [row.book.id, toShelfBook(row)]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const rows = await db
      .select({ book: books, preparingPdfSize, licenceEndsOn: bookAccess.endsOn, starred: sql<number>`${favourites.bookId} IS NOT NULL` })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .leftJoin(favourites, starredBy(readerId))
      .where(and(eq(bookAccess.schoolId, schoolId), licensedToday(), inArray(bookAccess.bookId, missing)));
    for (const row of rows) found.set(row.book.id, toShelfBook(row));
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

const toShelfBook = (row: ShelfRow): ShelfBook => ({
  ...row.book,
  preparingPdfSize: row.preparingPdfSize,
  licenceEndsOn: row.licenceEndsOn,
  starred: Boolean(row.starred),
});

/**
 * The counts behind the filters, in one pass over the school's rows: per (subject, grade), every
 * book, those matching the text, and the teacher's starred ones among those. The text's hits are
 * read once (a derived table, so SQLite reuses one list of hits for both counts).
 */
function shelfGroupsQuery(db: Db, schoolId: number, readerId: number, q: string) {
  const match = toFtsQuery(q);
  const rows = db
    .select({
      subject: books.subject,
      gradeLevel: books.gradeLevel,
      matching: (match ? sql<number>`${books.id} IN (SELECT rowid FROM books_fts WHERE books_fts MATCH ${match})` : sql<number>`1`).as(
        "matching",
      ),
      starred: sql<number>`${favourites.bookId} IS NOT NULL`.as("starred"),
    })
    .from(bookAccess)
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .leftJoin(favourites, and(eq(favourites.teacherId, readerId), eq(favourites.bookId, books.id)))
    .where(and(eq(bookAccess.schoolId, schoolId), licensedToday()))
    .as("shelf_rows");
  return db
    .select({
      subject: rows.subject,
      gradeLevel: rows.gradeLevel,
      count: sql<number>`count(*)`,
      matching: sql<number>`count(CASE WHEN ${rows.matching} THEN 1 END)`,
      starred: sql<number>`count(CASE WHEN ${rows.matching} AND ${rows.starred} THEN 1 END)`,
    })
    .from(rows)
    .groupBy(rows.subject, rows.gradeLevel);
}

/**
 * What the dashboard needs to paint, whatever the size of the shelf: the first page of the list the
 * query asks for, the counts behind the filters and the teacher's 'Continue reading' row (with the
 * saves the school's object has not flushed yet, `unflushed`), as one D1 batch (one round trip).
 */
export async function summariseShelf(
  db: Db,
  schoolId: number,
  firstPage: number,
  readerId: number,
  query: ShelfQuery = ALL_BOOKS,
  unflushed: UnflushedProgress = [],
): Promise<ShelfSummary> {
  const [groups, guess, places, reading] = await db.batch([
    shelfGroupsQuery(db, schoolId, readerId, query.q),
    shelfPageQuery(db, schoolId, readerId, query, 0, firstPage),
    shelfPlacesQuery(db, schoolId, readerId, query),
    recentReading(db, readerId, schoolId, unflushed),
  ]);
  const firstBooks = await shelfPage(db, schoolId, readerId, query.sort, { places: readPlaces(places), guess, from: 0, limit: firstPage });
  return { total: groups.reduce((n, g) => n + g.count, 0), groups, firstBooks, reading };
}

/** A further page of the list a shelf query asks for (the dashboard's 'Show more books'). */
export async function listShelfPage(
  db: Db,
  schoolId: number,
  readerId: number,
  query: ShelfQuery,
  from: number,
  limit: number,
): Promise<ShelfBook[]> {
  const [guess, places] = await db.batch([
    shelfPageQuery(db, schoolId, readerId, query, from, limit),
    shelfPlacesQuery(db, schoolId, readerId, query),
  ]);
  return shelfPage(db, schoolId, readerId, query.sort, { places: readPlaces(places), guess, from, limit });
}

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

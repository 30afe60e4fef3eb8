/**
 * The teacher's shelf (the dashboard's library list): a page of the school's books in the reader's
 * order, narrowed by the filters and their stars, with the counts behind the filters and the
 * 'Continue reading' row.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { ALL_BOOKS, type ShelfGroup, type ShelfQuery } from "#shared/rules/shelf-query.ts";
import { preparingPdfSize } from "../books/pdf-state.ts";
import type { Db } from "../db/client.ts";
import { type Book, bookAccess, books, favourites, readingProgress } from "../db/schema.ts";
import { licensedToday, type ShelfBook, toFtsQuery } from "./library.ts";
import { recentReading, type UnflushedProgress } from "./progress.ts";
import { pageOfShelf, type ShelfPlace } from "./shelf-order.ts";

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

import { type SQL, sql } from "drizzle-orm";
import { coverPath } from "#shared/rules/book-category.ts";
import type { Db } from "../db/client.ts";
import { type Book, books } from "../db/schema.ts";
import { toFtsQuery } from "../reading/library.ts";
import { type AdminBook, SCHOOL_COUNT, toAdminBook } from "./detail.ts";
import { type BookRow, preparingPdfSize } from "./pdf-state.ts";

// Raw queries name their columns like drizzle's selects, so rows map straight onto Book.
const BOOK_COLUMNS = sql.raw(
  "books.id, books.title, books.author1, books.author2, books.description, books.isbn, books.grade_level AS gradeLevel, " +
    "books.subject, books.cover_key AS coverKey, books.pdf_key AS pdfKey, books.pdf_size AS pdfSize, " +
    "books.page_count AS pageCount, books.page_set_id AS pageSetId, books.created_at AS createdAt, books.updated_at AS updatedAt",
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
 * Up to this many hits, bm25 scores every one of them (about a millisecond). Beyond it only the title
 * matches are scored: scoring every hit of a common word was most of the search's time ("science"
 * matches 28,866 of 100,000 books at scale, none in a title: x3.5 the demo database's time).
 */
export const SCORE_EVERY_HIT = 2_000;
/** Where a broad search's hits outside the titles rank: after every bm25 score (FTS5's are negative), then A–Z. */
const UNTITLED_RANK = 1;

/**
 * CTEs `n(total)` and `page(id, rank)`: the search's hit count and one page of its hits by
 * relevance (docs/decisions/0037). Up to SCORE_EVERY_HIT hits: every hit by bm25, then title, then
 * id. More than that: the books whose title holds every word first, by bm25, then title, then id;
 * then the other hits (the words in the authors, subject, ISBN or description) A–Z, read in title
 * order as the title sort reads them (sortedPage's two plans). Only the rows that rank no worse than
 * the page's last scored one are joined to books for the title that breaks ties.
 */
function rankedPage(match: string, limit: number, offset: number) {
  // The hits are read where they are used, never kept in a table: keeping a common word's 28,866
  // ids (and indexing them for IN) cost more than the FTS5 match itself.
  const hits = sql`SELECT rowid FROM books_fts WHERE books_fts MATCH ${match}`;
  const broad = sql`(SELECT total FROM n) > ${SCORE_EVERY_HIT}`;
  // LIMIT 0 is checked before a statement runs (a WHERE on a subquery is not): one of each pair runs.
  const whenBroad = sql`CASE WHEN ${broad} THEN -1 ELSE 0 END`;
  const whenNarrow = sql`CASE WHEN ${broad} THEN 0 ELSE -1 END`;
  // A broad search's other hits in title order: walking the title index, or reading the hits and sorting them.
  const others = (count: SQL, walk: boolean) => sql`SELECT id, ${UNTITLED_RANK} AS rank FROM (
    SELECT ${books.id} AS id FROM ${books}
    WHERE ${walk ? sql`+${books.id}` : books.id} IN (${hits}) AND ${books.id} NOT IN (SELECT id FROM scored)
    ORDER BY ${books.title}, ${books.id} LIMIT ${count} OFFSET max(0, ${offset} - (SELECT count(*) FROM scored)))`;
  const wanted = sql`max(0, ${limit} - (SELECT count(*) FROM first))`;
  // As in sortedPage: once a twentieth of the catalogue matches, walking the index is not slower.
  const walk = sql`(SELECT total FROM n) * 20 > (SELECT max(${books.id}) FROM ${books})`;
  return sql`n AS MATERIALIZED (SELECT count(*) AS total FROM books_fts WHERE books_fts MATCH ${match}),
    scored AS MATERIALIZED (
      SELECT * FROM (SELECT rowid AS id, ${RANK} AS rank FROM books_fts WHERE books_fts MATCH ${match} LIMIT ${whenNarrow})
      UNION ALL
      SELECT * FROM (SELECT rowid AS id, ${RANK} AS rank FROM books_fts WHERE books_fts MATCH ${`{title} : (${match})`} LIMIT ${whenBroad})),
    first AS MATERIALIZED (
      SELECT scored.id, scored.rank FROM scored JOIN ${books} ON ${books.id} = scored.id
      WHERE scored.rank <= coalesce((SELECT rank FROM scored ORDER BY rank LIMIT 1 OFFSET ${offset + limit - 1}), 9e999)
      ORDER BY scored.rank, ${books.title}, ${books.id} LIMIT ${limit} OFFSET ${offset}),
    page AS MATERIALIZED (
      SELECT id, rank FROM first
      UNION ALL ${others(sql`CASE WHEN ${broad} AND NOT ${walk} THEN ${wanted} ELSE 0 END`, false)}
      UNION ALL ${others(sql`CASE WHEN ${broad} AND ${walk} THEN ${wanted} ELSE 0 END`, true)})`;
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
  const rows = await db.all<BookRow & { schoolCount: number; total: number }>(sql`WITH ${ctes}
    SELECT ${BOOK_COLUMNS}, ${preparingPdfSize.sql} AS preparingPdfSize,
      ${SCHOOL_COUNT} AS schoolCount, n.total
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
    thumbnail: coverPath(book),
    authors: [book.author1, book.author2].filter(Boolean).join(", "),
    isbn: book.isbn,
  }));
}

/**
 * The dashboard's first paint of the whole shelf (no filter, title A–Z: what a teacher sees on
 * signing in) read once per school and catalogue, not once per request (issue 41, item 13;
 * docs/decisions/0037). Kept in isolate memory, as the page view's books are (page-view-cache.ts).
 *
 * What is kept is the school's part only: the first page of its books and the count of books per
 * (subject, grade), read as a teacher with no stars and no reading would see them. Each request
 * still reads the teacher's own part (their stars among the shelf, their 'Continue reading' row)
 * and lays it over a copy; nothing of one teacher is ever in the entry another is served from.
 *
 * An entry is used only while all of these are what they were when it was read:
 * - the school's catalogue version (its object's, bumped by every assignment and licence change);
 * - the day (UTC): licences start and end on days, and 'available until' counts the days left;
 * - the catalogue's books version (`catalogue_state`, one row read in the teacher's own batch, no
 *   extra round trip), which the database raises on any book's insert, change or delete: a new
 *   title, cover or set of pages, a deleted book. It is the whole catalogue's, so an edit of any
 *   book reads every school's shelf once more; edits are an admin's, rare beside dashboards, and
 *   this reads one row where a per-school stamp read every licence of the school.
 * SHELF_TTL_MS bounds what none of these sees: a first PDF whose pages are still being prepared
 * (the card's 'preparing' in place of 'no PDF') shows within a minute, and so does a licence change
 * whose call to the school's object failed.
 */
import { and, eq, exists, sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { ALL_BOOKS, type ShelfGroup, type ShelfQuery } from "#shared/rules/shelf-query.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, catalogueState, favourites } from "../db/schema.ts";
import { TtlCache } from "../db/ttl-cache.ts";
import { activeOn } from "../licences/list.ts";
import type { ShelfBook } from "./library.ts";
import { recentReading, type UnflushedProgress } from "./progress.ts";
import { type ShelfSummary, summariseShelf } from "./shelf.ts";

export const SHELF_TTL_MS = 60_000;

/** The school's part of the unfiltered shelf. */
interface SchoolShelf {
  firstBooks: ShelfBook[];
  groups: ShelfGroup[];
}

/** What an entry was read under; it is used only while all of it is unchanged. */
interface EntryKey {
  version: number;
  day: string;
  stamp: number;
  firstPage: number;
}

type Entry = EntryKey & { shelf: SchoolShelf };

const sameKey = (a: EntryKey, b: EntryKey) =>
  a.version === b.version && a.day === b.day && a.stamp === b.stamp && a.firstPage === b.firstPage;

// One entry a school: the schools whose teachers this isolate serves. An entry is the first page's
// books, descriptions and all: typically tens of kB, at most about 1 MB (24 descriptions of 20,000
// characters), so a hundred schools stay well inside an isolate's 128 MB.
const entries = new TtlCache<number, Entry>(SHELF_TTL_MS, 100);

/** No teacher has this id (ids start at 1): the shelf as a teacher with no stars and no reading sees it. */
const NO_READER = 0;

const isWholeShelf = (query: ShelfQuery) =>
  query.q.trim() === "" && query.subject === null && query.grade === null && query.sort === ALL_BOOKS.sort && !query.mine;

/**
 * The teacher's stars among the books the school may read today, with each book's group. Read from
 * the teacher's favourites outwards (the licence is a lookup per star): joined the other way, SQLite
 * walked every licence of the school on each dashboard, stars or none.
 */
function starsQuery(db: Db, schoolId: number, teacherId: number, today: string) {
  const licensed = db
    .select({ one: sql`1` })
    .from(bookAccess)
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, favourites.bookId), activeOn(today)));
  return db
    .select({ id: books.id, subject: books.subject, gradeLevel: books.gradeLevel })
    .from(favourites)
    .innerJoin(books, eq(books.id, favourites.bookId))
    .where(and(eq(favourites.teacherId, teacherId), exists(licensed)));
}

/** The catalogue's version: any book's insert, change or delete raises it (migration 0020). One row. */
function stampQuery(db: Db) {
  return db.select({ stamp: catalogueState.booksVersion }).from(catalogueState).where(eq(catalogueState.id, 1));
}

const groupKey = (subject: string | null, gradeLevel: number | null) => `${gradeLevel ?? ""}\u0000${subject ?? "\u0000"}`;

/** The school's part with this teacher's stars laid over a copy. */
function withStars(shelf: SchoolShelf, stars: { id: number; subject: string | null; gradeLevel: number | null }[]) {
  const starred = new Set(stars.map((star) => star.id));
  const perGroup = new Map<string, number>();
  for (const star of stars) {
    const key = groupKey(star.subject, star.gradeLevel);
    perGroup.set(key, (perGroup.get(key) ?? 0) + 1);
  }
  return {
    firstBooks: shelf.firstBooks.map((book) => ({ ...book, starred: starred.has(book.id) })),
    groups: shelf.groups.map((group) => ({ ...group, starred: perGroup.get(groupKey(group.subject, group.gradeLevel)) ?? 0 })),
  };
}

/**
 * The dashboard's shelf summary, as `summariseShelf` answers it. The whole shelf comes from the
 * school's entry when the school's `catalogueVersion` (from its object) and the stamp agree; any
 * filter or sort is read as before.
 */
export async function dashboardShelf(
  db: Db,
  school: { id: number; catalogueVersion: number },
  teacherId: number,
  firstPage: number,
  query: ShelfQuery,
  unflushed: UnflushedProgress,
): Promise<ShelfSummary> {
  if (!isWholeShelf(query)) return summariseShelf(db, school.id, firstPage, teacherId, query, unflushed);
  const now = Date.now();
  const today = dayOf(now);
  const [stars, reading, [stamped]] = await db.batch([
    starsQuery(db, school.id, teacherId, today),
    recentReading(db, teacherId, school.id, unflushed),
    stampQuery(db),
  ]);
  const key: EntryKey = { version: school.catalogueVersion, day: today, stamp: stamped?.stamp ?? -1, firstPage };
  let entry = entries.get(school.id, now);
  if (!entry || !sameKey(entry, key)) {
    const read = await summariseShelf(db, school.id, firstPage, NO_READER, ALL_BOOKS);
    entry = { ...key, shelf: { firstBooks: read.firstBooks, groups: read.groups } };
    entries.set(school.id, entry, now);
  }
  const shelf = withStars(entry.shelf, stars);
  return { total: shelf.groups.reduce((n, group) => n + group.count, 0), ...shelf, reading };
}

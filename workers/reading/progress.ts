/**
 * Where each teacher is in each book. The reader saves the page it settles on (and pings with it
 * while the teacher reads); the school's object keeps it and its flush writes it to D1's
 * reading_progress (docs/decisions/0024), so a page turn writes nothing to D1. Reads look in the
 * object first: what it holds is newer than D1's row.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, readingProgress } from "../db/schema.ts";
import { activeOn } from "../licences/list.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { LIVE_SAVE_MS } from "../school-object/usage.ts";

export interface TeacherInSchool {
  schoolId: number;
  teacherId: number;
}

/**
 * Saves the page a teacher is on (and counts the reading time since their last event); whether it
 * was kept. A position saved offline (`editedAt` over a minute ago) is kept only if later than the
 * object's and D1's (docs/decisions/0051): D1 is read for those alone, never on a live save.
 */
export async function saveProgress(
  hot: HotState,
  who: TeacherInSchool,
  bookId: number,
  page: number,
  now = Date.now(),
  offline: { editedAt?: number; db?: Db } = {},
): Promise<boolean> {
  const { editedAt, db } = offline;
  if (editedAt !== undefined && db && now - editedAt >= LIVE_SAVE_MS) {
    const [row] = await storedProgress(db, who, bookId);
    if (row && row.updatedAt > editedAt) return false;
  }
  return schoolObject(hot, who.schoolId).saveProgress(who.schoolId, { teacherId: who.teacherId, bookId, page, now, editedAt });
}

const storedProgress = (db: Db, who: TeacherInSchool, bookId: number) =>
  db
    .select({ page: readingProgress.page, updatedAt: readingProgress.updatedAt })
    .from(readingProgress)
    .where(and(eq(readingProgress.teacherId, who.teacherId), eq(readingProgress.bookId, bookId)));

/** The page of the book the teacher was last on: the later of the object's unflushed save and D1's. */
export async function findProgress(db: Db, hot: HotState, who: TeacherInSchool, bookId: number): Promise<number | null> {
  const [unflushed, [row]] = await Promise.all([unflushedProgress(hot, who), storedProgress(db, who, bookId)]);
  const held = unflushed.find((p) => p.bookId === bookId);
  // An offline position sent late is unflushed but may be older than D1's (the flush will keep D1's).
  if (held && row && row.updatedAt > held.updatedAt) return row.page;
  return held?.page ?? row?.page ?? null;
}

export type UnflushedProgress = { bookId: number; page: number; updatedAt: number }[];

/** The teacher's saves the object has not flushed yet (a handful: the books read in the last minutes). */
export async function unflushedProgress(hot: HotState, who: TeacherInSchool): Promise<UnflushedProgress> {
  const rows = await schoolObject(hot, who.schoolId).unflushedProgress(who.schoolId, who.teacherId);
  return rows.map(({ bookId, page, updatedAt }) => ({ bookId, page, updatedAt }));
}

/** The dashboard's call to the school's object: the teacher's unflushed saves and the school's catalogue version (shelf-cache.ts). */
export async function dashboardState(
  hot: HotState,
  who: TeacherInSchool,
): Promise<{ unflushed: UnflushedProgress; catalogueVersion: number }> {
  const state = await schoolObject(hot, who.schoolId).dashboardState(who.schoolId, who.teacherId);
  return {
    unflushed: state.unflushed.map(({ bookId, page, updatedAt }) => ({ bookId, page, updatedAt })),
    catalogueVersion: state.catalogueVersion,
  };
}

/**
 * The books a teacher was last reading that their school still has: the 'Continue reading' row.
 * D1's rows with the object's newer saves laid over them (`unflushed`); a query builder, so the
 * dashboard sends it in its one batch.
 */
export function recentReading(db: Db, teacherId: number, schoolId: number, unflushed: UnflushedProgress = [], limit = 6) {
  const columns = {
    bookId: books.id,
    title: books.title,
    coverKey: books.coverKey,
    updatedAt: books.updatedAt,
    createdAt: books.createdAt,
  };
  // Only books the school's licence lets its teachers read today (docs/decisions/0028).
  const onShelf = and(eq(bookAccess.bookId, books.id), eq(bookAccess.schoolId, schoolId), activeOn(dayOf(Date.now())));
  if (unflushed.length === 0) {
    return db
      .select({ ...columns, page: readingProgress.page, pageCount: books.pageCount })
      .from(readingProgress)
      .innerJoin(books, eq(books.id, readingProgress.bookId))
      .innerJoin(bookAccess, onShelf)
      .where(and(eq(readingProgress.teacherId, teacherId), sql`${books.pdfKey} IS NOT NULL`))
      .orderBy(desc(readingProgress.updatedAt))
      .limit(limit);
  }
  // The object's saves are newer than D1's rows of the same books (and may name books D1 has no row for yet).
  const newer = sql`json_each(${JSON.stringify(unflushed.map((p) => [p.bookId, p.page, p.updatedAt]))})`;
  const newerOf = (index: number) =>
    sql`(SELECT json_extract(value, ${`$[${index}]`}) FROM ${newer} WHERE json_extract(value, '$[0]') = ${books.id})`;
  const page = sql<number>`coalesce(${newerOf(1)}, ${readingProgress.page})`.mapWith(Number);
  const at = sql`coalesce(${newerOf(2)}, ${readingProgress.updatedAt})`;
  const read = and(eq(readingProgress.teacherId, teacherId), eq(readingProgress.bookId, books.id));
  return db
    .select({ ...columns, page, pageCount: books.pageCount })
    .from(books)
    .innerJoin(bookAccess, onShelf)
    .leftJoin(readingProgress, read)
    .where(
      and(
        sql`${books.pdfKey} IS NOT NULL`,
        sql`(${readingProgress.bookId} IS NOT NULL OR ${books.id} IN (SELECT json_extract(value, '$[0]') FROM ${newer}))`,
      ),
    )
    .orderBy(desc(at))
    .limit(limit);
}

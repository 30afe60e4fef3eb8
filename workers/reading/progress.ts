import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { bookAccess, books, readingProgress } from "../db/schema.ts";

/** Saves the last page a teacher read in a book (one row per teacher and book). */
export function saveProgress(db: Db, teacherId: number, bookId: number, page: number, now = Date.now()) {
  return db
    .insert(readingProgress)
    .values({ teacherId, bookId, page, updatedAt: now })
    .onConflictDoUpdate({ target: [readingProgress.teacherId, readingProgress.bookId], set: { page, updatedAt: now } });
}

export async function findProgress(db: Db, teacherId: number, bookId: number): Promise<number | null> {
  const [row] = await db
    .select({ page: readingProgress.page })
    .from(readingProgress)
    .where(and(eq(readingProgress.teacherId, teacherId), eq(readingProgress.bookId, bookId)));
  return row?.page ?? null;
}

/** The books a teacher was last reading that their school still has: the 'Continue reading' row. */
export function recentReading(db: Db, teacherId: number, schoolId: number, limit = 6) {
  return db
    .select({
      bookId: books.id,
      title: books.title,
      coverKey: books.coverKey,
      updatedAt: books.updatedAt,
      createdAt: books.createdAt,
      page: readingProgress.page,
      pageCount: books.pageCount,
    })
    .from(readingProgress)
    .innerJoin(books, eq(books.id, readingProgress.bookId))
    .innerJoin(bookAccess, and(eq(bookAccess.bookId, books.id), eq(bookAccess.schoolId, schoolId)))
    .where(and(eq(readingProgress.teacherId, teacherId), sql`${books.pdfKey} IS NOT NULL`))
    .orderBy(desc(readingProgress.updatedAt))
    .limit(limit);
}

import { and, eq, sql } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, favourites } from "../db/schema.ts";
import { activeOn } from "../licences/list.ts";

/**
 * A teacher's stars ('My books'). Only a book the teacher's school is licensed for today can be starred; either
 * call answers false for any other book (the API's 404), exactly as for a book that does not
 * exist. Both are idempotent: starring a starred book or unstarring an unstarred one changes
 * nothing and still answers true. One D1 round trip each.
 */
export async function starBook(db: Db, teacherId: number, schoolId: number, bookId: number): Promise<boolean> {
  const [onShelf] = await db.batch([
    onShelfQuery(db, schoolId, bookId),
    // INSERT ... SELECT from the shelf: a book the school lacks inserts nothing, whatever the race.
    db
      .insert(favourites)
      .select(
        sql`SELECT ${teacherId}, ${bookAccess.bookId}, cast(unixepoch('subsecond') * 1000 as integer) FROM ${bookAccess}
          WHERE ${bookAccess.schoolId} = ${schoolId} AND ${bookAccess.bookId} = ${bookId} AND ${activeOn(dayOf(Date.now()))}`,
      )
      .onConflictDoNothing(),
  ]);
  return onShelf.length > 0;
}

export async function unstarBook(db: Db, teacherId: number, schoolId: number, bookId: number): Promise<boolean> {
  const [onShelf] = await db.batch([
    onShelfQuery(db, schoolId, bookId),
    // A star left on a book the school no longer has goes too; it was invisible anyway.
    db.delete(favourites).where(and(eq(favourites.teacherId, teacherId), eq(favourites.bookId, bookId))),
  ]);
  return onShelf.length > 0;
}

function onShelfQuery(db: Db, schoolId: number, bookId: number) {
  return db
    .select({ bookId: bookAccess.bookId })
    .from(bookAccess)
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId), activeOn(dayOf(Date.now()))))
    .limit(1);
}

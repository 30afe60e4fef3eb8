import { asc, eq, sql } from "drizzle-orm";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { type Actor, auditEntry } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { bookAccess, books, schools } from "../db/schema.ts";
import { log } from "../kernel/log.ts";
import { catalogueChanged } from "../licences/licences.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { auditWhenChanged } from "../schools/audit.ts";

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

/**
 * Assigns every (school, book) pair in one INSERT ... SELECT, as licences with the terms given
 * (checked by the commands' LicenceTermsSchema, workers/licences/input.ts); pairs that exist are left alone.
 */
export async function grantAccess(
  db: Db,
  hot: HotState,
  actor: Actor,
  input: {
    schoolIds: number[];
    bookIds: number[];
    startsOn: string;
    endsOn: string | null;
    seats: number | null;
    offlineAllowed?: boolean;
    offlineDays?: number;
  },
  now = Date.now(),
): Promise<GrantResult> {
  const schoolIds = [...new Set(input.schoolIds)];
  const bookIds = [...new Set(input.bookIds)];
  const missingSchools = await missingIds(db, schools, schoolIds);
  if (missingSchools.length) return { ok: false, error: `No school with id ${missingSchools.join(", ")}` };
  const missingBooks = await missingIds(db, books, bookIds);
  if (missingBooks.length) return { ok: false, error: `No book with id ${missingBooks.join(", ")}` };
  const [result] = await runTransaction(db, [
    // A licence for each pair (docs/decisions/0028), with the terms as checked.
    sql`INSERT INTO ${bookAccess} (school_id, book_id, starts_on, ends_on, seats, offline_allowed, offline_days, created_at, updated_at)
      SELECT s.value, b.value, ${input.startsOn}, ${input.endsOn}, ${input.seats}, ${input.offlineAllowed === false ? 0 : 1}, ${input.offlineDays ?? OFFLINE_DAYS_DEFAULT},
        ${now}, ${now}
      FROM json_each(${JSON.stringify(schoolIds)}) AS s, json_each(${JSON.stringify(bookIds)}) AS b
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
  const created = result!.meta.changes;
  // A school's catalogue version says its books changed, more as well as fewer: the dashboard keeps
  // each school's shelf under it (workers/reading/shelf-cache.ts).
  if (created > 0) await catalogueChanged(hot, schoolIds);
  return { ok: true, created };
}

/**
 * Takes a book from a school. Then the school's object learns its catalogue changed, so no Worker
 * serves the book's pages from memory any more (workers/reading/page-view-cache.ts); should that
 * call fail, they stop within BOOK_TTL_MS.
 */
export async function revokeAccess(
  db: Db,
  hot: HotState,
  actor: Actor,
  schoolId: number,
  bookId: number,
  now = Date.now(),
): Promise<boolean> {
  const where = sql`${bookAccess.schoolId} = ${schoolId} AND ${bookAccess.bookId} = ${bookId}`;
  const [before] = await db.select().from(bookAccess).where(where).limit(1);
  if (!before) return false;
  // Racing revokes: only the one that removes the row is audited and answers true.
  const [deleted] = await db.batch([
    db.delete(bookAccess).where(where).returning({ schoolId: bookAccess.schoolId }),
    auditWhenChanged(
      db,
      actor,
      { action: "book_access.revoke", entityType: "book_access", entityId: `${schoolId}:${bookId}`, before },
      now,
    ),
  ]);
  if (!deleted.length) return false;
  try {
    await schoolObject(hot, schoolId).catalogueChanged(schoolId);
  } catch (error) {
    log.error("Book taken away; Workers stop serving it from memory within a minute", { schoolId, bookId, error });
  }
  return true;
}

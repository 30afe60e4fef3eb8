/**
 * Licences (docs/decisions/0028): what a school bought of a book, for which days and for how many
 * readers at once. One row per (school, book) in `book_access` (every assignment became an
 * open-ended, unlimited licence). This module is the writes; reading them (`activeOn`, the admins'
 * list) is list.ts. Every write is audited in the same D1 transaction and then tells the schools' objects their catalogue changed (a Worker's memory of a book's licence
 * is dropped at once; should that call fail, within a minute).
 */
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { addDays, renewed } from "#shared/rules/licence.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { type Actor, auditEntry } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { bookAccess, books, schools } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { auditWhenChanged } from "../schools/audit.ts";
import { END_BEFORE_START, endsBeforeStart } from "./input.ts";
import { filterSql, findLicence, type LicenceFilter, type LicenceRow } from "./list.ts";

/** A new licence as a command takes it (checked: days real, the end not before the start). */
export interface NewLicence {
  schoolId: number;
  bookId: number;
  startsOn: string;
  endsOn: string | null;
  seats: number | null;
  note: string;
  /** Whether teachers may keep the book offline, and for how many days (docs/decisions/0050); defaults when absent. */
  offlineAllowed?: boolean;
  offlineDays?: number;
}

/**
 * Creates every licence, or none: a school or book that does not exist is invalid (naming it), a
 * pair that already has a licence a conflict (naming the school and the book: renew or change that one).
 */
export async function createLicences(
  db: Db,
  hot: HotState,
  actor: Actor,
  items: NewLicence[],
  now = Date.now(),
): Promise<Outcome<{ licences: LicenceRow[] }>> {
  const pairs = new Set<string>();
  for (const item of items) {
    const pair = `${item.schoolId}:${item.bookId}`;
    // The sentence names no row and the answer never named one: a conflict between items, not one field's.
    if (pairs.has(pair)) return failure("conflict", "The same school and book are given twice");
    pairs.add(pair);
  }
  const schoolIds = [...new Set(items.map((item) => item.schoolId))];
  const bookIds = [...new Set(items.map((item) => item.bookId))];
  const [foundSchools, foundBooks] = await db.batch([
    db.select({ id: schools.id }).from(schools).where(inArray(schools.id, schoolIds)),
    db.select({ id: books.id }).from(books).where(inArray(books.id, bookIds)),
  ]);
  const missingSchool = schoolIds.find((id) => !foundSchools.some((row) => row.id === id));
  if (missingSchool !== undefined) return failure("invalid", `No school with id ${missingSchool}`, "schoolId");
  const missingBook = bookIds.find((id) => !foundBooks.some((row) => row.id === id));
  if (missingBook !== undefined) return failure("invalid", `No book with id ${missingBook}`, "bookId");
  const json = JSON.stringify(items);
  try {
    await runTransaction(db, [
      sql`INSERT INTO ${bookAccess} (school_id, book_id, starts_on, ends_on, seats, note, offline_allowed, offline_days, created_at, updated_at)
        SELECT value ->> 'schoolId', value ->> 'bookId', value ->> 'startsOn', value ->> 'endsOn', value ->> 'seats',
               value ->> 'note', coalesce(value ->> 'offlineAllowed', 1), coalesce(value ->> 'offlineDays', ${OFFLINE_DAYS_DEFAULT}), ${now}, ${now}
        FROM json_each(${json})`,
      auditEntry(db, actor, { action: "licence.create", entityType: "licence", after: sql`json(${json})` }, now).getSQL(),
    ]);
  } catch (error) {
    if (!String(error).includes("UNIQUE constraint failed")) throw error;
    const taken = await existingPair(db, items);
    return failure("conflict", taken ?? "A licence for one of these schools and books exists already");
  }
  const created = await db
    .select()
    .from(bookAccess)
    .where(sql`(${bookAccess.schoolId}, ${bookAccess.bookId}) IN (SELECT value ->> 'schoolId', value ->> 'bookId' FROM json_each(${json}))`)
    .orderBy(asc(bookAccess.id));
  await catalogueChanged(hot, schoolIds);
  return done({ licences: created });
}

async function existingPair(db: Db, items: NewLicence[]): Promise<string | null> {
  const [row] = await db
    .select({ school: schools.name, title: books.title })
    .from(bookAccess)
    .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(
      sql`(${bookAccess.schoolId}, ${bookAccess.bookId}) IN (SELECT value ->> 'schoolId', value ->> 'bookId' FROM json_each(${JSON.stringify(items)}))`,
    )
    .limit(1);
  return row ? `${row.school} already has a licence for “${row.title}”: change or renew that one` : null;
}

/** What a change may set; `null` clears the end (open-ended) or the seat limit (unlimited). */
export interface LicenceChange {
  startsOn?: string;
  endsOn?: string | null;
  seats?: number | null;
  note?: string;
  offlineAllowed?: boolean;
  offlineDays?: number;
}

/** Changes one licence; not found when there is none, invalid (field `endsOn`) when it would end before it starts. */
export async function updateLicence(
  db: Db,
  hot: HotState,
  actor: Actor,
  id: number,
  change: LicenceChange,
  now = Date.now(),
): Promise<Outcome<{ licence: LicenceRow }>> {
  const before = await findLicence(db, id);
  if (!before) return failure("not-found", "Licence not found");
  const after = { ...before, ...change, updatedAt: now };
  // The change's days with the licence's others, by the rule every writer applies.
  if (endsBeforeStart(after)) return failure("invalid", END_BEFORE_START, "endsOn");
  const [updated] = await db.batch([
    db
      .update(bookAccess)
      .set({
        startsOn: after.startsOn,
        endsOn: after.endsOn,
        seats: after.seats,
        note: after.note,
        offlineAllowed: after.offlineAllowed,
        offlineDays: after.offlineDays,
        updatedAt: now,
      })
      .where(eq(bookAccess.id, id))
      .returning(),
    auditWhenChanged(db, actor, { action: "licence.update", entityType: "licence", entityId: id, before, after: change }, now),
  ]);
  const licence = updated[0];
  if (!licence) return failure("not-found", "Licence not found");
  await catalogueChanged(hot, [licence.schoolId]);
  return done({ licence });
}

/** The most licences one renewal takes: more is refused (narrow the filter), never cut off silently. */
export const MAX_RENEWED = 20_000;

/**
 * Renews every licence the filter names for the next school year (`renewed`): one UPDATE per
 * distinct new period, all in one transaction with one audit entry. Open-ended licences have
 * nothing to renew and are counted apart. Null when the filter names more than MAX_RENEWED.
 */
export async function renewLicences(
  db: Db,
  hot: HotState,
  actor: Actor,
  filter: LicenceFilter,
  today: string,
  now = Date.now(),
): Promise<{ renewed: number; openEnded: number } | null> {
  const rows = await db
    .select({ id: bookAccess.id, schoolId: bookAccess.schoolId, startsOn: bookAccess.startsOn, endsOn: bookAccess.endsOn })
    .from(bookAccess)
    .where(filterSql(filter, today))
    .limit(MAX_RENEWED + 1);
  if (rows.length > MAX_RENEWED) return null;
  const byPeriod = new Map<string, number[]>();
  const schoolIds = new Set<number>();
  let openEnded = 0;
  for (const row of rows) {
    const period = renewed(row, today);
    if (!period) {
      openEnded++;
      continue;
    }
    const key = `${period.startsOn}:${period.endsOn}`;
    const group = byPeriod.get(key) ?? [];
    group.push(row.id);
    byPeriod.set(key, group);
    schoolIds.add(row.schoolId);
  }
  const ids = [...byPeriod.values()].flat();
  if (!ids.length) return { renewed: 0, openEnded };
  await runTransaction(db, [
    ...[...byPeriod].map(([key, group]) => {
      const [startsOn, endsOn] = key.split(":");
      return sql`UPDATE ${bookAccess} SET starts_on = ${startsOn}, ends_on = ${endsOn}, updated_at = ${now}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(group)}))`;
    }),
    auditEntry(db, actor, { action: "licence.renew", entityType: "licence", after: { ids, today } }, now).getSQL(),
  ]);
  await catalogueChanged(hot, [...schoolIds]);
  return { renewed: ids.length, openEnded };
}

/**
 * The Licences page's bulk changes, all in one transaction with one audit entry: a new seat limit
 * (null: none) and/or "end now" (the licence's last day becomes yesterday, so it has ended today;
 * one that had not begun ends too). Returns how many licences changed.
 */
export async function changeLicences(
  db: Db,
  hot: HotState,
  actor: Actor,
  ids: number[],
  change: { seats?: number | null; offlineAllowed?: boolean; offlineDays?: number; endNow?: boolean },
  today: string,
  now = Date.now(),
): Promise<number> {
  const rows = await db.select({ id: bookAccess.id, schoolId: bookAccess.schoolId }).from(bookAccess).where(inArray(bookAccess.id, ids));
  if (!rows.length) return 0;
  const yesterday = addDays(today, -1);
  const set = [
    change.seats !== undefined ? sql`seats = ${change.seats}` : null,
    // Turned off, the copies kept now end at their next contact (workers/loans/terms.ts).
    change.offlineAllowed !== undefined ? sql`offline_allowed = ${change.offlineAllowed ? 1 : 0}` : null,
    change.offlineDays !== undefined ? sql`offline_days = ${change.offlineDays}` : null,
    change.endNow ? sql`ends_on = ${yesterday}, starts_on = min(starts_on, ${yesterday})` : null,
  ].filter((part): part is SQL => part !== null);
  if (!set.length) return 0;
  const found = rows.map((row) => row.id);
  await runTransaction(db, [
    sql`UPDATE ${bookAccess} SET ${sql.join(set, sql`, `)}, updated_at = ${now} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(found)}))`,
    auditEntry(db, actor, { action: "licence.change", entityType: "licence", after: { ids: found, ...change } }, now).getSQL(),
  ]);
  await catalogueChanged(hot, [...new Set(rows.map((row) => row.schoolId))]);
  return found.length;
}

/** Deletes a licence (the school no longer has the book at all); false when there was none. */
export async function deleteLicence(db: Db, hot: HotState, actor: Actor, id: number, now = Date.now()): Promise<boolean> {
  const before = await findLicence(db, id);
  if (!before) return false;
  const [deleted] = await db.batch([
    db.delete(bookAccess).where(eq(bookAccess.id, id)).returning({ id: bookAccess.id }),
    // Racing deletes: only the one that removes the row is audited.
    auditWhenChanged(db, actor, { action: "licence.delete", entityType: "licence", entityId: id, before }, now),
  ]);
  if (!deleted.length) return false;
  await catalogueChanged(hot, [before.schoolId]);
  return true;
}

/** Tells each school's object that what its teachers may read changed (workers/reading/page-view-cache.ts). */
export async function catalogueChanged(hot: HotState, schoolIds: number[]) {
  const results = await Promise.allSettled(schoolIds.map((schoolId) => schoolObject(hot, schoolId).catalogueChanged(schoolId)));
  const failed = results.filter((result) => result.status === "rejected").length;
  if (failed) log.error("Licences changed; Workers drop what they remember of them within a minute", { schools: failed });
}

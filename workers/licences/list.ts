/**
 * Reading licences (docs/decisions/0028): which are active on a day (`activeOn`, the teachers' shelves),
 * the filters the console and the bulk changes name them by, and the list admins see with each one's
 * state. The writes are licences.ts.
 */
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { addDays, type LicenceState, licenceState } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, schools } from "../db/schema.ts";

/** The licence is active on `today`: begun, and not ended before it. */
export function activeOn(today: string): SQL {
  return sql`(${bookAccess.startsOn} <= ${today} AND (${bookAccess.endsOn} IS NULL OR ${bookAccess.endsOn} >= ${today}))`;
}

export interface LicenceFilter {
  schoolId?: number;
  bookId?: number;
  state?: LicenceState;
  /** Ending between today and this many days from today (both included). */
  endingWithinDays?: number;
  ids?: number[];
}

export function filterSql(filter: LicenceFilter, today: string): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.schoolId !== undefined) conditions.push(eq(bookAccess.schoolId, filter.schoolId));
  if (filter.bookId !== undefined) conditions.push(eq(bookAccess.bookId, filter.bookId));
  if (filter.ids) conditions.push(inArray(bookAccess.id, filter.ids));
  if (filter.state === "scheduled") conditions.push(sql`${bookAccess.startsOn} > ${today}`);
  if (filter.state === "active") conditions.push(activeOn(today));
  if (filter.state === "expired") conditions.push(sql`${bookAccess.endsOn} < ${today}`);
  if (filter.endingWithinDays !== undefined)
    conditions.push(sql`${bookAccess.endsOn} BETWEEN ${today} AND ${addDays(today, filter.endingWithinDays)}`);
  return conditions.length ? and(...conditions) : undefined;
}

const LICENCE_COLUMNS = {
  id: bookAccess.id,
  schoolId: bookAccess.schoolId,
  bookId: bookAccess.bookId,
  startsOn: bookAccess.startsOn,
  endsOn: bookAccess.endsOn,
  seats: bookAccess.seats,
  note: bookAccess.note,
  offlineAllowed: bookAccess.offlineAllowed,
  offlineDays: bookAccess.offlineDays,
  createdAt: bookAccess.createdAt,
  updatedAt: bookAccess.updatedAt,
};

export type LicenceRow = typeof bookAccess.$inferSelect;

/** A licence as the API and the console show it: its row, its state today, and whose it is. */
export type Licence = Omit<LicenceRow, never> & { state: LicenceState; schoolName: string; schoolSlug: string; title: string };

/** Licences to show: most urgent first (the soonest end), at most `limit`. */
export async function listLicences(db: Db, filter: LicenceFilter, today: string, limit = 1000): Promise<Licence[]> {
  const rows = await db
    .select({ ...LICENCE_COLUMNS, schoolName: schools.name, schoolSlug: schools.slug, title: books.title })
    .from(bookAccess)
    .innerJoin(schools, eq(schools.id, bookAccess.schoolId))
    .innerJoin(books, eq(books.id, bookAccess.bookId))
    .where(filterSql(filter, today))
    .orderBy(sql`${bookAccess.endsOn} IS NULL`, asc(bookAccess.endsOn), asc(schools.name), asc(books.title), asc(bookAccess.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, state: licenceState(row, today) }));
}

export async function findLicence(db: Db, id: number): Promise<LicenceRow | null> {
  const [row] = await db.select().from(bookAccess).where(eq(bookAccess.id, id)).limit(1);
  return row ?? null;
}

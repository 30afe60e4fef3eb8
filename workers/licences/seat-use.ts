/**
 * Seat use per licence (docs/decisions/0028): how many teachers read a book at once and how often a
 * teacher found every seat taken, the publisher's sign that a school needs more. Read from
 * seat_daily (what the schools' objects flushed), counting only the days inside both the range and
 * the licence's own period.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { DayRange } from "../reports/range.ts";

/** Whose licence: the school, the book and the seats bought. */
interface LicenceOf {
  licenceId: number;
  schoolId: number;
  school: string;
  bookId: number;
  title: string;
  /** The licence's seat limit (null: none). */
  seats: number | null;
}

/** One licence's seat figures over a range. */
export interface LicenceSeatUse extends LicenceOf {
  startsOn: string;
  endsOn: string | null;
  /** The most teachers reading the book at once on any day of the range. */
  peakReaders: number;
  /** Days on which every seat was taken at some moment. */
  daysFull: number;
  /** Days on which at least one teacher found no free seat. */
  daysTurnedAway: number;
  /** Teachers turned away, each counted once per day. */
  turnedAway: number;
}

/** One licence's day: its peak and the teachers turned away. */
export interface LicenceSeatDay extends LicenceOf {
  day: string;
  peakReaders: number;
  turnedAway: number;
}

export interface SeatUseScope {
  schoolId?: number;
  bookId?: number;
  /** Exactly these licences (the Licences page's rows). */
  ids?: number[];
}

function scopeSql(scope: SeatUseScope): SQL {
  const conditions: SQL[] = [sql`1 = 1`];
  if (scope.schoolId !== undefined) conditions.push(sql`ba.school_id = ${scope.schoolId}`);
  if (scope.bookId !== undefined) conditions.push(sql`ba.book_id = ${scope.bookId}`);
  if (scope.ids) conditions.push(sql`ba.id IN (SELECT value FROM json_each(${JSON.stringify(scope.ids)}))`);
  return sql.join(conditions, sql` AND `);
}

// The licence's days inside the range: a day before it began or after it ended is not its own.
const inPeriod = (range: DayRange) =>
  sql`sd.school_id = ba.school_id AND sd.book_id = ba.book_id
      AND sd.day BETWEEN max(ba.starts_on, ${range.from}) AND min(coalesce(ba.ends_on, '9999-12-31'), ${range.to})`;

/**
 * Each licence in the scope with its figures over the range (zeros where nobody read), the ones
 * that turned teachers away first: one query, at most `limit` rows.
 */
export async function licenceSeatUse(db: Db, scope: SeatUseScope, range: DayRange, limit = 1000): Promise<LicenceSeatUse[]> {
  return db.all<LicenceSeatUse>(sql`
    SELECT ba.id AS licenceId, ba.school_id AS schoolId, s.name AS school, ba.book_id AS bookId, b.title,
      ba.seats, ba.starts_on AS startsOn, ba.ends_on AS endsOn,
      coalesce(max(sd.peak_readers), 0) AS peakReaders,
      count(CASE WHEN ba.seats IS NOT NULL AND sd.peak_readers >= ba.seats THEN 1 END) AS daysFull,
      count(CASE WHEN sd.turned_away > 0 THEN 1 END) AS daysTurnedAway,
      coalesce(sum(sd.turned_away), 0) AS turnedAway
    FROM book_access ba
    JOIN schools s ON s.id = ba.school_id
    JOIN books b ON b.id = ba.book_id
    LEFT JOIN seat_daily sd ON ${inPeriod(range)}
    WHERE ${scopeSql(scope)}
    GROUP BY ba.id
    ORDER BY daysTurnedAway DESC, turnedAway DESC, peakReaders DESC, s.name, b.title, ba.id
    LIMIT ${limit}`);
}

/** The same licences day by day (only days someone read), oldest first: the CSV's rows. */
export async function licenceSeatDays(db: Db, scope: SeatUseScope, range: DayRange, limit = 50_000): Promise<LicenceSeatDay[]> {
  return db.all<LicenceSeatDay>(sql`
    SELECT sd.day, ba.id AS licenceId, ba.school_id AS schoolId, s.name AS school, ba.book_id AS bookId, b.title,
      ba.seats, sd.peak_readers AS peakReaders, sd.turned_away AS turnedAway
    FROM book_access ba
    JOIN seat_daily sd ON ${inPeriod(range)}
    JOIN schools s ON s.id = ba.school_id
    JOIN books b ON b.id = ba.book_id
    WHERE ${scopeSql(scope)}
    ORDER BY sd.day, s.name, b.title, ba.id
    LIMIT ${limit}`);
}

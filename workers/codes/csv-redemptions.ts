/**
 * The redemptions CSV, for invoicing the bookstores (docs/decisions/0053): one row per code redeemed
 * and book it gave, oldest first, with the code's last four characters only (the full code exists
 * nowhere but on its card). A school deleted since keeps its name (the code's snapshot). A book
 * deleted since has no row of its own (its batch no longer names it), but a code whose books are all
 * gone keeps one row with the book's cells empty: the redemption happened and the bookstore is still
 * invoiced for it.
 */
import { type SQL, sql } from "drizzle-orm";
import type { CsvColumns } from "#shared/csv.ts";
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";

export interface RedemptionFilter {
  label?: string;
  batchId?: number;
  /** Redeemed on or after this day (UTC). */
  from?: string;
  /** Redeemed on or before this day (UTC). */
  to?: string;
}

export interface Redemption {
  redeemedAt: number;
  last4: string;
  batchId: number;
  label: string;
  schoolId: number | null;
  school: string | null;
  /** Null when every book of the code's batch has been deleted since. */
  bookId: number | null;
  title: string | null;
}

/** The most rows one file holds: more is refused (narrow the dates), never cut off silently. */
export const MAX_REDEMPTION_ROWS = 100_000;

export const REDEMPTION_COLUMNS: CsvColumns<Redemption> = [
  ["redeemedOn", (r) => dayOf(r.redeemedAt)],
  ["code", (r) => `…${r.last4}`],
  ["batchId", (r) => r.batchId],
  ["label", (r) => r.label],
  ["schoolId", (r) => r.schoolId ?? ""],
  ["school", (r) => r.school ?? ""],
  ["bookId", (r) => r.bookId ?? ""],
  ["title", (r) => r.title ?? ""],
];

const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The rows the filter keeps, at most `limit` (ask for one more than you take to know there are more). */
export async function listRedemptions(db: Db, filter: RedemptionFilter, limit: number): Promise<Redemption[]> {
  const conditions: SQL[] = [sql`c.redeemed_at IS NOT NULL`];
  if (filter.label !== undefined) conditions.push(sql`b.label = ${filter.label}`);
  if (filter.batchId !== undefined) conditions.push(sql`c.batch_id = ${filter.batchId}`);
  if (filter.from !== undefined) conditions.push(sql`c.redeemed_at >= ${startOf(filter.from)}`);
  if (filter.to !== undefined) conditions.push(sql`c.redeemed_at < ${startOf(filter.to) + 86_400_000}`);
  return db.all<Redemption>(sql`
    SELECT c.redeemed_at AS redeemedAt, c.last4 AS last4, c.batch_id AS batchId, b.label AS label,
      c.school_id AS schoolId, c.school_name AS school, bk.id AS bookId, bk.title AS title
    FROM codes c
    JOIN code_batches b ON b.id = c.batch_id
    LEFT JOIN code_batch_books x ON x.batch_id = c.batch_id
    LEFT JOIN books bk ON bk.id = x.book_id
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY c.redeemed_at, c.id, bk.title, bk.id
    LIMIT ${limit}`);
}

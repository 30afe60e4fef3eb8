/**
 * How batches and codes are read (the SQL their lists and the withdrawals share) and turned into
 * what the API answers (BatchSummary, CodeRow in batches.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, runTransaction } from "../db/client.ts";
import type { BatchSummary, CodeRow, CodeStatus } from "./batches.ts";

/** A batch as batchSummarySql reads it: SQLite's booleans as 0/1, its books as JSON text. */
export type BatchRecord = Omit<BatchSummary, "books" | "offlineAllowed" | "expired"> & { books: string; offlineAllowed: number };

/**
 * Batches with their books and counts, newest first: `where` over `b` (code_batches). The counts
 * are the batch's own (redeemed_count, revoked_count: the withdrawn codes not redeemed), kept by the
 * redemption's and the withdrawals' transactions, so no code is read.
 */
export function batchSummarySql(where: SQL, limit: number): SQL {
  return sql`
    SELECT b.id AS id, b.label AS label, b.days AS days, b.ends_on AS endsOn, b.seats AS seats,
      b.offline_allowed AS offlineAllowed, b.offline_days AS offlineDays, b.redeem_by AS redeemBy,
      b.created_at AS createdAt, b.created_by AS createdBy, b.revoked_at AS revokedAt, b.count AS issued,
      (SELECT json_group_array(json_object('id', bk.id, 'title', bk.title))
        FROM code_batch_books x JOIN books bk ON bk.id = x.book_id WHERE x.batch_id = b.id) AS books,
      b.redeemed_count AS redeemed, b.revoked_count AS revoked
    FROM code_batches b
    WHERE ${where}
    ORDER BY b.id DESC LIMIT ${limit}`;
}

export function toSummary(row: BatchRecord, today: string): BatchSummary {
  const books = (JSON.parse(row.books) as { id: number; title: string }[]).sort(
    (a, b) => a.title.localeCompare(b.title, "en") || a.id - b.id,
  );
  return {
    id: row.id,
    label: row.label,
    books,
    days: row.days,
    endsOn: row.endsOn,
    seats: row.seats,
    offlineAllowed: Boolean(row.offlineAllowed),
    offlineDays: row.offlineDays,
    redeemBy: row.redeemBy,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    revokedAt: row.revokedAt,
    issued: row.issued,
    redeemed: row.redeemed,
    revoked: row.revoked,
    expired: row.redeemBy !== null && row.redeemBy < today,
  };
}

/**
 * A code's state, over `c` (codes) joined to its batch `b`: redeemed stays redeemed whatever
 * happened to the batch after; then withdrawn (the code or its batch); then expired (its last day
 * to redeem has passed); else unused.
 */
export function codeStatusSql(today: string): SQL {
  return sql`(CASE
    WHEN c.redeemed_at IS NOT NULL THEN 'redeemed'
    WHEN c.revoked_at IS NOT NULL OR b.revoked_at IS NOT NULL THEN 'revoked'
    WHEN b.redeem_by < ${today} THEN 'expired'
    ELSE 'unused' END)`;
}

export type CodeRecord = CodeRow & { batchId: number; batchRevokedAt: number | null };

/** A code's columns as CodeRecord names them, over `c` joined to `b`. */
export function codeColumnsSql(today: string): SQL {
  return sql`c.id AS id, c.last4 AS last4, ${codeStatusSql(today)} AS status, c.redeemed_at AS redeemedAt,
    c.school_id AS schoolId, c.school_name AS schoolName,
    CASE WHEN c.redeemed_at IS NULL THEN coalesce(c.revoked_at, b.revoked_at) END AS revokedAt,
    c.batch_id AS batchId, b.revoked_at AS batchRevokedAt`;
}

export function toCodeRow(row: CodeRecord): CodeRow {
  return {
    id: row.id,
    last4: row.last4,
    status: row.status as CodeStatus,
    redeemedAt: row.redeemedAt,
    schoolId: row.schoolId,
    schoolName: row.schoolName,
    revokedAt: row.revokedAt,
  };
}

/**
 * Reads in one D1 batch (one round trip, one snapshot): each statement's rows as `T` names them.
 * drizzle's own batch takes built queries only, not raw SQL reads.
 */
export async function readTogether<T extends unknown[]>(db: Db, statements: { [K in keyof T]: SQL }): Promise<{ [K in keyof T]: T[K][] }> {
  const results = await runTransaction(db, statements as SQL[]);
  return results.map((result) => result.results) as { [K in keyof T]: T[K][] };
}

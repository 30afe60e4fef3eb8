/**
 * Batches of bookstore codes (docs/decisions/0053): making one (its codes answered once, stored only
 * as keyed hashes), the publisher's list of them with their counts, and one batch's codes with each
 * one's state. Withdrawing is revoke.ts; the redemptions CSV csv-redemptions.ts; redeeming, redeem*.ts.
 */
import { type SQL, sql } from "drizzle-orm";
import { formatCode, lastFour } from "#shared/rules/code-format.ts";
import { dayOf } from "#shared/rules/licence.ts";
import { type Actor, auditEntry } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import type { BatchInput } from "./batch-input.ts";
import {
  type BatchRecord,
  batchSummarySql,
  type CodeRecord,
  codeColumnsSql,
  codeStatusSql,
  readTogether,
  toCodeRow,
  toSummary,
} from "./batch-rows.ts";
import { type CodeSecrets, hashCode, newCodes } from "./code-hash.ts";

export type CodeStatus = "unused" | "redeemed" | "revoked" | "expired";
export const CODE_STATUSES = ["unused", "redeemed", "revoked", "expired"] as const satisfies readonly CodeStatus[];

/** What a batch's codes grant (licence days from the redemption, or a fixed last day; seats, null for any number; the offline terms) and the last day they redeem. */
export type BatchTerms = {
  days: number | null;
  endsOn: string | null;
  seats: number | null;
  offlineAllowed: boolean;
  offlineDays: number;
  redeemBy: string | null;
};

export type BatchSummary = BatchTerms & {
  id: number;
  label: string;
  books: { id: number; title: string }[];
  createdAt: number;
  createdBy: string;
  revokedAt: number | null;
  issued: number;
  redeemed: number;
  /** Codes withdrawn and not redeemed (a withdrawn batch's unredeemed codes are withdrawn with it). */
  revoked: number;
  /** The last day to redeem has passed. */
  expired: boolean;
};

export type CodeRow = {
  id: number;
  last4: string;
  status: CodeStatus;
  redeemedAt: number | null;
  schoolId: number | null;
  schoolName: string | null;
  revokedAt: number | null;
};

export type LabelTotals = { label: string; batches: number; issued: number; redeemed: number; revoked: number };

/** The most batches the list answers (newest first). */
export const BATCH_LIST_LIMIT = 500;
/** Codes a chunk of the insert binds as one JSON text: 1,000 × about 75 bytes, far under D1's limits. */
const CODES_PER_STATEMENT = 1_000;

export const BATCH_NOT_FOUND = "Batch not found";

export interface CreateOptions {
  now?: number;
  /** The code maker (tests give one that repeats a code, to see the retry). */
  makeCodes?: (count: number) => string[];
}

/**
 * Makes a batch: the batch, its books and all its codes in one transaction, audited in it (the
 * terms, count and books; never a code). The codes are answered here and nowhere else. A code whose
 * hash is taken (two equal codes in 2^80: astronomically rare) fails the whole insert, which is
 * tried once more with fresh codes.
 */
export async function createBatch(
  db: Db,
  secrets: CodeSecrets,
  actor: Actor,
  input: BatchInput,
  options: CreateOptions = {},
): Promise<Outcome<{ batch: BatchSummary; codes: string[] }>> {
  const { now = Date.now(), makeCodes = newCodes } = options;
  const found = await db.all<{ id: number }>(
    sql`SELECT id FROM books WHERE provisional = 0 AND id IN (SELECT value FROM json_each(${JSON.stringify(input.bookIds)}))`,
  );
  const missing = input.bookIds.find((id) => !found.some((row) => row.id === id));
  if (missing !== undefined) return failure("invalid", `No book with id ${missing}`, "bookIds");
  for (let attempt = 1; ; attempt++) {
    const compact = makeCodes(input.count);
    try {
      const batchId = await insertBatch(db, secrets, actor, input, compact, now);
      const batch = await findBatch(db, batchId, dayOf(now));
      return done({ batch: batch!, codes: compact.map(formatCode) });
    } catch (error) {
      if (attempt > 1 || !String(error).includes("codes.hash")) throw error;
    }
  }
}

async function insertBatch(db: Db, secrets: CodeSecrets, actor: Actor, input: BatchInput, compact: string[], now: number): Promise<number> {
  const hashes = await Promise.all(compact.map((code) => hashCode(secrets, code)));
  const rows = compact.map((code, i) => [hashes[i], lastFour(code)]);
  // Inside the transaction the newest batch is this one: AUTOINCREMENT gives each new row an id
  // above every earlier one, and D1 runs one write transaction at a time.
  const batchId = sql`(SELECT max(id) FROM code_batches)`;
  const statements: SQL[] = [
    sql`INSERT INTO code_batches (label, days, ends_on, seats, offline_allowed, offline_days, count, redeem_by, created_by, created_at)
      VALUES (${input.label}, ${input.days}, ${input.endsOn}, ${input.seats}, ${input.offlineAllowed ? 1 : 0}, ${input.offlineDays},
        ${input.count}, ${input.redeemBy}, ${actor.email}, ${now})
      RETURNING id`,
    sql`INSERT INTO code_batch_books (batch_id, book_id) SELECT ${batchId}, value FROM json_each(${JSON.stringify(input.bookIds)})`,
  ];
  // One bound JSON text per chunk (D1 allows 100 parameters and 100 KB of SQL a statement);
  // json_each walks it in order, so the codes' ids follow the batch's order.
  for (let at = 0; at < rows.length; at += CODES_PER_STATEMENT)
    statements.push(
      sql`INSERT INTO codes (batch_id, hash, last4, updated_at)
        SELECT ${batchId}, value ->> '$[0]', value ->> '$[1]', ${now} FROM json_each(${JSON.stringify(rows.slice(at, at + CODES_PER_STATEMENT))})`,
    );
  const { label, bookIds, days, endsOn, seats, offlineAllowed, offlineDays, count, redeemBy } = input;
  statements.push(
    auditEntry(
      db,
      actor,
      {
        action: "code-batch.create",
        entityType: "code-batch",
        entityId: sql`CAST(${batchId} AS TEXT)`,
        after: { label, bookIds, days, endsOn, seats, offlineAllowed, offlineDays, count, redeemBy },
      },
      now,
    ).getSQL(),
  );
  const [inserted] = await runTransaction(db, statements);
  return Number(inserted!.results[0]!.id);
}

/** One batch with its books and counts, or null. */
export async function findBatch(db: Db, id: number, today = dayOf(Date.now())): Promise<BatchSummary | null> {
  const [row] = await db.all<BatchRecord>(batchSummarySql(sql`b.id = ${id}`, 1));
  return row ? toSummary(row, today) : null;
}

/**
 * The publisher's view: batches newest first (at most BATCH_LIST_LIMIT; `label` keeps one
 * bookstore's), each with its books and counts, and the totals of every label (all of them, the
 * filter's choices). Two statements in one round trip, reading batches only: each keeps its own
 * counts (redeemed_count, revoked_count), so 1,000 batches of 10,000 codes cost 1,000 rows, not 10 million.
 */
export async function listBatches(
  db: Db,
  filter: { label?: string } = {},
  today = dayOf(Date.now()),
): Promise<{ batches: BatchSummary[]; labels: LabelTotals[] }> {
  const where = filter.label === undefined ? sql`1` : sql`b.label = ${filter.label}`;
  const [rows, labels] = await readTogether<[BatchRecord, LabelTotals]>(db, [
    batchSummarySql(where, BATCH_LIST_LIMIT),
    sql`
      SELECT label, count(*) AS batches, sum(count) AS issued, sum(redeemed_count) AS redeemed, sum(revoked_count) AS revoked
      FROM code_batches GROUP BY label ORDER BY label`,
  ]);
  return { batches: rows.map((row) => toSummary(row, today)), labels };
}

export interface CodePage {
  status?: CodeStatus;
  offset: number;
  limit: number;
}

/** A batch with one page of its codes (in the batch's order) and how many the status filter keeps; null when there is no such batch. */
export async function batchCodes(
  db: Db,
  batchId: number,
  page: CodePage,
  today = dayOf(Date.now()),
): Promise<{ batch: BatchSummary; codes: CodeRow[]; total: number } | null> {
  const status = codeStatusSql(today);
  const where = page.status ? sql`c.batch_id = ${batchId} AND ${status} = ${page.status}` : sql`c.batch_id = ${batchId}`;
  const [batches, codes, counted] = await readTogether<[BatchRecord, CodeRecord, { total: number }]>(db, [
    batchSummarySql(sql`b.id = ${batchId}`, 1),
    sql`SELECT ${codeColumnsSql(today)} FROM codes c JOIN code_batches b ON b.id = c.batch_id
      WHERE ${where} ORDER BY c.id LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT count(*) AS total FROM codes c JOIN code_batches b ON b.id = c.batch_id WHERE ${where}`,
  ]);
  const [batch] = batches;
  if (!batch) return null;
  return { batch: toSummary(batch, today), codes: codes.map(toCodeRow), total: counted[0]?.total ?? 0 };
}

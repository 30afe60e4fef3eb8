/**
 * Withdrawing codes (docs/decisions/0053; "Withdraw" on the console, revoke in the API): a whole
 * batch (each code not yet redeemed) or one code. A redeemed code's licence stays: the school paid
 * for it; an admin who wants it ended ends that licence on the Licences page. Each withdrawal is one
 * transaction with its audit entry, written only when it changed something, so of two at once one
 * withdraws and the other is told it was done already. A redemption and a withdrawal of one code
 * are two transactions D1 runs one after the other: whichever comes first wins.
 */
import { type SQL, sql } from "drizzle-orm";
import { dayOf, formatDay } from "#shared/rules/licence.ts";
import type { Actor } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { auditWhenChanged, auditWhere } from "../schools/audit.ts";
import { type CodeRecord, codeColumnsSql, toCodeRow } from "./batch-rows.ts";
import { BATCH_NOT_FOUND, type BatchSummary, type CodeRow, findBatch } from "./batches.ts";

export const CODE_NOT_FOUND = "Code not found";

const onDay = (ms: number) => formatDay(dayOf(ms));

export const batchWithdrawnMessage = (revokedAt: number) => `This batch was withdrawn on ${onDay(revokedAt)}`;
export const codeWithdrawnMessage = (revokedAt: number) => `This code was withdrawn on ${onDay(revokedAt)}`;
export const codeRedeemedMessage = (school: string, redeemedAt: number) =>
  `This code was redeemed by ${school} on ${onDay(redeemedAt)}: the licence it gave stays. End that licence on the Licences page if it should end too.`;

/** Withdraws every code of the batch not yet redeemed, and the batch (no code of it redeems from now on). */
export async function revokeBatch(db: Db, actor: Actor, batchId: number, now = Date.now()): Promise<Outcome<{ batch: BatchSummary }>> {
  const before = await findBatch(db, batchId, dayOf(now));
  if (!before) return failure("not-found", BATCH_NOT_FOUND);
  if (before.revokedAt !== null) return failure("conflict", batchWithdrawnMessage(before.revokedAt));
  await runTransaction(db, [
    // The batch first, counting the codes it withdraws while they are still unwithdrawn; then those
    // codes, only if it was this request that withdrew the batch.
    sql`UPDATE code_batches SET revoked_at = ${now},
        revoked_count = revoked_count + (SELECT count(*) FROM codes WHERE batch_id = ${batchId} AND redeemed_at IS NULL AND revoked_at IS NULL)
      WHERE id = ${batchId} AND revoked_at IS NULL`,
    sql`UPDATE codes SET revoked_at = ${now}, updated_at = ${now}
      WHERE batch_id = ${batchId} AND redeemed_at IS NULL AND revoked_at IS NULL
        AND EXISTS (SELECT 1 FROM code_batches WHERE id = ${batchId} AND revoked_at = ${now})`,
    auditWhere(
      db,
      actor,
      {
        action: "code-batch.revoke",
        entityType: "code-batch",
        entityId: batchId,
        // The codes withdrawn now, counted in the transaction (those redeemed before it keep their licences).
        after: sql`json_object('label', ${before.label}, 'codesWithdrawn',
          (SELECT count(*) FROM codes WHERE batch_id = ${batchId} AND revoked_at = ${now}),
          'redeemed', (SELECT count(*) FROM codes WHERE batch_id = ${batchId} AND redeemed_at IS NOT NULL))`,
      },
      // Only if this request withdrew the batch (every code of it may have been redeemed: none withdrawn).
      sql`EXISTS (SELECT 1 FROM code_batches WHERE id = ${batchId} AND revoked_at = ${now})`,
      now,
    ).getSQL(),
  ]);
  const batch = await findBatch(db, batchId, dayOf(now));
  if (!batch) return failure("not-found", BATCH_NOT_FOUND);
  // Another request withdrew it between the read and the write.
  if (batch.revokedAt !== now) return failure("conflict", batchWithdrawnMessage(batch.revokedAt ?? now));
  return done({ batch });
}

/** Which code: its id (from the batch's list), or its hash (a code typed in full, normalized and hashed). */
export type CodeRef = { id: number } | { hash: string };

/** Withdraws one code; 404 when there is none, 409 when it was redeemed or withdrawn already. */
export async function revokeCode(db: Db, actor: Actor, ref: CodeRef, now = Date.now()): Promise<Outcome<{ code: CodeRow }>> {
  const today = dayOf(now);
  const where = "id" in ref ? sql`c.id = ${ref.id}` : sql`c.hash = ${ref.hash}`;
  const before = await findCode(db, where, today);
  if (!before) return failure("not-found", CODE_NOT_FOUND);
  const refusal = alreadyDone(before);
  if (refusal) return refusal;
  await runTransaction(db, [
    sql`UPDATE codes SET revoked_at = ${now}, updated_at = ${now}
      WHERE id = ${before.id} AND redeemed_at IS NULL AND revoked_at IS NULL
        AND EXISTS (SELECT 1 FROM code_batches WHERE id = codes.batch_id AND revoked_at IS NULL)`,
    sql`UPDATE code_batches SET revoked_count = revoked_count + 1
      WHERE id = ${before.batchId} AND changes() > 0`,
    auditWhenChanged(
      db,
      actor,
      { action: "code.revoke", entityType: "code", entityId: before.id, after: { batchId: before.batchId, last4: before.last4 } },
      now,
    ).getSQL(),
  ]);
  const after = await findCode(db, sql`c.id = ${before.id}`, today);
  if (!after) return failure("not-found", CODE_NOT_FOUND);
  // Redeemed or withdrawn by another request between the read and the write.
  if (after.revokedAt !== now || after.status !== "revoked") return alreadyDone(after) ?? failure("conflict", CODE_NOT_FOUND);
  return done({ code: toCodeRow(after) });
}

async function findCode(db: Db, where: SQL, today: string): Promise<CodeRecord | null> {
  const [row] = await db.all<CodeRecord>(
    sql`SELECT ${codeColumnsSql(today)} FROM codes c JOIN code_batches b ON b.id = c.batch_id WHERE ${where} LIMIT 1`,
  );
  return row ?? null;
}

function alreadyDone(code: CodeRecord) {
  if (code.redeemedAt !== null)
    return failure("conflict", codeRedeemedMessage(code.schoolName ?? "a school since deleted", code.redeemedAt));
  if (code.revokedAt !== null) return failure("conflict", codeWithdrawnMessage(code.revokedAt));
  return null;
}

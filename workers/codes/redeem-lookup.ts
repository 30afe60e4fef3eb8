/**
 * What a typed code is, read in one D1 round trip (docs/decisions/0053): the code and its batch by
 * the keyed hash, the batch's books still in the catalogue, and the school's licences of those
 * books; and the refusal it earns, if any. Each refusal speaks only of the code typed: a stranger
 * learns whether this code is wrong, used, expired or withdrawn, never whether another exists.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { dayOf, formatDay } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, codeBatchBooks, codeBatches, codes } from "../db/schema.ts";
import type { Failure } from "../kernel/failure.ts";
import type { BatchTerms } from "./batches.ts";

export const CODE_WRONG = "This code is not valid. Check it and try again.";
export const CODE_USED = "This code has already been redeemed.";
export const CODE_REVOKED = "This code has been withdrawn by the publisher. Ask the bookstore that sold it.";
export const CODE_UNAVAILABLE = "The books of this code are no longer available. Ask the publisher.";

/** "Your school redeemed this code on Nov 29, 2026." (an admin reads the school's name). */
export const usedBySchool = (who: string, day: string) => `${who} redeemed this code on ${formatDay(day)}.`;
/** "This code could be redeemed until Nov 1, 2026. It has expired." */
export const codeExpired = (lastDay: string) => `This code could be redeemed until ${formatDay(lastDay)}. It has expired.`;

/** The refusals' `details.status`, for clients (a page chooses its wording or its icon by it). */
export type RedeemRefusal = "format" | "wrong" | "used" | "expired" | "revoked" | "unavailable" | "throttled";

/** A code as the redemption needs it: the row, its batch's terms, its books, the school's licences of them. */
export interface FoundCode {
  id: number;
  batchId: number;
  last4: string;
  redeemedAt: number | null;
  schoolId: number | null;
  revokedAt: number | null;
  batch: BatchTerms & { label: string; revokedAt: number | null };
  books: { id: number; title: string }[];
  licences: (typeof bookAccess.$inferSelect)[];
}

/** The code whose keyed hash is `hash`, with its batch, books and `schoolId`'s licences of them; null when there is none. */
export async function findCode(db: Db, hash: string, schoolId: number): Promise<FoundCode | null> {
  const ofTheCode = sql`(SELECT ${codes.batchId} FROM ${codes} WHERE ${codes.hash} = ${hash})`;
  // Each table read on its own (no join): D1's batch answers rows by column name, and a join's
  // two revoked_at columns would come back as one.
  const [found, batches, bookRows, licences] = await db.batch([
    db
      .select({
        id: codes.id,
        batchId: codes.batchId,
        last4: codes.last4,
        redeemedAt: codes.redeemedAt,
        schoolId: codes.schoolId,
        revokedAt: codes.revokedAt,
      })
      .from(codes)
      .where(eq(codes.hash, hash)),
    db
      .select({
        label: codeBatches.label,
        days: codeBatches.days,
        endsOn: codeBatches.endsOn,
        seats: codeBatches.seats,
        offlineAllowed: codeBatches.offlineAllowed,
        offlineDays: codeBatches.offlineDays,
        redeemBy: codeBatches.redeemBy,
        revokedAt: codeBatches.revokedAt,
      })
      .from(codeBatches)
      .where(eq(codeBatches.id, ofTheCode)),
    // A book deleted from the catalogue takes its code_batch_books row with it (cascade).
    db
      .select({ id: books.id, title: books.title })
      .from(codeBatchBooks)
      .innerJoin(books, eq(books.id, codeBatchBooks.bookId))
      .where(eq(codeBatchBooks.batchId, ofTheCode))
      .orderBy(books.title, books.id),
    db
      .select()
      .from(bookAccess)
      .where(
        and(
          eq(bookAccess.schoolId, schoolId),
          inArray(
            bookAccess.bookId,
            db.select({ id: codeBatchBooks.bookId }).from(codeBatchBooks).where(eq(codeBatchBooks.batchId, ofTheCode)),
          ),
        ),
      ),
  ]);
  const [code, batch] = [found[0], batches[0]];
  return code && batch ? { ...code, batch, books: bookRows, licences } : null;
}

/**
 * The last day the code may be redeemed (inclusive, UTC): its batch's redeem-by day, and never
 * after the batch's fixed last day (a licence that would end before it starts is worth nothing).
 */
export function lastRedeemDay(batch: { redeemBy: string | null; endsOn: string | null }): string | null {
  const days = [batch.redeemBy, batch.endsOn].filter((day): day is string => day !== null).sort();
  return days[0] ?? null;
}

const refusal = (kind: Failure["kind"], error: string, status: RedeemRefusal, field?: string): Failure => ({
  kind,
  error,
  details: { status },
  ...(field ? { field } : {}),
});

export const wrongCode = (): Failure => refusal("invalid", CODE_WRONG, "wrong", "code");
export const usedCode = (): Failure => refusal("conflict", CODE_USED, "used");

/**
 * Why `code` cannot be redeemed for the school, or null when it can. A redeemed code is "used"
 * first (its school hears when it did), then a withdrawn one, an expired one, and one whose books
 * are all gone from the catalogue. `school.as` is how the school is named to whoever asks ("Your
 * school" to its coordinator, its name to an admin).
 */
export function refusalOf(code: FoundCode | null, school: { id: number; as: string }, now: number): Failure | null {
  if (!code) return wrongCode();
  if (code.redeemedAt !== null)
    return code.schoolId === school.id ? refusal("conflict", usedBySchool(school.as, dayOf(code.redeemedAt)), "used") : usedCode();
  if (code.revokedAt !== null || code.batch.revokedAt !== null) return refusal("conflict", CODE_REVOKED, "revoked");
  const lastDay = lastRedeemDay(code.batch);
  if (lastDay !== null && lastDay < dayOf(now)) return refusal("conflict", codeExpired(lastDay), "expired");
  if (!code.books.length) return refusal("conflict", CODE_UNAVAILABLE, "unavailable");
  return null;
}

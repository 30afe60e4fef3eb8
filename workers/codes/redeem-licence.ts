/**
 * What redeeming a code does to the school's licences (docs/decisions/0053), as the statements of
 * the one D1 transaction: the code claimed with a random redemption id, then each book's licence
 * written, then the audit entry, both only where that id was written. Of two people entering one
 * code at once, the second UPDATE finds the code redeemed and changes nothing, so its licence
 * writes and audit entry do nothing either.
 *
 * The licence rule, per book: none yet, a new one from today with the code's terms ("created"); one
 * that has ended, the same, in place ("restarted"); one running or scheduled, extended ("extended"):
 * by the code's days from its last day (or to the code's last day, if later; an open-ended one
 * stays open), the larger seat count (no limit wins), offline allowed if either allows it, for the
 * longer of the two. The rule is written in SQL against the row as the transaction finds it, so an
 * admin's change a moment earlier is extended, not overwritten.
 */
import { type SQL, sql } from "drizzle-orm";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import type { AuditActor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { auditWhere } from "../schools/audit.ts";
import type { FoundCode } from "./redeem-lookup.ts";

export type LicenceAction = "created" | "extended" | "restarted";

/** A licence's days and terms, as the audit entry records them before and after. */
type Terms = { startsOn: string; endsOn: string | null; seats: number | null; offlineAllowed: boolean; offlineDays: number };

/** What the redemption will do to each book's licence, judged on the licences read with the code. */
export function plannedActions(
  code: FoundCode,
  today: string,
): { bookId: number; title: string; action: LicenceAction; before: Terms | null }[] {
  return code.books.map((book) => {
    const licence = code.licences.find((row) => row.bookId === book.id);
    if (!licence) return { bookId: book.id, title: book.title, action: "created", before: null };
    const { startsOn, endsOn, seats, offlineAllowed, offlineDays } = licence;
    const before = { startsOn, endsOn, seats, offlineAllowed, offlineDays };
    return { bookId: book.id, title: book.title, action: endsOn !== null && endsOn < today ? "restarted" : "extended", before };
  });
}

/** The note a created or restarted licence carries: `Bookstore code …4TWA (label)`. */
export const redeemedNote = (code: Pick<FoundCode, "last4" | "batch">) => `Bookstore code …${code.last4} (${code.batch.label})`;

/** A licence row as the upsert returns it. */
export interface WrittenLicence {
  id: number;
  bookId: number;
  startsOn: string;
  endsOn: string | null;
  seats: number | null;
}

export interface Redemption {
  code: FoundCode;
  hash: string;
  school: { id: number; name: string };
  actor: AuditActor;
  now: number;
}

/**
 * The transaction's four statements (the first returns the code's id when this redemption claimed
 * it, the second the licences written), and `ours`: the condition that holds in the rest of the
 * transaction only if this redemption claimed the code, for what the caller adds to it.
 */
export function redemptionStatements(db: Db, { code, hash, school, actor, now }: Redemption): { statements: SQL[]; ours: SQL } {
  const today = dayOf(now);
  const { batch } = code;
  const redemption = crypto.randomUUID();
  const ours = sql`EXISTS (SELECT 1 FROM codes WHERE id = ${code.id} AND redemption = ${redemption})`;
  const claim = sql`UPDATE codes SET redeemed_at = ${now}, school_id = ${school.id}, school_name = ${school.name},
      redemption = ${redemption}, updated_at = ${now}
    WHERE hash = ${hash} AND redeemed_at IS NULL AND revoked_at IS NULL
      AND EXISTS (SELECT 1 FROM code_batches b WHERE b.id = codes.batch_id AND b.revoked_at IS NULL
        AND (b.redeem_by IS NULL OR b.redeem_by >= ${today}) AND (b.ends_on IS NULL OR b.ends_on >= ${today}))
      AND EXISTS (SELECT 1 FROM code_batch_books WHERE batch_id = codes.batch_id)
      AND ${licencesUnchanged(code, school.id)}
    RETURNING id`;
  // A new licence's last day: the code's days counted from today (today is the first), or its fixed day.
  const newEnd = batch.days !== null ? addDays(today, batch.days - 1) : batch.endsOn;
  const ended = sql`(ends_on IS NOT NULL AND ends_on < ${today})`;
  // Bound as text: D1 sends a JS number as REAL ("+30.0 days").
  const extendedEnd = batch.days !== null ? sql`date(ends_on, ${`+${batch.days} days`})` : sql`max(ends_on, ${batch.endsOn})`;
  const licences = sql`INSERT INTO book_access (school_id, book_id, starts_on, ends_on, seats, note, offline_allowed, offline_days, created_at, updated_at)
    SELECT ${school.id}, book_id, ${today}, ${newEnd}, ${batch.seats}, ${redeemedNote(code)}, ${batch.offlineAllowed ? 1 : 0},
      ${batch.offlineDays}, ${now}, ${now}
    FROM code_batch_books WHERE batch_id = ${code.batchId} AND ${ours}
    ON CONFLICT (school_id, book_id) DO UPDATE SET
      starts_on = CASE WHEN ${ended} THEN excluded.starts_on ELSE starts_on END,
      ends_on = CASE WHEN ${ended} THEN excluded.ends_on WHEN ends_on IS NULL THEN NULL ELSE ${extendedEnd} END,
      seats = CASE WHEN ${ended} THEN excluded.seats WHEN seats IS NULL OR excluded.seats IS NULL THEN NULL
        ELSE max(seats, excluded.seats) END,
      note = CASE WHEN ${ended} THEN excluded.note ELSE note END,
      offline_allowed = CASE WHEN ${ended} THEN excluded.offline_allowed ELSE max(offline_allowed, excluded.offline_allowed) END,
      offline_days = CASE WHEN ${ended} THEN excluded.offline_days ELSE max(offline_days, excluded.offline_days) END,
      updated_at = excluded.updated_at
    RETURNING id, book_id AS bookId, starts_on AS startsOn, ends_on AS endsOn, seats`;
  // The batch's own count, which the publisher's list reads instead of its codes.
  const counted = sql`UPDATE code_batches SET redeemed_count = redeemed_count + 1 WHERE id = ${code.batchId} AND ${ours}`;
  return { statements: [claim, licences, auditStatement(db, { code, school, actor, now }, ours, today), counted], ours };
}

/**
 * Whether the school's licences of the batch's books are still as the lookup read them: each book's
 * action and the audit's "before" were judged on them. A licence written in between (the school
 * redeeming another code for the same book at that moment) fails the claim, and the redemption is
 * judged again on the licences as they are then (redeem.ts); without this check both answers said
 * "created" and the second audit entry had no "before", though the second code extended the licence.
 */
function licencesUnchanged(code: FoundCode, schoolId: number): SQL {
  const asRead = code.licences
    .map((row) => [row.bookId, row.startsOn, row.endsOn, row.seats, row.offlineAllowed ? 1 : 0, row.offlineDays] as const)
    .sort((a, b) => a[0] - b[0]);
  return sql`(SELECT json_group_array(json_array(book_id, starts_on, ends_on, seats, offline_allowed, offline_days))
      FROM (SELECT * FROM book_access WHERE school_id = ${schoolId}
        AND book_id IN (SELECT book_id FROM code_batch_books WHERE batch_id = ${code.batchId}) ORDER BY book_id)) = ${JSON.stringify(asRead)}`;
}

/**
 * The audit entry `code.redeem` (on the school): the batch, the code's last four, and per book
 * what was done, its licence before (read with the code) and after (read inside the transaction,
 * so it is what was written).
 */
function auditStatement(db: Db, { code, school, actor, now }: Omit<Redemption, "hash">, ours: SQL, today: string): SQL {
  const planned = JSON.stringify(plannedActions(code, today));
  const head = JSON.stringify({ batchId: code.batchId, codeId: code.id, last4: code.last4, label: code.batch.label });
  const after = sql`json_set(${head}, '$.books', (SELECT json_group_array(json_object(
      'bookId', p.value ->> 'bookId', 'title', p.value ->> 'title', 'action', p.value ->> 'action', 'before', p.value -> 'before',
      'after', (SELECT json_object('licenceId', a.id, 'startsOn', a.starts_on, 'endsOn', a.ends_on, 'seats', a.seats,
        'offlineAllowed', json(CASE WHEN a.offline_allowed THEN 'true' ELSE 'false' END), 'offlineDays', a.offline_days)
        FROM book_access a WHERE a.school_id = ${school.id} AND a.book_id = p.value ->> 'bookId')))
    FROM json_each(${planned}) p))`;
  return auditWhere(db, actor, { action: "code.redeem", entityType: "school", entityId: school.id, after }, ours, now).getSQL();
}

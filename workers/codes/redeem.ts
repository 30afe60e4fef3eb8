/**
 * Redeeming a bookstore code for a school (docs/decisions/0053), for its coordinator or an admin
 * (the commands in redeem-commands.ts decide who and for which school). In order: the code's
 * format (no lookup, not counted); the try's place in the throttle on the person, the school and
 * the address (throttle.ts); the code looked up by its keyed hash and any refusal (a failed try
 * stays counted); then one D1
 * transaction claiming the code and writing the licences and the audit entry (redeem-licence.ts);
 * then the school's object told its catalogue changed. A code claimed by someone else between the
 * lookup and the transaction is looked up again and refused as used.
 */
import { CODE_FORMAT_ERROR, normalizeCode } from "#shared/rules/code-format.ts";
import { dayOf } from "#shared/rules/licence.ts";
import type { AuditActor } from "../admins/audit.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { done, type Failure, failed, type Outcome } from "../kernel/failure.ts";
import { catalogueChanged } from "../licences/licences.ts";
import type { HotState } from "../school-object/objects.ts";
import { type CodeSecrets, hashCode } from "./code-hash.ts";
import { type LicenceAction, plannedActions, redemptionStatements, type WrittenLicence } from "./redeem-licence.ts";
import { findCode, refusalOf, wrongCode } from "./redeem-lookup.ts";
import { redeemedMessage } from "./redeem-message.ts";
import { type CodePerson, placesGivenBack, reserveTry, tryFailed } from "./throttle.ts";

/** Transactions tried when the school's licences keep changing under the redemption (each after a fresh lookup). */
const MAX_ROUNDS = 3;
export const LICENCES_BUSY = "Your school's licences were being changed at that moment. Try the code again.";

/** What a redemption answers: the code's last four, the school, and each book's licence now. */
export interface Redeemed {
  last4: string;
  schoolId: number;
  books: {
    bookId: number;
    title: string;
    licenceId: number;
    action: LicenceAction;
    startsOn: string;
    endsOn: string | null;
    seats: number | null;
  }[];
  message: string;
}

/** Who redeems, for which school (checked by the command), from where, and as whom the audit log names them. */
export interface Redeemer {
  person: CodePerson;
  actor: AuditActor;
  ip: string;
  school: { id: number; name: string };
  /** A coordinator of the school: the sentences say "your school" (an admin reads its name). */
  own: boolean;
}

/** The codes' key and the schools' objects. */
export type RedeemEnv = CodeSecrets & HotState;

export async function redeemCode(
  db: Db,
  env: RedeemEnv,
  redeemer: Redeemer,
  typed: string,
  now = Date.now(),
): Promise<Outcome<{ redeemed: Redeemed }>> {
  const compact = normalizeCode(typed);
  if (!compact) return failed({ kind: "invalid", error: CODE_FORMAT_ERROR, field: "code", details: { status: "format" } });
  const attempt = { person: redeemer.person, schoolId: redeemer.school.id, ip: redeemer.ip };
  const hash = await hashCode(env, compact);
  const reserved = await reserveTry(db, attempt, now);
  if (!reserved.ok) return reserved;
  const { reservation } = reserved;
  const { school } = redeemer;
  const named = { id: school.id, as: redeemer.own ? "Your school" : school.name };
  const refuse = async (failure: Failure) => {
    await tryFailed(db, reservation, now);
    return failed(failure);
  };

  let code = await findCode(db, hash, school.id);
  let results: Awaited<ReturnType<typeof runTransaction>> = [];
  for (let round = 1; ; round++) {
    if (!code) return refuse(wrongCode());
    const refusal = refusalOf(code, named, now);
    if (refusal) return refuse(refusal);
    const { statements, ours } = redemptionStatements(db, { code, hash, school, actor: redeemer.actor, now });
    // The try's places in the throttle given back in the same transaction: only failures stay counted.
    results = await runTransaction(db, [...statements, ...placesGivenBack(reservation, ours)]);
    if (results[0]?.results.length) break;
    // Not claimed: by someone else, or withdrawn, since the lookup (say what it is now); or the
    // school's licences of its books changed since (redeem-licence.ts): judged again as they are.
    code = await findCode(db, hash, school.id);
    if (round >= MAX_ROUNDS && code && !refusalOf(code, named, now)) {
      // Not the code's fault, so not counted against anyone.
      await runTransaction(db, placesGivenBack(reservation));
      return failed({ kind: "conflict", error: LICENCES_BUSY, details: { status: "busy" } });
    }
  }
  await catalogueChanged(env, [school.id]);

  const written = (results[1]?.results ?? []) as unknown as WrittenLicence[];
  const titles = new Map(code.books.map((book) => [book.id, book.title]));
  const actions = new Map(plannedActions(code, dayOf(now)).map((plan) => [plan.bookId, plan.action]));
  const books = written
    .map((row) => ({
      bookId: row.bookId,
      title: titles.get(row.bookId) ?? "",
      licenceId: row.id,
      action: actions.get(row.bookId) ?? "created",
      startsOn: row.startsOn,
      endsOn: row.endsOn,
      seats: row.seats,
    }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.bookId - b.bookId);
  const message = redeemedMessage(books, redeemer.own ? "your school" : school.name);
  return done({ redeemed: { last4: code.last4, schoolId: school.id, books, message } });
}

// What the redemption tests share: a batch of codes written straight to D1 (stored as the code
// maker stores them: keyed hash and last four), a school's coordinator, and the redeem call through
// the typed client with a fresh client address, so no test shares a throttle key with another.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { formatCode, lastFour } from "#shared/rules/code-format.ts";
import { hashCode, newCodes } from "../../workers/codes/code-hash.ts";
import { codeBatchBooks, codeBatches, codes, teachers } from "../../workers/db/schema.ts";
import { client, createBook, createSchool, db, signedInTeacher } from "./helpers.ts";

export interface BatchTerms {
  days?: number | null;
  endsOn?: string | null;
  seats?: number | null;
  offlineAllowed?: boolean;
  offlineDays?: number;
  redeemBy?: string | null;
  count?: number;
  label?: string;
}

/** A batch for `bookIds` with the terms given (a year, 30 seats by default) and its codes, as printed. */
export async function makeBatch(bookIds: number[], terms: BatchTerms = {}) {
  const { count = 1, label = `Bookstore ${crypto.randomUUID().slice(0, 8)}`, ...rest } = terms;
  const [batch] = await db()
    .insert(codeBatches)
    .values({
      label,
      days: rest.endsOn ? null : (rest.days ?? 365),
      endsOn: rest.endsOn ?? null,
      seats: rest.seats === undefined ? 30 : rest.seats,
      offlineAllowed: rest.offlineAllowed ?? true,
      offlineDays: rest.offlineDays ?? 14,
      count,
      redeemBy: rest.redeemBy ?? null,
      createdBy: "fixtures@lectern.test",
    })
    .returning();
  if (bookIds.length)
    await db()
      .insert(codeBatchBooks)
      .values(bookIds.map((bookId) => ({ batchId: batch!.id, bookId })));
  const made = newCodes(count);
  const rows = await Promise.all(
    made.map(async (code) => ({ batchId: batch!.id, hash: await hashCode(env, code), last4: lastFour(code) })),
  );
  await db().insert(codes).values(rows);
  return { batch: batch!, codes: made.map(formatCode) };
}

/** One book and a one-code batch for it: the book, the batch and the code. */
export async function oneCode(terms: BatchTerms = {}, title = `Counting Creatures ${crypto.randomUUID().slice(0, 8)}`) {
  const book = await createBook({ title });
  const { batch, codes: made } = await makeBatch([book.id], terms);
  return { book, batch, code: made[0]! };
}

/** A signed-in teacher of `school` whom the admin has made a coordinator. */
export async function coordinatorOf(school: { id: number }, name = "Casey Coordinator") {
  const signedIn = await signedInTeacher(school, name);
  await db().update(teachers).set({ coordinator: true }).where(eq(teachers.id, signedIn.teacher.id));
  return signedIn;
}

/** A school (room for many teachers) and its coordinator. */
export async function schoolWithCoordinator() {
  const school = await createSchool({ teacherLimit: 50 });
  return { school, coordinator: await coordinatorOf(school) };
}

/** A client address no other test uses (the throttle counts per address). */
export const freshIp = () => `198.51.100.${crypto.randomUUID()}`;

type RedeemBody = InferRequestType<ReturnType<typeof client>["api"]["codes"]["redeem"]["$post"]>["json"];

/** POST /api/codes/redeem with `cookie` (or none) from `ip` (a fresh one by default) on `origin`. */
export function redeem(cookie: string | null, json: RedeemBody, call: { ip?: string; origin?: string } = {}) {
  return client({ cookie, ip: call.ip ?? freshIp(), ...(call.origin ? { origin: call.origin } : {}) }).api.codes.redeem.$post({ json });
}

/** The code row of a printed code, as stored. */
export async function storedCode(printed: string) {
  const compact = printed.replaceAll("-", "").slice(4);
  const [row] = await db()
    .select()
    .from(codes)
    .where(eq(codes.hash, await hashCode(env, compact)));
  return row;
}

import { eq, sql } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { codeBatches, codes } from "../../workers/db/schema.ts";
import { client, createBook, db, okBody } from "./helpers.ts";

/** The admin's typed client for /api/codes. */
export const codesApi = (cookie: string) => client({ cookie }).api.codes;
export type BatchBody = InferRequestType<ReturnType<typeof codesApi>["batches"]["$post"]>["json"];

/** A label no other test (of any file sharing the D1) uses. */
export const uniqueLabel = (name = "Bookstore") => `${name} ${crypto.randomUUID().slice(0, 8)}`;

/** A book of its own for a test, titled uniquely. */
export const ownBook = (title = "Codes Book") => createBook({ title: `${title} ${crypto.randomUUID().slice(0, 8)}` });

/** A batch made through the API (a year's licence, 30 seats, three codes, unless `body` says otherwise). */
export async function makeBatch(cookie: string, body: Partial<BatchBody> = {}) {
  const bookIds = body.bookIds ?? [(await ownBook()).id];
  return okBody(codesApi(cookie).batches.$post({ json: { label: uniqueLabel(), days: 365, seats: 30, count: 3, ...body, bookIds } }));
}

/** The batch's code rows in the batch's order. */
export const storedCodes = (batchId: number) => db().select().from(codes).where(eq(codes.batchId, batchId)).orderBy(codes.id);

/**
 * A code marked redeemed by `school` as a redemption writes it, its batch's count too (redeeming itself is
 * workers/codes/redeem.ts's; these tests need only its row).
 */
export async function markRedeemed(codeId: number, school: { id: number; name: string }, at = Date.now()) {
  await db().batch([
    db()
      .update(codes)
      .set({ redeemedAt: at, schoolId: school.id, schoolName: school.name, redemption: crypto.randomUUID(), updatedAt: at })
      .where(eq(codes.id, codeId)),
    // The batch's own count, as the redemption's transaction keeps it.
    db()
      .update(codeBatches)
      .set({ redeemedCount: sql`redeemed_count + 1` })
      .where(sql`id = (SELECT batch_id FROM codes WHERE id = ${codeId})`),
  ]);
}

/** Sets a batch's last day to redeem directly (a day in the past cannot be asked for). */
export async function setRedeemBy(batchId: number, day: string) {
  await db().run(sql`UPDATE code_batches SET redeem_by = ${day} WHERE id = ${batchId}`);
}

// Review of issue 46 (bookstore codes): two codes for the same book redeemed by one school at the
// same moment. The licence must be the one licence, extended by the second code; and what each
// answer and audit entry says was done (created, extended) must be what the transaction did, not
// what the licences looked like when each code was looked up.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays } from "#shared/rules/licence.ts";
import { auditLog } from "../../workers/db/schema.ts";
import { makeBatch, redeem, schoolWithCoordinator } from "./code-redeem-fixtures.ts";
import { today } from "./fixtures-suite.ts";
import { createBook, db, licenceOf, okBody } from "./helpers.ts";

describe("two codes for one book redeemed by one school at once", () => {
  it("one licence, extended by the second; one answer says created, the other extended, and so do the audit entries", async () => {
    for (let round = 0; round < 5; round++) {
      const { school, coordinator } = await schoolWithCoordinator();
      const book = await createBook({ title: `Twice ${crypto.randomUUID().slice(0, 8)}` });
      const [first, second] = await Promise.all([
        makeBatch([book.id], { days: 100, seats: 10 }),
        makeBatch([book.id], { days: 100, seats: 20 }),
      ]);
      const answers = await Promise.all([first.codes[0]!, second.codes[0]!].map((code) => okBody(redeem(coordinator.cookie, { code }))));
      expect(await licenceOf(school.id, book.id)).toMatchObject({ startsOn: today(), endsOn: addDays(today(), 199), seats: 20 });
      const actions = answers.map((answer) => answer.redeemed.books[0]!.action).sort();
      expect(actions, `round ${round}`).toEqual(["created", "extended"]);
      const entries = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "code.redeem"), eq(auditLog.entityId, String(school.id))));
      const audited = entries.map((entry) => {
        const [only] = (entry.after as { books: { action: string; before: unknown }[] }).books;
        return { action: only!.action, hadBefore: only!.before !== null };
      });
      expect(audited.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
        { action: "created", hadBefore: false },
        { action: "extended", hadBefore: true },
      ]);
    }
  });
});

// What a redeemed code does to the school's licences (docs/decisions/0053): created, extended by
// days or to a last day, restarted after an end; seats the larger (no limit wins), offline terms
// the more generous; a bundle; the code row, the audit entry, and a teacher of the school reading
// the book afterwards.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays, formatDay } from "#shared/rules/licence.ts";
import { auditLog, bookAccess } from "../../workers/db/schema.ts";
import { makeBatch, oneCode, redeem, schoolWithCoordinator, storedCode } from "./code-redeem-fixtures.ts";
import { today } from "./fixtures-suite.ts";
import { client, createBook, db, licenceOf, okBody, signedInTeacher } from "./helpers.ts";

/** A licence the school had before the code, with its own terms. */
async function existingLicence(schoolId: number, bookId: number, terms: Partial<typeof bookAccess.$inferInsert>) {
  await db()
    .insert(bookAccess)
    .values({ schoolId, bookId, startsOn: addDays(today(), -30), endsOn: addDays(today(), 100), seats: 10, note: "PO-1234", ...terms });
}

describe("a redeemed code's licence", () => {
  it("created: from today for the code's days, its seats and offline terms, noted with the code's last four and label", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const { book, batch, code } = await oneCode({ days: 365, seats: 30, offlineAllowed: false, offlineDays: 5 });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code }));
    const endsOn = addDays(today(), 364);
    const licence = await licenceOf(school.id, book.id);
    expect(licence).toMatchObject({
      startsOn: today(),
      endsOn,
      seats: 30,
      offlineAllowed: false,
      offlineDays: 5,
      note: `Bookstore code …${code.slice(-4)} (${batch.label})`,
    });
    expect(redeemed).toEqual({
      last4: code.slice(-4),
      schoolId: school.id,
      books: [{ bookId: book.id, title: book.title, licenceId: licence!.id, action: "created", startsOn: today(), endsOn, seats: 30 }],
      message: `Code redeemed: “${book.title}” is licensed to your school until ${formatDay(endsOn)}, for 30 readers at once.`,
    });
    const stored = await storedCode(code);
    expect(stored).toMatchObject({ schoolId: school.id, schoolName: school.name, revokedAt: null });
    expect(stored!.redeemedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(stored!.redemption).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("extended by the code's days from its last day: the start and note kept, seats and offline terms the larger", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const { book, code } = await oneCode({ days: 365, seats: 30, offlineAllowed: true, offlineDays: 21 });
    await existingLicence(school.id, book.id, { seats: 10, offlineAllowed: false, offlineDays: 7 });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code }));
    const endsOn = addDays(addDays(today(), 100), 365);
    expect(await licenceOf(school.id, book.id)).toMatchObject({
      startsOn: addDays(today(), -30),
      endsOn,
      seats: 30,
      note: "PO-1234",
      offlineAllowed: true,
      offlineDays: 21,
    });
    expect(redeemed.books[0]).toMatchObject({ action: "extended", endsOn, seats: 30, startsOn: addDays(today(), -30) });
  });

  it("extended to the code's last day, or kept when it ends later; larger seats and offline days kept", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const later = await oneCode({ endsOn: addDays(today(), 200), seats: 5, offlineAllowed: false, offlineDays: 3 });
    await existingLicence(school.id, later.book.id, { seats: 50, offlineAllowed: true, offlineDays: 30 });
    await okBody(redeem(coordinator.cookie, { code: later.code }));
    expect(await licenceOf(school.id, later.book.id)).toMatchObject({
      endsOn: addDays(today(), 200),
      seats: 50,
      offlineAllowed: true,
      offlineDays: 30,
    });

    const earlier = await oneCode({ endsOn: addDays(today(), 50) });
    await existingLicence(school.id, earlier.book.id, { endsOn: addDays(today(), 300) });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code: earlier.code }));
    expect(redeemed.books[0]).toMatchObject({ action: "extended", endsOn: addDays(today(), 300) });
  });

  it("restarted after its end: from today with the code's terms, as a new one", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const { book, batch, code } = await oneCode({ days: 90, seats: 12 });
    await existingLicence(school.id, book.id, { startsOn: addDays(today(), -400), endsOn: addDays(today(), -1), seats: 100 });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code }));
    const expected = { startsOn: today(), endsOn: addDays(today(), 89), seats: 12 };
    expect(await licenceOf(school.id, book.id)).toMatchObject({ ...expected, note: `Bookstore code …${code.slice(-4)} (${batch.label})` });
    expect(redeemed.books[0]).toMatchObject({ action: "restarted", ...expected });
  });

  it("no seat limit wins either way; an open-ended licence stays open; a scheduled one is extended", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const unlimitedCode = await oneCode({ seats: null, days: 30 });
    await existingLicence(school.id, unlimitedCode.book.id, { seats: 10 });
    const first = await okBody(redeem(coordinator.cookie, { code: unlimitedCode.code }));
    expect(await licenceOf(school.id, unlimitedCode.book.id)).toMatchObject({ seats: null, endsOn: addDays(today(), 130) });
    expect(first.redeemed.message).toContain("for any number of readers.");

    const openEnded = await oneCode({ seats: 30, days: 30 });
    await existingLicence(school.id, openEnded.book.id, { seats: null, endsOn: null });
    const second = await okBody(redeem(coordinator.cookie, { code: openEnded.code }));
    expect(await licenceOf(school.id, openEnded.book.id)).toMatchObject({ seats: null, endsOn: null });
    expect(second.redeemed.message).toBe(
      `Code redeemed: “${openEnded.book.title}” is licensed to your school with no end date, for any number of readers.`,
    );

    const scheduled = await oneCode({ days: 10, seats: 1 });
    await existingLicence(school.id, scheduled.book.id, { startsOn: addDays(today(), 20), endsOn: addDays(today(), 40), seats: null });
    const third = await okBody(redeem(coordinator.cookie, { code: scheduled.code }));
    expect(third.redeemed.books[0]).toMatchObject({
      action: "extended",
      startsOn: addDays(today(), 20),
      endsOn: addDays(today(), 50),
      seats: null,
    });
  });

  it("a bundle of two books: both licensed, each by the rule, named in one sentence", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const tag = crypto.randomUUID().slice(0, 6);
    const [first, second] = [await createBook({ title: `A Bundle One ${tag}` }), await createBook({ title: `B Bundle Two ${tag}` })];
    const { codes: made } = await makeBatch([first.id, second.id], { days: 365, seats: 1, count: 2 });
    const both = await okBody(redeem(coordinator.cookie, { code: made[0]! }));
    const endsOn = addDays(today(), 364);
    expect(both.redeemed.books.map((book) => [book.title, book.action])).toEqual([
      [first.title, "created"],
      [second.title, "created"],
    ]);
    expect(both.redeemed.message).toBe(
      `Code redeemed: “${first.title}” and “${second.title}” are licensed to your school until ${formatDay(endsOn)}, for 1 reader at once.`,
    );
    // The second code of the batch extends both: each by the code's days.
    const again = await okBody(redeem(coordinator.cookie, { code: made[1]! }));
    expect(again.redeemed.books.map((book) => [book.action, book.endsOn])).toEqual([
      ["extended", addDays(endsOn, 365)],
      ["extended", addDays(endsOn, 365)],
    ]);
    const rows = await db().select().from(bookAccess).where(eq(bookAccess.schoolId, school.id));
    expect(rows).toHaveLength(2);
  });

  it("a bundle whose books end differently: each named with its own terms, in one sentence", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const tag = crypto.randomUUID().slice(0, 6);
    const [first, second] = [await createBook({ title: `A Had It ${tag}` }), await createBook({ title: `B New One ${tag}` })];
    await existingLicence(school.id, first.id, { seats: null, endsOn: null });
    const { codes: made } = await makeBatch([first.id, second.id], { days: 30, seats: 25 });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code: made[0]! }));
    expect(redeemed.books.map((book) => book.action)).toEqual(["extended", "created"]);
    expect(redeemed.message).toBe(
      `Code redeemed: “${first.title}” is licensed to your school with no end date, for any number of readers; “${second.title}” until ${formatDay(addDays(today(), 29))}, for 25 readers at once.`,
    );
  });

  it("is audited once, in the same transaction: code.redeem on the school, each book's licence before and after; never the code", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const { book, batch, code } = await oneCode({ days: 365, seats: 30 });
    await existingLicence(school.id, book.id, { seats: 10 });
    const { redeemed } = await okBody(redeem(coordinator.cookie, { code }));
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "code.redeem"), eq(auditLog.entityId, String(school.id))));
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ entityType: "school", adminId: null, adminEmail: `${coordinator.teacher.email} (coordinator)` });
    expect(entry!.after).toMatchObject({
      batchId: batch.id,
      last4: code.slice(-4),
      books: [
        {
          bookId: book.id,
          title: book.title,
          action: "extended",
          before: { endsOn: addDays(today(), 100), seats: 10 },
          after: { licenceId: redeemed.books[0]!.licenceId, endsOn: addDays(today(), 465), seats: 30 },
        },
      ],
    });
    const compact = code.replaceAll("-", "").slice(4);
    const [{ found }] = (await db().all(sql`SELECT count(*) AS found FROM audit_log WHERE after LIKE ${`%${compact}%`}`)) as [
      { found: number },
    ];
    expect(found).toBe(0);
  });

  it("lets the school's teachers see and open the book at once", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const teacher = await signedInTeacher(school, "Terry Teacher");
    const { book, code } = await oneCode();
    const library = client({ cookie: teacher.cookie }).api.schools.slug[":slug"].books;
    const bookPage = () => library[":bookId"].$get({ param: { slug: school.slug, bookId: String(book.id) } });
    expect((await bookPage()).status).toBe(404);
    await okBody(redeem(coordinator.cookie, { code }));
    const listed = await okBody(library.$get({ param: { slug: school.slug }, query: {} }));
    expect(listed.books.map((row) => row.id)).toContain(book.id);
    expect((await okBody(bookPage())).book).toMatchObject({ id: book.id, title: book.title });
  });
});

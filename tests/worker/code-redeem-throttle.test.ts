// Guessing codes is throttled (docs/decisions/0053): failed tries of well-formed codes count per
// person (10 an hour), per school (30) and per address (20), each blocking for an hour, checked
// before any lookup (so even a real code is refused then); what is not a code is not counted. And
// a code entered by 20 people at once is redeemed exactly once.
import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays } from "#shared/rules/licence.ts";
import { auditLog, bookAccess, codeBatches } from "../../workers/db/schema.ts";
import { coordinatorOf, freshIp, oneCode, redeem, schoolWithCoordinator, storedCode } from "./code-redeem-fixtures.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import { createSchool, db, errorBody, licenceOf } from "./helpers.ts";

const admin = adminForTheFile();

/** A well-formed code no batch has (each try is a failure that counts). */
const madeUpCode = () => {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  return `LECT-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte & 31]).join("")}`;
};

/** `n` wrong tries by `cookie`, each from the address `ip()` gives; every one must be refused as wrong. */
async function wrongTries(cookie: string, n: number, ip: () => string = freshIp) {
  for (let i = 0; i < n; i++) {
    const answer = await redeem(cookie, { code: madeUpCode() }, { ip: ip() });
    expect(answer.status, `try ${i + 1}`).toBe(400);
  }
}

/** A throttled answer: 429, the sentence, an hour's Retry-After. */
async function expectThrottled(answer: ReturnType<typeof redeem>) {
  const response = await answer;
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(3500);
  expect(Number(response.headers.get("Retry-After"))).toBeLessThanOrEqual(3600);
  expect(await errorBody(response)).toMatchObject({ error: "Too many codes tried. Try again in 60 minutes.", status: "throttled" });
}

describe("the throttle on codes", () => {
  it("per person: 10 wrong codes an hour, then even a real code is refused (not looked up); another coordinator goes on", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    await wrongTries(coordinator.cookie, 10);
    const { book, code } = await oneCode();
    await expectThrottled(redeem(coordinator.cookie, { code }));
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
    expect(await licenceOf(school.id, book.id)).toBeUndefined();
    const colleague = await coordinatorOf(school, "Second Coordinator");
    expect((await redeem(colleague.cookie, { code })).status).toBe(200);
  });

  it("holds against a burst: of 25 wrong codes sent at once by one person, exactly 10 are looked up", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const answers = await Promise.all(Array.from({ length: 25 }, () => redeem(coordinator.cookie, { code: madeUpCode() })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it("per school: 30 an hour from any number of coordinators and addresses; an admin for that school too", async () => {
    const school = await createSchool({ teacherLimit: 50 });
    for (let i = 0; i < 3; i++) await wrongTries((await coordinatorOf(school, `Coordinator ${i}`)).cookie, 10);
    const { code } = await oneCode();
    await expectThrottled(redeem((await coordinatorOf(school, "Fresh Coordinator")).cookie, { code }));
    await expectThrottled(redeem(admin.cookie, { code, schoolId: school.id }));
    // Another school is not held up.
    const other = await schoolWithCoordinator();
    expect((await redeem(other.coordinator.cookie, { code })).status).toBe(200);
  });

  it("per address: 20 an hour from one address, whoever is signed in", async () => {
    const ip = freshIp();
    for (let i = 0; i < 2; i++) await wrongTries((await schoolWithCoordinator()).coordinator.cookie, 10, () => ip);
    const { coordinator } = await schoolWithCoordinator();
    const { code } = await oneCode();
    await expectThrottled(redeem(coordinator.cookie, { code }, { ip }));
    expect((await redeem(coordinator.cookie, { code }, { ip: freshIp() })).status).toBe(200);
  });

  it("counts used, expired and withdrawn codes too, but not what is not a code", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const ip = freshIp();
    for (let i = 0; i < 15; i++) expect((await redeem(coordinator.cookie, { code: "LECT-1234" }, { ip })).status).toBe(400);
    const { code } = await oneCode();
    expect((await redeem(coordinator.cookie, { code }, { ip })).status).toBe(200);
    // Ten tries of the used code, each a failure: the person is blocked after the tenth.
    for (let i = 0; i < 10; i++) expect((await redeem(coordinator.cookie, { code }, { ip })).status).toBe(409);
    await expectThrottled(redeem(coordinator.cookie, { code: madeUpCode() }, { ip }));
  });
});

describe("one code entered by 20 people at once", () => {
  it("is redeemed exactly once: one 200, nineteen 409 'used', one licence, one audit entry", async () => {
    const school = await createSchool({ teacherLimit: 50 });
    const coordinators = await Promise.all(Array.from({ length: 20 }, (_, i) => coordinatorOf(school, `Racer ${i}`)));
    const { book, batch, code } = await oneCode({ days: 30, seats: 3 });
    const answers = await Promise.all(coordinators.map((coordinator) => redeem(coordinator.cookie, { code })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const answer of answers.filter((one) => one.status === 409)) expect(await errorBody(answer)).toMatchObject({ status: "used" });
    // One licence, extended by no one: a second redemption would have made it 60 days.
    const licences = await db()
      .select()
      .from(bookAccess)
      .where(and(eq(bookAccess.schoolId, school.id), eq(bookAccess.bookId, book.id)));
    expect(licences).toHaveLength(1);
    expect(licences[0]).toMatchObject({ seats: 3, endsOn: addDays(today(), 29) });
    const [audited] = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, "code.redeem"), sql`${auditLog.after} ->> 'batchId' = ${batch.id}`));
    expect(audited!.n).toBe(1);
    // The batch's own count, which the publisher's list shows, counted once too.
    const [counted] = await db().select({ redeemed: codeBatches.redeemedCount }).from(codeBatches).where(eq(codeBatches.id, batch.id));
    expect(counted!.redeemed).toBe(1);
  });
});

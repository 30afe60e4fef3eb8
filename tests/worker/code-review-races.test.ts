// Review of issue 46 (bookstore codes): races and the throttle as a determined guesser meets them.
// A batch withdrawn while ten of its codes are redeemed at once must leave its counts equal to what
// its codes say; a burst from several coordinators of one school on several addresses is bounded by
// the school's key; the address the throttle counts is the one Cloudflare reports, not a header the
// client sets, and an IPv6 client's /64 is one address (a client is given a whole /64).
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { throttleAddress } from "../../workers/auth/throttle.ts";
import { codeBatches, codes, rateLimits } from "../../workers/db/schema.ts";
import { coordinatorOf, freshIp, makeBatch, redeem, schoolWithCoordinator } from "./code-redeem-fixtures.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, createBook, createSchool, db } from "./helpers.ts";

const admin = adminForTheFile();

const madeUpCode = () => {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  return `LECT-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte & 31]).join("")}`;
};

const statusCount = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("a batch withdrawn while its codes are being redeemed", () => {
  it("ten redemptions and the withdrawal at once: the batch's counts are what its codes say, no code both", async () => {
    for (let round = 0; round < 3; round++) {
      const book = await createBook({ title: `Race Book ${crypto.randomUUID().slice(0, 8)}` });
      const { batch, codes: made } = await makeBatch([book.id], { count: 12 });
      const schools = await Promise.all(made.slice(0, 10).map(() => schoolWithCoordinator()));
      const redemptions = made
        .slice(0, 10)
        .map((code, i) => redeem(schools[i]!.coordinator.cookie, { code }).then((answer) => answer.status));
      // The withdrawal sent in the middle of the burst.
      const withdrawal = api(`/api/codes/batches/${batch.id}/revoke`, { method: "POST", body: {}, cookie: admin.cookie });
      const [statuses, withdrawn] = await Promise.all([Promise.all(redemptions), withdrawal]);
      expect(withdrawn.status).toBe(200);
      for (const status of statuses) expect([200, 409]).toContain(status);

      const [row] = await db().select().from(codeBatches).where(eq(codeBatches.id, batch.id));
      const [counted] = await db()
        .select({
          redeemed: sql<number>`sum(redeemed_at IS NOT NULL)`,
          revoked: sql<number>`sum(revoked_at IS NOT NULL AND redeemed_at IS NULL)`,
          both: sql<number>`sum(revoked_at IS NOT NULL AND redeemed_at IS NOT NULL)`,
          neither: sql<number>`sum(revoked_at IS NULL AND redeemed_at IS NULL)`,
        })
        .from(codes)
        .where(eq(codes.batchId, batch.id));
      expect(counted).toEqual({ redeemed: statusCount(statuses, 200), revoked: 12 - statusCount(statuses, 200), both: 0, neither: 0 });
      expect(row).toMatchObject({ redeemedCount: counted!.redeemed, revokedCount: counted!.revoked, revokedAt: expect.any(Number) });
      // Each 200 gave its school the licence; each 409 gave nothing.
      const licensed = await db().all<{ n: number }>(sql`SELECT count(*) AS n FROM book_access WHERE book_id = ${book.id}`);
      expect(licensed[0]!.n).toBe(statusCount(statuses, 200));
    }
  });

  it("one code withdrawn and redeemed at once, ten times: one of the two wins, the counts follow", async () => {
    const book = await createBook({ title: `Race One ${crypto.randomUUID().slice(0, 8)}` });
    const { batch, codes: made } = await makeBatch([book.id], { count: 10 });
    const { coordinator } = await schoolWithCoordinator();
    const outcomes = await Promise.all(
      made.map(async (code) => {
        const [redeemed, withdrawn] = await Promise.all([
          redeem(coordinator.cookie, { code }),
          api("/api/codes/revoke", { body: { code }, cookie: admin.cookie }),
        ]);
        return [redeemed.status, withdrawn.status];
      }),
    );
    for (const [redeemed, withdrawn] of outcomes) expect([redeemed, withdrawn].filter((s) => s === 200)).toHaveLength(1);
    const wins = statusCount(
      outcomes.map(([redeemed]) => redeemed!),
      200,
    );
    const [row] = await db().select().from(codeBatches).where(eq(codeBatches.id, batch.id));
    expect(row).toMatchObject({ redeemedCount: wins, revokedCount: 10 - wins });
    const [both] = await db()
      .select({ n: count() })
      .from(codes)
      .where(sql`batch_id = ${batch.id} AND revoked_at IS NOT NULL AND redeemed_at IS NOT NULL`);
    expect(both!.n).toBe(0);
  });
});

describe("the throttle against a determined guesser", () => {
  it("a burst from four coordinators of one school on forty addresses: exactly 30 looked up", async () => {
    const school = await createSchool({ teacherLimit: 50 });
    const coordinators = await Promise.all([0, 1, 2, 3].map((i) => coordinatorOf(school, `Guesser ${i}`)));
    const answers = await Promise.all(
      coordinators.flatMap((coordinator) => Array.from({ length: 10 }, () => redeem(coordinator.cookie, { code: madeUpCode() }))),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statusCount(statuses, 400)).toBe(30);
    expect(statusCount(statuses, 429)).toBe(10);
    const [key] = await db()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `code:school:${school.id}`));
    expect(key).toMatchObject({ count: 30, blockedUntil: expect.any(Number) });
  });

  it("counts the address Cloudflare reports: X-Forwarded-For and friends set by the client change nothing", async () => {
    const ip = freshIp();
    const spoofed = (i: number) => ({
      "X-Forwarded-For": `203.0.113.${i}`,
      "X-Real-IP": `203.0.113.${i}`,
      "True-Client-IP": `203.0.113.${i}`,
      Forwarded: `for=203.0.113.${i}`,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      // A new school and coordinator each time: only the address is shared.
      const { coordinator } = await schoolWithCoordinator();
      const answer = await api("/api/codes/redeem", { body: { code: madeUpCode() }, cookie: coordinator.cookie, ip, headers: spoofed(i) });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("an IPv6 client's /64 is one address: new addresses of the same /64 get no fresh tries", async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const { coordinator } = await schoolWithCoordinator();
      // Every try from another interface id of the one /64, written as clients write them.
      const ip = i % 3 === 0 ? `${prefix}::${(i + 1).toString(16)}` : `${prefix.toUpperCase()}:0:0:${i.toString(16)}:1`;
      statuses.push((await redeem(coordinator.cookie, { code: madeUpCode() }, { ip })).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    // The forms an address comes in, each counted as its /64 (or as the IPv4 address it maps).
    expect(throttleAddress("2001:DB8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(throttleAddress("2001:db8:0000:0001:ffff:1:2:3")).toBe("2001:db8:0:1::/64");
    expect(throttleAddress("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(throttleAddress("::1")).toBe("0:0:0:0::/64");
    expect(throttleAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(throttleAddress("192.0.2.7")).toBe("192.0.2.7");
    expect(throttleAddress("local")).toBe("local");
  });
});

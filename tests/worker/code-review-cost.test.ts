// Review of issue 46 (bookstore codes): what redeeming and listing codes cost D1 (env.DB counted
// as request-cost.test.ts counts it). A redemption is the session, the coordinator, three round
// trips of its own and one call to the school's object; a refused code costs the same whether it
// is wrong or used (so the work done says no more than the sentence), and what is not a code
// costs no round trip of its own. The publisher's list reads batches, never their codes.
import { describe, expect, it } from "vitest";
import { codesApi, makeBatch as madeByApi } from "./code-batch-fixtures.ts";
import { freshIp, oneCode, schoolWithCoordinator } from "./code-redeem-fixtures.ts";
import { watchedD1, watchedObjects } from "./faulty-bindings.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, createBook, okBody } from "./helpers.ts";

const admin = adminForTheFile();

interface Cost {
  trips: number;
  statements: number;
  rowsRead: number;
  objectCalls: string[];
}

async function counted(cost: Cost): Promise<Partial<Env>> {
  const { env } = await import("cloudflare:test");
  const DB = watchedD1(env.DB, async (statements, run) => {
    cost.trips++;
    cost.statements += statements;
    const result = await run();
    for (const one of Array.isArray(result) ? result : [result])
      cost.rowsRead += (one as { meta?: { rows_read?: number } } | null)?.meta?.rows_read ?? 0;
    return result;
  });
  const SCHOOLS = watchedObjects(env.SCHOOLS, (method) => {
    cost.objectCalls.push(method);
    return null;
  });
  return { DB, SCHOOLS };
}

/** One API call, counted. */
async function measure(path: string, call: Parameters<typeof api>[1] = {}) {
  const cost: Cost = { trips: 0, statements: 0, rowsRead: 0, objectCalls: [] };
  const response = await api(path, { ...call, env: await counted(cost) });
  return { response, cost, body: await response.text() };
}

const figures: string[] = [];
const note = (what: string, cost: Cost) =>
  figures.push(
    `${what}: ${cost.trips} trip(s), ${cost.statements} statement(s), ${cost.rowsRead} row(s) read; object: ${cost.objectCalls.join(", ")}`,
  );

describe("what codes cost D1", () => {
  it("a redemption: three round trips of its own; wrong, used and expired alike; not a code: none", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const other = await schoolWithCoordinator();
    const redeemAs = (cookie: string, code: string) => measure("/api/codes/redeem", { body: { code }, cookie, ip: freshIp() });

    const { code } = await oneCode();
    const redeemed = await redeemAs(coordinator.cookie, code);
    expect(redeemed.response.status).toBe(200);
    note("a redemption", redeemed.cost);

    const wrong = await redeemAs(other.coordinator.cookie, "LECT-2222-3333-4444-5555");
    expect(wrong.response.status).toBe(400);
    note("a wrong code", wrong.cost);
    const used = await redeemAs(other.coordinator.cookie, code);
    expect(used.response.status).toBe(409);
    note("a used code", used.cost);
    const expired = await redeemAs(other.coordinator.cookie, (await oneCode({ redeemBy: "2020-01-01" })).code);
    expect(expired.response.status).toBe(409);
    note("an expired code", expired.cost);
    const malformed = await redeemAs(other.coordinator.cookie, "LECT-0000");
    expect(malformed.response.status).toBe(400);
    note("not a code", malformed.cost);

    // Refusals cost the same, whatever the code's state: the work says no more than the sentence.
    expect(used.cost.trips).toBe(wrong.cost.trips);
    expect(expired.cost.trips).toBe(wrong.cost.trips);
    expect(used.cost.statements).toBe(wrong.cost.statements);
    // The throttle's batch, the lookup and the failure (or the redemption's transaction): three trips.
    expect(wrong.cost.trips - malformed.cost.trips).toBe(3);
    expect(redeemed.cost.trips - malformed.cost.trips).toBe(3);
    // One call more to the school's object than a refusal: its catalogue changed.
    expect(redeemed.cost.objectCalls.length - wrong.cost.objectCalls.length).toBe(1);
    // Not a code: no round trip beyond who is asking (the session and the coordinator's row).
    expect(malformed.cost.trips).toBeLessThanOrEqual(2);
    expect(redeemed.cost.trips).toBeLessThanOrEqual(5);
  });

  it("the publisher's list reads batches, not their codes; a batch's page reads its own codes only", async () => {
    const book = await createBook({ title: `Cost ${crypto.randomUUID().slice(0, 8)}` });
    const { batch } = await madeByApi(admin.cookie, { bookIds: [book.id], count: 2_000 });
    await madeByApi(admin.cookie, { bookIds: [book.id], count: 2_000, label: batch.label });
    const list = await measure(`/api/codes/batches?label=${encodeURIComponent(batch.label)}`, { cookie: admin.cookie });
    expect(list.response.status).toBe(200);
    note("the batches' list", list.cost);
    expect(list.cost.trips).toBeLessThanOrEqual(2);
    // The batches and labels, not 4,000 codes.
    expect(list.cost.rowsRead).toBeLessThan(1_000);

    const page = await measure(`/api/codes/batches/${batch.id}?limit=100`, { cookie: admin.cookie });
    expect(page.response.status).toBe(200);
    note("a batch's page of 100 codes", page.cost);
    expect(page.cost.trips).toBeLessThanOrEqual(2);
    // Its own 2,000 codes counted at most twice (the page and the total), not the other batch's.
    expect(page.cost.rowsRead).toBeLessThan(4_500);
    const listed = await okBody(codesApi(admin.cookie).batches.$get({ query: { label: batch.label } }));
    expect(listed.batches.map((row) => row.issued)).toEqual([2_000, 2_000]);
    console.info(figures.join("\n"));
  });
});

import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, normalizeCode } from "#shared/rules/code-format.ts";
import { addDays } from "#shared/rules/licence.ts";
import { BatchInputSchema, DAYS_AND_END, DAYS_OR_END } from "../../workers/codes/batch-input.ts";
import { type CodeStatus, createBatch } from "../../workers/codes/batches.ts";
import { hashCode, newCodes } from "../../workers/codes/code-hash.ts";
import { auditLog, codeBatchBooks, codeBatches } from "../../workers/db/schema.ts";
import { codesApi, makeBatch, markRedeemed, ownBook, storedCodes, uniqueLabel } from "./code-batch-fixtures.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import { api, createSchool, db, errorBody, okBody } from "./helpers.ts";

const admin = adminForTheFile();

const CODE_PATTERN = new RegExp(`^LECT(-[${CODE_ALPHABET}]{4}){4}$`);

/** Every 16-character run of a stored text, as normalizeCode would read it (upper case, no dashes). */
function runsOf(value: unknown): string[] {
  const text = String(value ?? "")
    .toUpperCase()
    .replace(/-/g, "");
  const runs: string[] = [];
  for (let i = 0; i + 16 <= text.length; i++) runs.push(text.slice(i, i + 16));
  return runs;
}

async function hmacHex(key: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const imported = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

describe("POST /api/codes/batches: making codes", () => {
  it("makes 10,000 codes in the format, all different, stored only as their HMAC and last four", async () => {
    const book = await ownBook();
    const label = uniqueLabel();
    const started = performance.now();
    const made = await makeBatch(admin.cookie, { label, bookIds: [book.id], count: 10_000 });
    const took = performance.now() - started;
    console.log(`[code-batches] a batch of 10,000 codes made in ${Math.round(took)} ms`);
    expect(made.codes).toHaveLength(10_000);
    for (const code of made.codes) expect(code).toMatch(CODE_PATTERN);
    expect(new Set(made.codes).size).toBe(10_000);
    expect(made.batch).toMatchObject({ label, issued: 10_000, redeemed: 0, revoked: 0, books: [{ id: book.id, title: book.title }] });

    const compact = made.codes.map((code) => normalizeCode(code)!);
    for (const code of compact) expect(code).not.toMatch(/[01IO]/);
    const clear = new Set(compact);
    const rows = await storedCodes(made.batch.id);
    expect(rows).toHaveLength(10_000);
    // In the batch's order, each the HMAC of its code under the codes' secret, with its last four.
    const hashes = await Promise.all(compact.map((code) => hashCode(env, code)));
    expect(rows.map((row) => row.hash)).toEqual(hashes);
    expect(rows.map((row) => row.last4)).toEqual(compact.map((code) => code.slice(-4)));
    // Worked out here on its own: HMAC-SHA-256 under the key derived from AUTH_SECRET (no CODE_SECRET in the tests).
    expect(rows[0]!.hash).toBe(await hmacHex(`lectern-bookstore-codes\nderived-from-auth:${env.AUTH_SECRET}`, compact[0]!));
    // Nothing stored holds a code, whole or as its 16 characters: every column of its codes, its batch, its audit entry.
    const [batchRow] = await db().select().from(codeBatches).where(eq(codeBatches.id, made.batch.id));
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "code-batch"), eq(auditLog.entityId, String(made.batch.id))));
    expect(entries).toHaveLength(1);
    const stored = [...rows, batchRow!, ...entries].flatMap((row) => Object.values(row).map((value) => JSON.stringify(value)));
    const leaked = stored.flatMap(runsOf).filter((run) => clear.has(run));
    expect(leaked).toEqual([]);
  });

  it("answers the batch's terms, its books (a bundle) and audits them without the codes", async () => {
    const [first, second] = [await ownBook("Bundle A"), await ownBook("Bundle B")];
    const label = uniqueLabel("Campus Store");
    const redeemBy = addDays(today(), 30);
    const endsOn = addDays(today(), 300);
    const created = await codesApi(admin.cookie).batches.$post({
      json: {
        label: `  ${label} `,
        bookIds: [second.id, first.id],
        endsOn,
        seats: null,
        offlineAllowed: false,
        offlineDays: 7,
        count: 2,
        redeemBy,
      },
    });
    expect(created.status).toBe(201);
    const made = await okBody(created);
    expect(made.batch).toMatchObject({
      label,
      days: null,
      endsOn,
      seats: null,
      offlineAllowed: false,
      offlineDays: 7,
      redeemBy,
      createdBy: admin.admin.email,
      revokedAt: null,
      issued: 2,
      expired: false,
      books: [
        { id: first.id, title: first.title },
        { id: second.id, title: second.title },
      ],
    });
    const linked = await db().select().from(codeBatchBooks).where(eq(codeBatchBooks.batchId, made.batch.id));
    expect(linked.map((row) => row.bookId).sort()).toEqual([first.id, second.id].sort());
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "code-batch.create"), eq(auditLog.entityId, String(made.batch.id))));
    expect(entry).toMatchObject({
      adminId: admin.admin.id,
      entityType: "code-batch",
      after: {
        label,
        bookIds: [second.id, first.id],
        days: null,
        endsOn,
        seats: null,
        offlineAllowed: false,
        offlineDays: 7,
        count: 2,
        redeemBy,
      },
    });
    // Defaults: offline allowed for 14 days, no limit on seats, no last day to redeem.
    const plain = await makeBatch(admin.cookie, { seats: undefined, count: 1 });
    expect(plain.batch).toMatchObject({ days: 365, seats: null, offlineAllowed: true, offlineDays: 14, redeemBy: null });
  });

  it("tries once more with fresh codes when a code's hash is taken", async () => {
    const book = await ownBook();
    const earlier = await makeBatch(admin.cookie, { bookIds: [book.id], count: 1 });
    const taken = normalizeCode(earlier.codes[0]!)!;
    const input = BatchInputSchema.parse({ label: uniqueLabel(), bookIds: [book.id], days: 30, count: 2 });
    const tries: string[][] = [];
    const makeCodes = (count: number) => {
      // The first try repeats a code of the earlier batch; the second is fresh.
      const made = tries.length === 0 ? [taken, ...newCodes(count - 1)] : newCodes(count);
      tries.push(made);
      return made;
    };
    const outcome = await createBatch(db(), env, { id: admin.admin.id, email: admin.admin.email }, input, { makeCodes });
    expect(tries).toHaveLength(2);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value.codes.map((code) => normalizeCode(code))).toEqual(tries[1]);
    // Nothing of the failed try is left: one batch with the label, its two codes.
    const rows = await db().select().from(codeBatches).where(eq(codeBatches.label, input.label));
    expect(rows).toHaveLength(1);
    expect(await storedCodes(rows[0]!.id)).toHaveLength(2);
  });
});

describe("POST /api/codes/batches: refusals", () => {
  it("refuses each bad input with its field, as a script would send it, and writes nothing", async () => {
    const book = await ownBook();
    const label = uniqueLabel("Refused");
    const base = { label, bookIds: [book.id], days: 365, count: 5 };
    const yesterday = addDays(today(), -1);
    const missing = book.id + 1_000_000;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ ...base, label: undefined }, "label"],
      [{ ...base, label: "   " }, "label"],
      [{ ...base, label: "x".repeat(81) }, "label", "A label has at most 80 characters"],
      [{ ...base, label: "Shop\u0000" }, "label"],
      [{ ...base, label: 12 }, "label"],
      [{ ...base, bookIds: [] }, "bookIds", "Choose at least one book"],
      [{ ...base, bookIds: Array.from({ length: 51 }, (_, i) => i + 1) }, "bookIds", "A batch is for at most 50 books"],
      [{ ...base, bookIds: [book.id, book.id] }, "bookIds", "Each book is given once"],
      [{ ...base, bookIds: [book.id, missing] }, "bookIds", `No book with id ${missing}`],
      [{ ...base, bookIds: ["1"] }, "bookIds.0"],
      [{ ...base, bookIds: undefined }, "bookIds"],
      [{ ...base, endsOn: addDays(today(), 10) }, "days", DAYS_AND_END],
      [{ ...base, days: undefined }, "days", DAYS_OR_END],
      [{ ...base, days: null, endsOn: null }, "days", DAYS_OR_END],
      [{ ...base, days: 0 }, "days"],
      [{ ...base, days: 3651 }, "days"],
      [{ ...base, days: 1.5 }, "days"],
      [{ ...base, days: "365" }, "days"],
      [{ ...base, days: undefined, endsOn: yesterday }, "endsOn", "The licence's last day cannot be in the past"],
      [{ ...base, days: undefined, endsOn: "2027-02-30" }, "endsOn"],
      [{ ...base, seats: 0 }, "seats"],
      [{ ...base, seats: 100_001 }, "seats"],
      [{ ...base, offlineAllowed: "yes" }, "offlineAllowed"],
      [{ ...base, offlineDays: 91 }, "offlineDays"],
      [{ ...base, offlineDays: 0 }, "offlineDays"],
      [{ ...base, count: 0 }, "count"],
      [{ ...base, count: 10_001 }, "count", "A batch has at most 10,000 codes"],
      [{ ...base, count: undefined }, "count"],
      [{ ...base, redeemBy: yesterday }, "redeemBy", "The last day to redeem cannot be in the past"],
      [{ ...base, redeemBy: "next week" }, "redeemBy"],
      [
        { ...base, days: undefined, endsOn: addDays(today(), 10), redeemBy: addDays(today(), 11) },
        "redeemBy",
        "The last day to redeem must be on or before the licence's last day",
      ],
    ];
    for (const [body, field, sentence] of cases) {
      const refused = await api("/api/codes/batches", { cookie: admin.cookie, body });
      const answer = await errorBody(refused);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(answer.field, JSON.stringify(body)).toBe(field);
      if (sentence) expect(answer.error).toBe(sentence);
    }
    const notJson = await api("/api/codes/batches", {
      cookie: admin.cookie,
      method: "POST",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    // The two sentences the contract names, whole.
    expect(DAYS_AND_END).toBe("Give the licence's days or its last day, not both");
    expect(DAYS_OR_END).toBe("Give the licence's days or its last day");
    expect(await db().select().from(codeBatches).where(eq(codeBatches.label, label))).toEqual([]);
  });
});

describe("GET /api/codes/batches", () => {
  it("lists a label's batches newest first with their counts, and every label's totals", async () => {
    const label = uniqueLabel("Lists");
    const other = uniqueLabel("Other");
    const school = await createSchool({ name: `Counting School ${crypto.randomUUID().slice(0, 8)}` });
    const older = await makeBatch(admin.cookie, { label, count: 3 });
    const newer = await makeBatch(admin.cookie, { label, count: 2 });
    const elsewhere = await makeBatch(admin.cookie, { label: other, count: 4 });
    const olderCodes = await storedCodes(older.batch.id);
    await markRedeemed(olderCodes[0]!.id, school);
    const revoked = await codesApi(admin.cookie).revoke.$post({ json: { code: older.codes[1]! } });
    expect(revoked.status).toBe(200);

    const listed = await okBody(codesApi(admin.cookie).batches.$get({ query: { label } }));
    expect(listed.batches.map((batch) => batch.id)).toEqual([newer.batch.id, older.batch.id]);
    expect(listed.batches[1]).toMatchObject({ issued: 3, redeemed: 1, revoked: 1, expired: false });
    expect(listed.batches[0]).toMatchObject({ issued: 2, redeemed: 0, revoked: 0 });
    expect(listed.labels.find((row) => row.label === label)).toEqual({ label, batches: 2, issued: 5, redeemed: 1, revoked: 1 });
    expect(listed.labels.find((row) => row.label === other)).toEqual({ label: other, batches: 1, issued: 4, redeemed: 0, revoked: 0 });

    const all = await okBody(codesApi(admin.cookie).batches.$get({ query: {} }));
    const ids = all.batches.map((batch) => batch.id);
    expect(ids).toEqual(expect.arrayContaining([older.batch.id, newer.batch.id, elsewhere.batch.id]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.batches.length).toBeLessThanOrEqual(500);
  });
});

describe("GET /api/codes/batches/:id", () => {
  it("pages a batch's codes in order, with each one's status, and filters by status", async () => {
    const school = await createSchool({ name: `Paging School ${crypto.randomUUID().slice(0, 8)}` });
    const made = await makeBatch(admin.cookie, { count: 5 });
    const rows = await storedCodes(made.batch.id);
    const redeemedAt = Date.now() - 60_000;
    await markRedeemed(rows[1]!.id, school, redeemedAt);
    await okBody(codesApi(admin.cookie)[":codeId"].revoke.$post({ param: { codeId: String(rows[3]!.id) } }));
    const get = (query: { status?: CodeStatus; offset?: string; limit?: string }) =>
      codesApi(admin.cookie).batches[":id"].$get({ param: { id: String(made.batch.id) }, query });

    const whole = await okBody(get({}));
    expect(whole.total).toBe(5);
    expect(whole.batch).toMatchObject({ id: made.batch.id, issued: 5, redeemed: 1, revoked: 1 });
    expect(whole.codes.map((code) => code.id)).toEqual(rows.map((row) => row.id));
    expect(whole.codes.map((code) => code.last4)).toEqual(made.codes.map((code) => code.slice(-4)));
    expect(whole.codes.map((code) => code.status)).toEqual(["unused", "redeemed", "unused", "revoked", "unused"]);
    expect(whole.codes[1]).toEqual({
      id: rows[1]!.id,
      last4: rows[1]!.last4,
      status: "redeemed",
      redeemedAt,
      schoolId: school.id,
      schoolName: school.name,
      revokedAt: null,
    });
    expect(whole.codes[3]!.revokedAt).toEqual(expect.any(Number));

    const second = await okBody(get({ offset: "2", limit: "2" }));
    expect(second).toMatchObject({ total: 5, codes: [{ id: rows[2]!.id }, { id: rows[3]!.id }] });
    const unused = await okBody(get({ status: "unused", limit: "2" }));
    expect(unused.total).toBe(3);
    expect(unused.codes.map((code) => code.id)).toEqual([rows[0]!.id, rows[2]!.id]);
    expect((await okBody(get({ status: "redeemed" }))).codes.map((code) => code.id)).toEqual([rows[1]!.id]);
    expect((await okBody(get({ status: "expired" }))).total).toBe(0);

    for (const [query, field] of [
      [{ status: "used" }, "status"],
      [{ limit: "501" }, "limit"],
      [{ limit: "0" }, "limit"],
      [{ offset: "-1" }, "offset"],
    ] as const) {
      const refused = await api(`/api/codes/batches/${made.batch.id}?${new URLSearchParams(query)}`, { cookie: admin.cookie });
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect((await errorBody(refused)).field).toBe(field);
    }
  });
});

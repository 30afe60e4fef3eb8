import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseCsv } from "#shared/csv.ts";
import { CODE_FORMAT_ERROR } from "#shared/rules/code-format.ts";
import { addDays, dayOf, formatDay } from "#shared/rules/licence.ts";
import { auditLog } from "../../workers/db/schema.ts";
import { codesApi, makeBatch, markRedeemed, ownBook, setRedeemBy, storedCodes, uniqueLabel } from "./code-batch-fixtures.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import { api, client, createSchool, db, errorBody, errorOf, licenceOf, okBody, signedInTeacher } from "./helpers.ts";

const admin = adminForTheFile();

const statuses = async (batchId: number) =>
  (await okBody(codesApi(admin.cookie).batches[":id"].$get({ param: { id: String(batchId) }, query: {} }))).codes.map(
    (code) => code.status,
  );
const entriesOf = (action: string, entityId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))));

describe("POST /api/codes/batches/:id/revoke", () => {
  it("withdraws every unredeemed code; the redeemed ones stay redeemed; once only, audited", async () => {
    const school = await createSchool({ name: `Kept School ${crypto.randomUUID().slice(0, 8)}` });
    const made = await makeBatch(admin.cookie, { count: 4 });
    const bookId = made.batch.books[0]!.id;
    // Redeemed as a school would (workers/codes/redeem.ts): the licence it gives must stay.
    await okBody(client({ cookie: admin.cookie }).api.codes.redeem.$post({ json: { code: made.codes[2]!, schoolId: school.id } }));
    const licence = await licenceOf(school.id, bookId);
    expect(licence).toMatchObject({ startsOn: today(), endsOn: addDays(today(), 364), seats: 30 });
    const revokeBatch = () => codesApi(admin.cookie).batches[":id"].revoke.$post({ param: { id: String(made.batch.id) } });

    const withdrawn = await okBody(revokeBatch());
    expect(withdrawn.batch).toMatchObject({ id: made.batch.id, issued: 4, redeemed: 1, revoked: 3, revokedAt: expect.any(Number) });
    expect(await statuses(made.batch.id)).toEqual(["revoked", "revoked", "redeemed", "revoked"]);
    const after = await storedCodes(made.batch.id);
    expect(after[2]).toMatchObject({ schoolId: school.id, schoolName: school.name, revokedAt: null, redeemedAt: expect.any(Number) });
    expect(await licenceOf(school.id, bookId)).toEqual(licence);
    // The withdrawn codes redeem no more.
    const late = await client({ cookie: admin.cookie }).api.codes.redeem.$post({ json: { code: made.codes[0]!, schoolId: school.id } });
    expect(late.status).toBe(409);
    expect(after.filter((row) => row.revokedAt === withdrawn.batch.revokedAt)).toHaveLength(3);

    const again = await revokeBatch();
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toBe(`This batch was withdrawn on ${formatDay(dayOf(withdrawn.batch.revokedAt!))}`);
    expect(await entriesOf("code-batch.revoke", made.batch.id)).toMatchObject([
      { adminId: admin.admin.id, entityType: "code-batch", after: { label: made.batch.label, codesWithdrawn: 3, redeemed: 1 } },
    ]);
    // A code of a withdrawn batch is withdrawn: withdrawing it alone is refused as done already.
    const single = await codesApi(admin.cookie).revoke.$post({ json: { code: made.codes[0]! } });
    expect(single.status).toBe(409);
    expect(await errorOf(single)).toMatch(/^This code was withdrawn on /);
  });

  it("answers 404 for a batch that does not exist, to reading it and to withdrawing it", async () => {
    for (const id of ["999999999", "x1", "0", "1e3"]) {
      for (const method of ["GET", "POST"]) {
        const missing = await api(`/api/codes/batches/${id}${method === "POST" ? "/revoke" : ""}`, { cookie: admin.cookie, method });
        expect(missing.status, `${method} ${id}`).toBe(404);
        expect(await errorBody(missing)).toEqual({ error: "Batch not found" });
      }
    }
  });
});

describe("POST /api/codes/revoke and /api/codes/:codeId/revoke", () => {
  it("withdraws one code typed as a person would type it, and by its id from the list; audited", async () => {
    const made = await makeBatch(admin.cookie, { count: 3 });
    const rows = await storedCodes(made.batch.id);
    // Lower case, spaces for dashes, no prefix: the forgiving normalization of redeeming.
    const typed = made.codes[0]!.slice(5).toLowerCase().replace(/-/g, " ");
    const byCode = await okBody(codesApi(admin.cookie).revoke.$post({ json: { code: typed } }));
    expect(byCode.code).toMatchObject({ id: rows[0]!.id, last4: rows[0]!.last4, status: "revoked", revokedAt: expect.any(Number) });
    const byId = await okBody(codesApi(admin.cookie)[":codeId"].revoke.$post({ param: { codeId: String(rows[1]!.id) } }));
    expect(byId.code).toMatchObject({ id: rows[1]!.id, status: "revoked" });
    expect(await statuses(made.batch.id)).toEqual(["revoked", "revoked", "unused"]);
    expect(await entriesOf("code.revoke", rows[0]!.id)).toMatchObject([
      { adminId: admin.admin.id, entityType: "code", after: { batchId: made.batch.id, last4: rows[0]!.last4 } },
    ]);
    expect(await entriesOf("code.revoke", rows[1]!.id)).toHaveLength(1);
    // Nothing of the code itself in the audit log.
    const [entry] = await entriesOf("code.revoke", rows[0]!.id);
    expect(JSON.stringify(entry)).not.toContain(made.codes[0]!.slice(5, 19));

    const again = await codesApi(admin.cookie).revoke.$post({ json: { code: made.codes[0]! } });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toBe(`This code was withdrawn on ${formatDay(dayOf(byCode.code.revokedAt!))}`);
    const againById = await codesApi(admin.cookie)[":codeId"].revoke.$post({ param: { codeId: String(rows[1]!.id) } });
    expect(againById.status).toBe(409);
    expect(await entriesOf("code.revoke", rows[1]!.id)).toHaveLength(1);
  });

  it("refuses a redeemed code (its licence stays), an unknown one (404) and what is not a code (400)", async () => {
    const school = await createSchool({ name: `Redeemed School ${crypto.randomUUID().slice(0, 8)}` });
    const made = await makeBatch(admin.cookie, { count: 2 });
    const rows = await storedCodes(made.batch.id);
    const redeemedAt = Date.parse(`${addDays(today(), -3)}T10:00:00Z`);
    await markRedeemed(rows[0]!.id, school, redeemedAt);
    const redeemed = await codesApi(admin.cookie).revoke.$post({ json: { code: made.codes[0]! } });
    expect(redeemed.status).toBe(409);
    expect(await errorOf(redeemed)).toBe(
      `This code was redeemed by ${school.name} on ${formatDay(addDays(today(), -3))}: the licence it gave stays. End that licence on the Licences page if it should end too.`,
    );
    const redeemedById = await codesApi(admin.cookie)[":codeId"].revoke.$post({ param: { codeId: String(rows[0]!.id) } });
    expect(redeemedById.status).toBe(409);
    expect((await storedCodes(made.batch.id))[0]).toMatchObject({ revokedAt: null, redeemedAt, schoolId: school.id });

    // A well-formed code no batch has (its last character changed within the alphabet).
    const last = made.codes[1]!.at(-1)!;
    const unknown = `${made.codes[1]!.slice(0, -1)}${last === "Z" ? "Y" : "Z"}`;
    const notFound = await codesApi(admin.cookie).revoke.$post({ json: { code: unknown } });
    expect(notFound.status).toBe(404);
    expect(await errorOf(notFound)).toBe("Code not found");
    for (const codeId of ["999999999", "abc"]) {
      const missing = await codesApi(admin.cookie)[":codeId"].revoke.$post({ param: { codeId } });
      expect(missing.status).toBe(404);
      expect(await errorOf(missing)).toBe("Code not found");
    }
    for (const body of [{ code: "LECT-0000-1111-OOOO-IIII" }, { code: "LECT-ABCD" }, { code: 42 }, {}]) {
      const refused = await api("/api/codes/revoke", { cookie: admin.cookie, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await errorBody(refused)).field).toBe("code");
    }
    expect(await errorOf(api("/api/codes/revoke", { cookie: admin.cookie, body: { code: "LECT-0000-1111-OOOO-IIII" } }))).toBe(
      CODE_FORMAT_ERROR,
    );
    expect(await statuses(made.batch.id)).toEqual(["redeemed", "unused"]);
  });
});

describe("GET /api/codes/redemptions.csv", () => {
  it("has one row per redeemed code and book of its bundle, with the code's last four only", async () => {
    const [first, second] = [await ownBook("Invoice A"), await ownBook("Invoice B")];
    const label = uniqueLabel("Invoiced Store");
    const made = await makeBatch(admin.cookie, { label, bookIds: [first.id, second.id], count: 3 });
    const rows = await storedCodes(made.batch.id);
    const [north, south] = [
      await createSchool({ name: `North ${crypto.randomUUID().slice(0, 8)}` }),
      await createSchool({ name: `South ${crypto.randomUUID().slice(0, 8)}` }),
    ];
    const earlier = Date.parse(`${addDays(today(), -5)}T09:00:00Z`);
    const later = Date.parse(`${today()}T00:00:01Z`);
    await markRedeemed(rows[1]!.id, north, later);
    await markRedeemed(rows[2]!.id, south, earlier);

    const answer = await codesApi(admin.cookie)["redemptions.csv"].$get({ query: { batchId: String(made.batch.id) } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; filename="redemptions-[^"]*\.csv"$/);
    const text = await answer.text();
    expect(text.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("redeemedOn,code,batchId,label,schoolId,school,bookId,title");
    const [byTitle1, byTitle2] = [first, second].sort((a, b) => a.title.localeCompare(b.title));
    const line = (day: string, row: (typeof rows)[number], school: { id: number; name: string }, book: typeof first) => ({
      redeemedOn: day,
      code: `…${row.last4}`,
      batchId: String(made.batch.id),
      label,
      schoolId: String(school.id),
      school: school.name,
      bookId: String(book.id),
      title: book.title,
    });
    expect(parseCsv(text)).toEqual([
      line(addDays(today(), -5), rows[2]!, south, byTitle1!),
      line(addDays(today(), -5), rows[2]!, south, byTitle2!),
      line(today(), rows[1]!, north, byTitle1!),
      line(today(), rows[1]!, north, byTitle2!),
    ]);
    // No code appears whole (nor its 16 characters).
    for (const code of made.codes) expect(text).not.toContain(code.slice(5, 19));

    const csvOf = async (query: Record<string, string>) =>
      parseCsv(await (await codesApi(admin.cookie)["redemptions.csv"].$get({ query })).text());
    expect(await csvOf({ label })).toHaveLength(4);
    expect((await csvOf({ label, from: today() })).map((row) => row.school)).toEqual([north.name, north.name]);
    expect((await csvOf({ label, to: addDays(today(), -1) })).map((row) => row.school)).toEqual([south.name, south.name]);
    expect(await csvOf({ label: uniqueLabel("Nobody") })).toEqual([]);

    const backwards = await api(`/api/codes/redemptions.csv?from=${today()}&to=${addDays(today(), -1)}`, { cookie: admin.cookie });
    expect(backwards.status).toBe(400);
    expect(await errorBody(backwards)).toMatchObject({ field: "to", error: "The last day must be on or after the first" });
    expect((await api("/api/codes/redemptions.csv?batchId=abc", { cookie: admin.cookie })).status).toBe(400);
    expect((await api("/api/codes/redemptions.csv?from=2026-13-01", { cookie: admin.cookie })).status).toBe(400);
  });
});

describe("/api/codes for anyone but an admin", () => {
  it("refuses a teacher and a signed-out caller on every admin route, and writes nothing", async () => {
    const made = await makeBatch(admin.cookie, { count: 2 });
    const [row] = await storedCodes(made.batch.id);
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const routes: [string, string, unknown?][] = [
      ["POST", "/api/codes/batches", { label: uniqueLabel(), bookIds: made.batch.books.map((b) => b.id), days: 30, count: 1 }],
      ["GET", "/api/codes/batches"],
      ["GET", `/api/codes/batches/${made.batch.id}`],
      ["POST", `/api/codes/batches/${made.batch.id}/revoke`],
      ["POST", "/api/codes/revoke", { code: made.codes[0] }],
      ["POST", `/api/codes/${row!.id}/revoke`],
      ["GET", `/api/codes/redemptions.csv?batchId=${made.batch.id}`],
    ];
    for (const cookie of [teacher.cookie, undefined]) {
      for (const [method, path, body] of routes) {
        const refused = await api(path, { method, body, cookie });
        expect([401, 403], `${method} ${path} ${cookie ? "teacher" : "signed out"}`).toContain(refused.status);
      }
    }
    const after = await okBody(codesApi(admin.cookie).batches[":id"].$get({ param: { id: String(made.batch.id) }, query: {} }));
    expect(after.batch).toMatchObject({ revokedAt: null, revoked: 0 });
    expect(after.codes.map((code) => code.status)).toEqual(["unused", "unused"]);
  });
});

describe("a batch past its last day to redeem", () => {
  it("says a batch has expired once its last day to redeem has passed", async () => {
    const made = await makeBatch(admin.cookie, { redeemBy: today(), count: 1 });
    expect(made.batch.expired).toBe(false);
    await setRedeemBy(made.batch.id, addDays(today(), -1));
    const listed = await okBody(codesApi(admin.cookie).batches.$get({ query: { label: made.batch.label } }));
    expect(listed.batches).toMatchObject([{ id: made.batch.id, expired: true }]);
    const page = await okBody(codesApi(admin.cookie).batches[":id"].$get({ param: { id: String(made.batch.id) }, query: {} }));
    expect(page.codes.map((code) => code.status)).toEqual(["expired"]);
  });
});

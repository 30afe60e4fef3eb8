// Review of issue 46 (bookstore codes): the redemptions CSV, which the publisher invoices the
// bookstores by. Every redemption is in it whatever happened since: a school deleted keeps its name,
// a book deleted from the catalogue leaves its code's row (the book's cells empty) rather than taking
// the redemption off the invoice. A bundle is one row per book. The label filter is an exact match
// (no pattern characters); the days are whole UTC days, both ends included.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseCsv } from "#shared/csv.ts";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import { makeBatch, markRedeemed, ownBook, storedCodes, uniqueLabel } from "./code-batch-fixtures.ts";
import { adminForTheFile } from "./fixtures-suite.ts";
import { api, createSchool, db } from "./helpers.ts";

const admin = adminForTheFile();

async function csvRows(query: Record<string, string>) {
  const answer = await api(`/api/codes/redemptions.csv?${new URLSearchParams(query)}`, { cookie: admin.cookie });
  expect(answer.status, JSON.stringify(query)).toBe(200);
  expect(answer.headers.get("Cache-Control")).toContain("no-store");
  return parseCsv(await answer.text());
}

describe("the redemptions CSV after deletions", () => {
  it("a deleted school keeps its name; a deleted book leaves its code's row; a bundle is a row per book", async () => {
    const school = await createSchool({ name: `Closed School ${crypto.randomUUID().slice(0, 8)}` });
    const [kept, dropped, alone] = [await ownBook("Kept"), await ownBook("Dropped"), await ownBook("Alone")];
    const bundle = await makeBatch(admin.cookie, { bookIds: [kept.id, dropped.id], count: 2 });
    const single = await makeBatch(admin.cookie, { label: bundle.batch.label, bookIds: [alone.id], count: 1 });
    const [bundleCode] = await storedCodes(bundle.batch.id);
    const [singleCode] = await storedCodes(single.batch.id);
    await markRedeemed(bundleCode!.id, school);
    await markRedeemed(singleCode!.id, school);
    expect(await csvRows({ label: bundle.batch.label })).toHaveLength(3);

    await db().run(sql`DELETE FROM schools WHERE id = ${school.id}`);
    await db().run(sql`DELETE FROM books WHERE id IN (${dropped.id}, ${alone.id})`);
    const rows = await csvRows({ label: bundle.batch.label });
    expect(rows).toEqual([
      {
        redeemedOn: dayOf(Date.now()),
        code: `…${bundleCode!.last4}`,
        batchId: String(bundle.batch.id),
        label: bundle.batch.label,
        schoolId: "",
        school: school.name,
        bookId: String(kept.id),
        title: kept.title,
      },
      // The single book's code: its book is gone, its redemption is still invoiced.
      {
        redeemedOn: dayOf(Date.now()),
        code: `…${singleCode!.last4}`,
        batchId: String(single.batch.id),
        label: bundle.batch.label,
        schoolId: "",
        school: school.name,
        bookId: "",
        title: "",
      },
    ]);
  });
});

describe("the redemptions CSV's filters", () => {
  it("a label with pattern and quoting characters matches itself only", async () => {
    const school = await createSchool();
    const odd = `50% off_'Books' "${crypto.randomUUID().slice(0, 6)}" \\ ;--`;
    const lookalike = odd.replace("50% off_", "50X offY");
    const made = await makeBatch(admin.cookie, { label: odd, count: 1 });
    const other = await makeBatch(admin.cookie, { label: lookalike, count: 1 });
    for (const batch of [made, other]) await markRedeemed((await storedCodes(batch.batch.id))[0]!.id, school);
    const rows = await csvRows({ label: odd });
    expect(rows.map((row) => row.label)).toEqual([odd]);
    expect(await csvRows({ label: "50%" })).toEqual([]);
  });

  it("days are whole UTC days, both ends included", async () => {
    const school = await createSchool();
    const label = uniqueLabel("Edges");
    const made = await makeBatch(admin.cookie, { label, count: 4 });
    const codes = await storedCodes(made.batch.id);
    const day = "2026-03-10";
    const start = Date.parse(`${day}T00:00:00Z`);
    const moments = [start - 1, start, start + 86_400_000 - 1, start + 86_400_000];
    for (const [i, at] of moments.entries()) await markRedeemed(codes[i]!.id, school, at);
    const days = async (query: Record<string, string>) => (await csvRows({ label, ...query })).map((row) => row.redeemedOn);
    expect(await days({ from: day, to: day })).toEqual([day, day]);
    expect(await days({ from: day })).toEqual([day, day, addDays(day, 1)]);
    expect(await days({ to: day })).toEqual([addDays(day, -1), day, day]);
    expect(await days({ from: addDays(day, 1), to: addDays(day, 1) })).toEqual([addDays(day, 1)]);
    const backwards = await api(`/api/codes/redemptions.csv?from=${day}&to=${addDays(day, -1)}`, { cookie: admin.cookie });
    expect(backwards.status).toBe(400);
    for (const bad of ["2026-02-30", "10/03/2026", "2026-3-1", "' OR 1=1 --"]) {
      const refused = await api(`/api/codes/redemptions.csv?from=${encodeURIComponent(bad)}`, { cookie: admin.cookie });
      expect(refused.status, bad).toBe(400);
    }
    const badBatch = await api("/api/codes/redemptions.csv?batchId=1e3", { cookie: admin.cookie });
    expect(badBatch.status).toBe(400);
  });
});

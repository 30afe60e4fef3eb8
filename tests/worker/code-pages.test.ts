// Issue 46's pages as a script would use them (the route modules' loaders and actions, not the
// API): My school's "Redeem a bookstore code" redeems for the coordinator's own school whatever the
// form says and refuses a plain teacher; the admin's school page redeems for that school; the
// console's Codes pages make a batch (the codes in that answer only), list, show and withdraw, and
// answer nobody but an admin.

import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CODE_FORMAT_ERROR } from "#shared/rules/code-format.ts";
import { codeBatches } from "../../workers/db/schema.ts";
import { freshIp, makeBatch, oneCode, schoolWithCoordinator, storedCode } from "./code-redeem-fixtures.ts";
import { createBook, createSchool, db, licenceOf, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

let admin: { cookie: string };

beforeAll(async () => {
  admin = await signedInAdmin();
});

/** A form post to a page from a client address no other test uses (the redeem throttle counts per address). */
const post = (url: string, cookie: string, fields: Record<string, string>) =>
  page(url, { method: "POST", cookie, headers: { "CF-Connecting-IP": freshIp() }, body: new URLSearchParams(fields) });

describe("redeem a bookstore code on My school", () => {
  it("redeems for the coordinator's own school, never the school the form names", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const other = await createSchool();
    const { book, code } = await oneCode();
    const url = `/schools/${school.slug}/my-school`;
    const answer = await post(url, coordinator.cookie, { intent: "redeem-code", code: code.toLowerCase(), schoolId: String(other.id) });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(`Code redeemed: “${book.title}” is licensed to your school until`);
    expect(await licenceOf(school.id, book.id)).toBeTruthy();
    expect(await licenceOf(other.id, book.id)).toBeFalsy();
    expect((await storedCode(code))?.schoolId).toBe(school.id);
    // The page shows the card, with its label and hint.
    const html = await (await page(url, { cookie: coordinator.cookie })).text();
    expect(html).toContain("Redeem a bookstore code");
    expect(html).toContain("As printed on the card: LECT-XXXX-XXXX-XXXX-XXXX");
  });

  it("refuses a plain teacher (403) and leaves the code unused; a typo is refused at the field", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const colleague = await signedInTeacher(school, "Pat Colleague");
    const { book, code } = await oneCode();
    const url = `/schools/${school.slug}/my-school`;
    const refused = await post(url, colleague.cookie, { intent: "redeem-code", code });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("Code redeemed");
    expect((await storedCode(code))?.redeemedAt).toBeNull();
    expect(await licenceOf(school.id, book.id)).toBeFalsy();

    const typo = await post(url, coordinator.cookie, { intent: "redeem-code", code: "LECT-0000" });
    expect(typo.status).toBe(400);
    const html = await typo.text();
    expect(html).toContain(CODE_FORMAT_ERROR);
    expect(html).toContain('aria-invalid="true"');
  });
});

describe("redeem a bookstore code for a school, on the admin's school page", () => {
  it("redeems for the school of the page; a teacher's cookie cannot post there", async () => {
    const school = await createSchool();
    const { book, code } = await oneCode();
    const url = `/admin/school/${school.id}`;
    const teacher = await signedInTeacher(school);
    const stranger = await post(url, teacher.cookie, { intent: "redeem-code", code });
    expect(stranger.status).not.toBe(200);
    expect((await storedCode(code))?.redeemedAt).toBeNull();

    const answer = await post(url, admin.cookie, { intent: "redeem-code", code });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(`Code redeemed: “${book.title}” is licensed to ${school.name} until`);
    expect((await licenceOf(school.id, book.id))?.seats).toBe(30);
  });
});

describe("the console's Codes pages", () => {
  it("make a batch whose answer alone shows the codes, then list it by label and show it", async () => {
    const book = await createBook({ title: `Codes Page Book ${crypto.randomUUID().slice(0, 8)}` });
    const label = `Page Bookstore ${crypto.randomUUID().slice(0, 8)}`;
    const fields = {
      label,
      bookIds: String(book.id),
      length: "days",
      days: "365",
      seats: "",
      offlineAllowed: "true",
      offlineDays: "14",
      count: "2",
    };
    const teacher = await signedInTeacher(await createSchool());
    expect((await post("/admin/codes/new", teacher.cookie, fields)).status).not.toBe(200);
    expect(await db().select().from(codeBatches).where(eq(codeBatches.label, label))).toHaveLength(0);

    const made = await post("/admin/codes/new", admin.cookie, fields);
    expect(made.status).toBe(200);
    const html = await made.text();
    expect(html).toContain("2 codes made. They are shown only now");
    const printed = [...new Set(html.match(/LECT(?:-[2-9A-HJ-NP-Z]{4}){4}/g) ?? [])];
    expect(printed).toHaveLength(2);
    const [batch] = await db().select().from(codeBatches).where(eq(codeBatches.label, label));
    expect(batch).toMatchObject({ days: 365, seats: null, offlineAllowed: true, offlineDays: 14, count: 2 });
    expect((await storedCode(printed[0]!))?.batchId).toBe(batch!.id);

    const listed = await (await page(`/admin/codes?label=${encodeURIComponent(label)}`, { cookie: admin.cookie })).text();
    expect(listed).toContain(`/admin/codes/${batch!.id}`);
    const shown = await page(`/admin/codes/${batch!.id}`, { cookie: admin.cookie });
    expect(shown.status).toBe(200);
    const detail = await shown.text();
    expect(detail).toContain(`Batch ${batch!.id}: ${label}`);
    // Never the codes again: only their last four.
    expect(detail).not.toContain(printed[0]);
    expect(detail).toContain(`…${printed[0]!.slice(-4)}`);
    expect((await page("/admin/codes/999999999", { cookie: admin.cookie })).status).toBe(404);
  });

  it("refuse a batch's bad field at that field, keeping the form", async () => {
    const answer = await post("/admin/codes/new", admin.cookie, { label: "Somewhere", length: "days", days: "365", count: "2" });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("Choose at least one book");
    expect(html).toContain("Make codes");
  });

  it("withdraw a code typed in full, one from the list, and the batch", async () => {
    const book = await createBook({ title: `Withdraw Page Book ${crypto.randomUUID().slice(0, 8)}` });
    const { batch, codes } = await makeBatch([book.id], { count: 3 });
    const url = `/admin/codes/${batch.id}`;
    const typed = await post(url, admin.cookie, { intent: "withdraw-typed", code: codes[0]! });
    expect(typed.status).toBe(200);
    expect(await typed.text()).toContain(`Code …${codes[0]!.slice(-4)} withdrawn`);
    expect((await storedCode(codes[0]!))?.revokedAt).not.toBeNull();

    const second = await storedCode(codes[1]!);
    const fromList = await post(url, admin.cookie, { intent: "withdraw-code", codeId: String(second!.id) });
    expect(fromList.status).toBe(200);
    expect((await storedCode(codes[1]!))?.revokedAt).not.toBeNull();

    const again = await post(url, admin.cookie, { intent: "withdraw-typed", code: codes[0]! });
    expect(again.status).toBe(409);

    const whole = await post(url, admin.cookie, { intent: "withdraw-batch" });
    expect(whole.status).toBe(200);
    expect((await storedCode(codes[2]!))?.revokedAt).not.toBeNull();
    const [row] = await db().select().from(codeBatches).where(eq(codeBatches.id, batch.id));
    expect(row?.revokedAt).not.toBeNull();
  });
});

import { and, eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseCsvRows } from "#shared/csv.ts";
import { isbn13FromStem } from "#shared/rules/isbn.ts";
import { addDays } from "#shared/rules/licence.ts";
import { auditLog, bookAccess } from "../../workers/db/schema.ts";
import { today } from "./fixtures-suite.ts";
import { api, client, createBook, createSchool, db, errorOf, jsonOf, okBody, page, signedInAdmin, signedInTeacher } from "./helpers.ts";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  admin = await signedInAdmin();
});

const randomIsbn = () => isbn13FromStem(`978${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`);
/** The licence import's routes, typed. */
const importApi = (cookie = admin.cookie, origin?: string | null) => client({ cookie, origin }).api.licences.import;
type ImportBody = InferRequestType<ReturnType<typeof importApi>["$post"]>["json"];
const validate = (json: ImportBody, cookie = admin.cookie) => importApi(cookie).validate.$post({ json });
const importFile = (json: ImportBody, cookie = admin.cookie) => importApi(cookie).$post({ json });
const licencesOf = (schoolId: number) => db().select().from(bookAccess).where(eq(bookAccess.schoolId, schoolId)).orderBy(bookAccess.bookId);

const Validation = z.object({
  rows: z.array(
    z.object({
      row: z.number(),
      status: z.enum(["new", "change", "unchanged", "invalid"]),
      errors: z.array(z.string()),
      school: z.string(),
      book: z.string(),
      seats: z.number().nullable(),
    }),
  ),
  summary: z.object({ new: z.number(), change: z.number(), unchanged: z.number(), invalid: z.number() }),
});
/** A refused import's body: its rows are a failure's, which the typed client leaves untyped, so their shape is stated. */
const Refused = z.object({ error: z.string(), rows: Validation });

/** A school with two books (by ISBN) and a licence for the first, and a CSV-like file about them. */
async function world() {
  const school = await createSchool({ name: `Import School ${crypto.randomUUID().slice(0, 6)}` });
  const [isbnA, isbnB] = [randomIsbn(), randomIsbn()];
  const a = await createBook({ title: `Import A ${crypto.randomUUID().slice(0, 6)}`, isbn: isbnA });
  const b = await createBook({ title: `Import B ${crypto.randomUUID().slice(0, 6)}`, isbn: isbnB });
  const made = await client({ cookie: admin.cookie }).api.licences.$post({
    json: { schoolId: school.id, bookId: a.id, startsOn: "2026-08-01", endsOn: "2027-07-31", seats: 5, note: "PO-1" },
  });
  expect(made.status).toBe(201);
  return { school, a, b, isbnA, isbnB };
}

describe("POST /api/licences/import/validate", () => {
  it("says what each row would do and every problem by the row number a spreadsheet shows, writing nothing", async () => {
    const { school, a, b, isbnA, isbnB } = await world();
    const csv = [
      "Slug,ISBN,startsOn,endsOn,seats,note",
      `${school.slug},${isbnA.replaceAll("-", "")},2026-08-01,2027-07-31,5,PO-1`, // 2: unchanged (ISBN without hyphens)
      "", // 3: a blank line still counts
      `${school.slug.toUpperCase()},${isbnB},2026-08-01,,unlimited,`, // 4: new, open-ended, unlimited
      `no-such-school,978-0-00-000000-0,2026-02-30,2026-01-01,0,`, // 5: everything wrong
      `${school.slug},${isbnB},2026-09-01,2026-08-01,3,`, // 6: ends before it starts
      ",,,,,a note and nothing else", // 7: nothing else given
    ].join("\r\n");
    const parsed = parseCsvRows(csv);
    const answer = await validate(parsed);
    expect(answer.status).toBe(200);
    const { rows, summary } = await okBody(answer);
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [2, "unchanged"],
      [4, "new"],
      [5, "invalid"],
      [6, "invalid"],
      [7, "invalid"],
    ]);
    expect(summary).toEqual({ new: 1, change: 0, unchanged: 1, invalid: 3 });
    expect(rows[1]).toMatchObject({ school: school.name, book: b.title, seats: null });
    expect(rows[0]).toMatchObject({ book: a.title });
    expect(rows[2]!.errors).toEqual([
      "startsOn: Give the date as YYYY-MM-DD, a real date (for example 2026-08-01)",
      "seats: a whole number from 1, or empty for no limit",
      "endsOn: The licence must end on or after the day it starts",
    ]);
    expect(rows[3]!.errors).toEqual(["endsOn: The licence must end on or after the day it starts"]);
    expect(rows[4]!.errors).toEqual([
      "Give the school's slug (or its schoolId)",
      "Give the book's isbn (or its bookId)",
      "startsOn: give the first day, as YYYY-MM-DD",
    ]);
    // Nothing was written.
    expect(await licencesOf(school.id)).toHaveLength(1);
  });

  it("names a school or book that does not exist, and the same school and book given twice", async () => {
    const { school, isbnA, isbnB } = await world();
    const rows = [
      { slug: "no-such-school-anywhere", isbn: isbnA, startsOn: "2026-08-01" },
      { slug: school.slug, isbn: "978-0-00-000000-2", startsOn: "2026-08-01" },
      { schoolId: "999999999", bookId: "999999999", startsOn: "2026-08-01" },
      { slug: school.slug, isbn: isbnB, startsOn: "2026-08-01", seats: "4" },
      { slug: school.slug, isbn: isbnB, startsOn: "2026-09-01" },
    ];
    const { rows: checked } = await okBody(validate({ rows }));
    expect(checked.map((row) => row.errors)).toEqual([
      ["No school has the slug “no-such-school-anywhere”"],
      ["No book has the ISBN 978-0-00-000000-2"],
      ["No school has the id 999999999", "No book has the id 999999999"],
      ["Row 5 has the same school and book as row 6"],
      ["Row 6 has the same school and book as row 5"],
    ]);
  });

  it("refuses a body that is not rows, and too many rows, with a 400", async () => {
    expect(await errorOf(validate({ rows: [] }))).toBe("The file has no rows");
    // Rows that are not a list, which the typed client would not send: raw.
    expect(await errorOf(api("/api/licences/import/validate", { cookie: admin.cookie, body: { rows: "x" } }))).toBe("Send the file's rows");
    const many = Array.from({ length: 5001 }, () => ({ slug: "x" }));
    expect(await errorOf(validate({ rows: many }))).toBe("Import at most 5,000 licences at a time");
  });
});

describe("POST /api/licences/import", () => {
  it("imports every row or none: one invalid row saves nothing and names every problem", async () => {
    const { school, isbnB } = await world();
    const rows = [
      { slug: school.slug, isbn: isbnB, startsOn: "2026-08-01", endsOn: "2027-07-31", seats: "10" },
      { slug: school.slug, isbn: "not-an-isbn", startsOn: "2026-08-01" },
    ];
    const refused = await importFile({ rows });
    expect(refused.status).toBe(400);
    const body = await jsonOf(refused, Refused);
    expect(body.error).toBe("1 of 2 rows cannot be imported; nothing was saved.");
    expect(body.rows.rows[1]!.errors).toEqual(["No book has the ISBN not-an-isbn"]);
    expect(await licencesOf(school.id)).toHaveLength(1);
  });

  it("adds new licences and changes existing ones in one go, audited; the export's own CSV imports back", async () => {
    const { school, a, b, isbnB } = await world();
    const teacher = await signedInTeacher(school);
    const seen = async () =>
      (await (await client(teacher).api.schools.slug[":slug"].books.$get({ param: { slug: school.slug }, query: {} })).text()).includes(
        b.title,
      );
    expect(await seen()).toBe(false);
    const t = today();
    const rows = [
      { slug: school.slug, bookId: String(a.id), startsOn: "2026-08-01", endsOn: "2028-07-31", seats: "8", note: "PO-2" },
      { slug: school.slug, isbn: isbnB, startsOn: addDays(t, -1), endsOn: "", seats: "" },
    ];
    const imported = await importFile({ rows });
    expect(imported.status).toBe(200);
    expect(await okBody(imported)).toEqual({ created: 1, changed: 1, unchanged: 0 });
    expect(await licencesOf(school.id)).toMatchObject([
      { bookId: a.id, startsOn: "2026-08-01", endsOn: "2028-07-31", seats: 8, note: "PO-2" },
      { bookId: b.id, startsOn: addDays(t, -1), endsOn: null, seats: null, note: "" },
    ]);
    // The school's teachers see the new book at once.
    expect(await seen()).toBe(true);
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "licence.import"), eq(auditLog.entityType, "licence")));
    expect(audits.some((entry) => JSON.stringify(entry.after).includes(`"schoolId":${school.id}`))).toBe(true);

    // The Licences CSV, edited in a spreadsheet (one seat count changed), imports back.
    const exported = await (
      await client({ cookie: admin.cookie }).api.licences.export.$get({ query: { schoolId: String(school.id) } })
    ).text();
    const file = parseCsvRows(exported.replace(`,8,active,PO-2`, `,12,active,PO-2`));
    const { summary } = await okBody(validate(file));
    expect(summary).toEqual({ new: 0, change: 1, unchanged: 1, invalid: 0 });
    expect(await okBody(importFile(file))).toEqual({ created: 0, changed: 1, unchanged: 1 });
    expect((await licencesOf(school.id))[0]!.seats).toBe(12);
  });

  it("is for admins from our own origin only", async () => {
    const { school, isbnB } = await world();
    const teacher = await signedInTeacher(school);
    const rows = [{ slug: school.slug, isbn: isbnB, startsOn: "2026-08-01" }];
    expect((await importFile({ rows }, teacher.cookie)).status).toBe(401);
    expect((await importApi(admin.cookie, "https://evil.example").$post({ json: { rows } })).status).toBe(403);
    expect((await importApi(admin.cookie, null).validate.$post({ json: { rows } })).status).toBe(403);
    expect(await licencesOf(school.id)).toHaveLength(1);
  });
});

describe("the Import Licences page", () => {
  it("shows the form and a template, and checks and imports as the API does", async () => {
    const { school, isbnB } = await world();
    const shown = await page("/admin/licences/import", { cookie: admin.cookie });
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("<title>Import Licences · Lectern Admin</title>");
    expect(html).toContain("Download CSV template");
    const post = (body: unknown, cookie: string | null = admin.cookie, headers: Record<string, string> = {}) =>
      page("/admin/licences/import.data", {
        method: "POST",
        cookie: cookie ?? undefined,
        body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", ...headers },
      });
    const rows = [{ slug: school.slug, isbn: isbnB, startsOn: "2026-08-01", seats: "2" }];
    // A teacher's cookie, or none, is sent to the admin sign-in; another site's form is 403. Nothing is imported.
    const teacher = await signedInTeacher(school);
    for (const cookie of [teacher.cookie, null]) {
      const refused = await post({ intent: "import", rows }, cookie);
      expect(refused.status).toBe(202);
      expect(await refused.text()).toContain('"redirect","/admin/login?redirectTo=');
    }
    expect((await post({ intent: "import", rows }, admin.cookie, { Origin: "https://evil.example" })).status).toBe(403);
    expect(await licencesOf(school.id)).toHaveLength(1);
    expect((await post({ intent: "validate", rows })).status).toBe(200);
    expect(await licencesOf(school.id)).toHaveLength(1);
    expect((await post({ intent: "import", rows })).status).toBe(200);
    expect(await licencesOf(school.id)).toHaveLength(2);
    expect((await post({ intent: "import", rows: [{ slug: "nope" }] })).status).toBe(400);
  });
});

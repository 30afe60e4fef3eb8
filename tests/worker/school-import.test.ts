import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ImportValidation } from "../../workers/schools/import-rows.ts";
import { api, client, createSchool, errorOf, jsonOf, okBody, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";

let cookie: string;

beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

// A refused import answers the validation of every row as a failure's `rows`, which the API types as
// any JSON: read by schemas that must fit the server's types. A validation that succeeds is typed by its route.
const Validation = z.object({
  rows: z.array(
    z.object({
      index: z.number(),
      row: z.number(),
      status: z.enum(["new", "duplicate", "invalid"]),
      errors: z.array(z.string()),
      data: z.record(z.string(), z.unknown()),
      existingId: z.number().optional(),
      generatedSlug: z.string().optional(),
    }),
  ),
  summary: z.object({ new: z.number(), duplicate: z.number(), invalid: z.number() }).loose(),
}) satisfies z.ZodType<ImportValidation>;
/** A refused save: the sentence, and the validation of every row. */
const Refused = z.object({ error: z.string(), rows: Validation });

const tag = () => crypto.randomUUID().slice(0, 8);
type ImportPath = "validate-import" | "bulk" | "save-generated" | "update-duplicates";
const post = (path: ImportPath, rows: Record<string, unknown>[]) => client({ cookie }).api.schools[path].$post({ json: { rows } });
/** The validation of `rows` (numbered by `rowNumbers` when given), as the import page asks for it. */
const validation = (rows: Record<string, unknown>[], rowNumbers?: number[]) =>
  client({ cookie }).api.schools["validate-import"].$post({ json: { rows, rowNumbers } });

const row = (overrides: Record<string, unknown> = {}) => ({
  ...schoolFields("Maple Elementary", "office@maple.example"),
  teacherLimit: "12",
  ...overrides,
});

const schoolsNamed = (prefix: string) =>
  env.DB.prepare("SELECT slug, name, city, teacher_limit AS teacherLimit FROM schools WHERE name LIKE ? ORDER BY id")
    .bind(`${prefix}%`)
    .all<{ slug: string; name: string; city: string; teacherLimit: number }>()
    .then((result) => result.results);

describe("POST /api/schools/validate-import", () => {
  it("classifies rows as new, duplicate or invalid, with every field error", async () => {
    const existing = await createSchool({ name: `Existing ${tag()}`, zipCode: "97202" });
    const prefix = `Val ${tag()}`;
    const slug = `val-${tag()}`;
    const rows = [
      row({ schoolName: `${prefix} One`, slug }),
      row({ schoolName: undefined, name: `${prefix} Alias` }),
      row({ schoolName: `${prefix} Bad`, city: "", zipCode: "ABCDE", email: "nope" }),
      row({ schoolName: `${prefix} Reserved`, slug: "admin" }),
      row({ schoolName: `${prefix} Taken`, slug: existing.slug }),
      row({ schoolName: existing.name.toUpperCase(), zipCode: "97202" }),
      row({ schoolName: `${prefix} Twin A`, slug: `${slug}-twin` }),
      row({ schoolName: `${prefix} Twin B`, slug: `${slug}-twin` }),
      row({ schoolName: `${prefix} Same`, zipCode: "97209" }),
      row({ schoolName: `${prefix} same`, zipCode: "97209" }),
    ];
    const response = await validation(rows);
    expect(response.status).toBe(200);
    const result = await okBody(response);
    expect(result.summary).toEqual({ new: 2, duplicate: 2, invalid: 6 });
    expect(result.rows.map((r) => r.status)).toEqual([
      "new",
      "new",
      "invalid",
      "invalid",
      "duplicate",
      "duplicate",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
    ]);
    expect(result.rows[0]).toMatchObject({ index: 0, row: 2, errors: [], data: { slug, teacherLimit: 12, email: "office@maple.example" } });
    expect(result.rows[0]?.generatedSlug).toBeUndefined();
    expect(result.rows[1]).toMatchObject({
      data: { schoolName: `${prefix} Alias` },
      generatedSlug: `${prefix} Alias`.toLowerCase().replaceAll(" ", "-"),
    });
    expect(result.rows[2]?.errors).toEqual(["Please enter the city", "Enter a 5-digit ZIP code", "Please enter a valid email address"]);
    expect(result.rows[3]?.errors).toEqual(["This slug is reserved"]);
    expect(result.rows[4]?.existingId).toBe(existing.id);
    expect(result.rows[5]?.existingId).toBe(existing.id);
    // Numbered as the preview's Row column: the header is row 1, the first school row 2.
    expect(result.rows.map((r) => r.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(result.rows[6]?.errors).toEqual(["Row 8 has the same slug as row 9"]);
    expect(result.rows[7]?.errors).toEqual(["Row 9 has the same slug as row 8"]);
    expect(result.rows[8]?.errors).toEqual(["Row 10 has the same name and ZIP code as row 11"]);
    expect(result.rows[9]?.errors).toEqual(["Row 11 has the same name and ZIP code as row 10"]);
    expect(await schoolsNamed(prefix)).toEqual([]);
  });

  it("names both rows of an in-file duplicate by the numbers the preview shows (rows 6 and 7 of the file)", async () => {
    const slug = `twin-${tag()}`;
    const prefix = `Rows ${tag()}`;
    // Rows 2 to 5 of the file are fine; rows 6 and 7 share a slug.
    const rows = [1, 2, 3, 4].map((i) => row({ schoolName: `${prefix} ${i}`, slug: `${slug}-${i}` }));
    rows.push(row({ schoolName: `${prefix} 5`, slug }), row({ schoolName: `${prefix} 6`, slug }));
    const result = await okBody(validation(rows));
    expect(result.rows[4]).toMatchObject({ row: 6, status: "invalid", errors: ["Row 6 has the same slug as row 7"] });
    expect(result.rows[5]).toMatchObject({ row: 7, status: "invalid", errors: ["Row 7 has the same slug as row 6"] });
  });

  it("lists every other row of a group, and three rows sharing a name and ZIP each name the other two", async () => {
    const name = `Triple ${tag()}`;
    const rows = [row({ schoolName: name }), row(), row({ schoolName: name }), row({ schoolName: name.toUpperCase() })];
    const result = await okBody(validation(rows));
    expect(result.rows.map((r) => r.errors)).toEqual([
      ["Row 2 has the same name and ZIP code as rows 4 and 5"],
      [],
      ["Row 4 has the same name and ZIP code as rows 2 and 5"],
      ["Row 5 has the same name and ZIP code as rows 2 and 4"],
    ]);
  });

  it("uses the row numbers the page sends (a file with blank lines), else counts from row 2", async () => {
    const slug = `gap-${tag()}`;
    const rows = [row({ slug }), row({ slug: `${slug}-x` }), row({ slug })];
    const check = (rowNumbers: number[]) => validation(rows, rowNumbers);
    const numbered = await okBody(check([2, 5, 9]));
    expect(numbered.rows.map((r) => r.row)).toEqual([2, 5, 9]);
    expect(numbered.rows[0]?.errors).toEqual(["Row 2 has the same slug as row 9"]);
    expect(numbered.rows[2]?.errors).toEqual(["Row 9 has the same slug as row 2"]);
    // A list that does not match the rows is not used.
    const mismatched = await okBody(check([2, 5]));
    expect(mismatched.rows.map((r) => r.row)).toEqual([2, 3, 4]);
    expect((await check([1, 2, 3])).status).toBe(400);
  });

  it("refuses an empty file, more than 900 rows (one D1 batch), and rows that are not objects", async () => {
    expect(await (await post("validate-import", [])).json()).toEqual({ error: "The file has no rows", field: "rows" });
    expect(
      await (
        await post(
          "validate-import",
          Array.from({ length: 901 }, () => row()),
        )
      ).json(),
    ).toEqual({
      error: "Import at most 900 schools at a time",
      field: "rows",
    });
    // Raw: rows that are not objects, which the typed client would not send.
    expect((await api("/api/schools/validate-import", { body: { rows: ["a,b,c"] }, cookie })).status).toBe(400);
  });

  it("is for admins only", async () => {
    const teacher = await signedInTeacher(await createSchool());
    const json = { rows: [row()] };
    expect((await client(teacher).api.schools["validate-import"].$post({ json })).status).toBe(401);
    expect((await client().api.schools["save-generated"].$post({ json })).status).toBe(401);
    expect((await client().api.schools["update-duplicates"].$post({ json })).status).toBe(401);
  });
});

describe("POST /api/schools/bulk", () => {
  it("adds every row in one write, audited", async () => {
    const prefix = `Bulk ${tag()}`;
    const slugs = Array.from({ length: 150 }, (_, i) => `bulk-${tag()}-${i}`);
    const rows = slugs.map((slug, i) => row({ schoolName: `${prefix} ${String(i).padStart(3, "0")}`, slug }));
    const firstSlug = slugs[0]!;
    const response = await post("bulk", rows);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ created: 150 });
    const created = await schoolsNamed(prefix);
    expect(created).toHaveLength(150);
    expect(created[0]).toEqual({ slug: firstSlug, name: `${prefix} 000`, city: "Springfield", teacherLimit: 12 });
    const audits = await env.DB.prepare("SELECT after FROM audit_log WHERE action = 'school.import' AND after LIKE ?")
      .bind(`%${firstSlug}%`)
      .all<{ after: string }>();
    expect(audits.results).toHaveLength(1);
    expect(JSON.parse(audits.results[0]!.after)).toHaveLength(100);
  });

  it("writes nothing when one row is bad, and answers the validation", async () => {
    const prefix = `Half ${tag()}`;
    const rows = [
      row({ schoolName: `${prefix} Good`, slug: `half-${tag()}` }),
      row({ schoolName: `${prefix} Bad`, slug: `half-${tag()}`, zipCode: "1" }),
    ];
    const response = await post("bulk", rows);
    expect(response.status).toBe(400);
    const result = await jsonOf(response, Refused);
    expect(result.error).toBe("1 of 2 rows cannot be added; nothing was saved.");
    expect(result.rows.summary).toEqual({ new: 1, duplicate: 0, invalid: 1 });
    expect(await schoolsNamed(prefix)).toEqual([]);
  });

  it("wants a slug on every row, and refuses duplicates of existing schools", async () => {
    const prefix = `Noslug ${tag()}`;
    const response = await post("bulk", [row({ schoolName: `${prefix} A` })]);
    expect(response.status).toBe(400);
    const result = await jsonOf(response, Refused);
    expect(result.rows.rows[0]?.errors).toEqual(["Enter a slug for this school, or save with generated slugs"]);

    const existing = await createSchool();
    const duplicate = await post("bulk", [row({ schoolName: `${prefix} B`, slug: existing.slug })]);
    expect(duplicate.status).toBe(400);
    expect((await jsonOf(duplicate, Refused)).rows.rows[0]).toMatchObject({ status: "duplicate", existingId: existing.id });
    expect(await schoolsNamed(prefix)).toEqual([]);
  });
});

describe("POST /api/schools/save-generated", () => {
  it("generates free slugs, unique in the database and within the file", async () => {
    const name = `Cedar ${tag()} School`;
    const base = name.toLowerCase().replaceAll(" ", "-");
    await createSchool({ name: "Taken", slug: base });
    await createSchool({ name: "Taken too", slug: `${base}-2` });
    const given = `${base}-3`;
    const rows = [
      row({ schoolName: name, zipCode: "62701" }),
      row({ schoolName: `${name}!`, zipCode: "97202" }),
      row({ schoolName: `${name} Annex`, slug: given }),
    ];
    const validated = await okBody(validation(rows));
    expect(validated.rows.map((r) => r.generatedSlug)).toEqual([`${base}-4`, `${base}-5`, undefined]);

    const response = await post("save-generated", rows);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ created: 3 });
    expect((await schoolsNamed(name)).map((school) => school.slug)).toEqual([`${base}-4`, `${base}-5`, given]);
  });

  it("still writes nothing when a row is invalid", async () => {
    const prefix = `Gen ${tag()}`;
    const response = await post("save-generated", [
      row({ schoolName: `${prefix} A` }),
      row({ schoolName: `${prefix} B`, teacherLimit: "lots" }),
    ]);
    expect(response.status).toBe(400);
    expect((await jsonOf(response, Refused)).rows.rows[1]?.errors).toEqual(["The teacher limit must be a whole number from 1 to 10000"]);
    expect(await schoolsNamed(prefix)).toEqual([]);
  });
});

describe("POST /api/schools/update-duplicates", () => {
  it("overwrites the matched schools with the rows' fields, audited with the before state", async () => {
    const a = await createSchool({ name: `Upd ${tag()} A` });
    const b = await createSchool({ name: `Upd ${tag()} B`, zipCode: "97203" });
    const rows = [
      row({ schoolName: a.name, slug: a.slug, city: "Salem", teacherLimit: 40 }),
      // No slug: matched by name and ZIP.
      row({ schoolName: b.name, zipCode: "97203", city: "Eugene" }),
    ];
    const response = await post("update-duplicates", rows);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ updated: 2 });
    const after = await env.DB.prepare(
      "SELECT id, slug, city, teacher_limit AS teacherLimit, principal FROM schools WHERE id IN (?, ?) ORDER BY id",
    )
      .bind(a.id, b.id)
      .all();
    expect(after.results).toEqual([
      { id: a.id, slug: a.slug, city: "Salem", teacherLimit: 40, principal: "Pat Principal" },
      { id: b.id, slug: b.slug, city: "Eugene", teacherLimit: 12, principal: "Pat Principal" },
    ]);
    const audit = await env.DB.prepare("SELECT before, after FROM audit_log WHERE action = 'school.import-update' AND after LIKE ?")
      .bind(`%${a.slug}%`)
      .first<{ before: string; after: string }>();
    expect(JSON.parse(audit!.before)).toMatchObject([
      { id: a.id, city: "Springfield" },
      { id: b.id, city: "Springfield" },
    ]);
  });

  it("updates nothing when a row matches no school or would drop a limit below the teachers", async () => {
    const school = await createSchool({ name: `Keep ${tag()}` });
    await signedInTeacher(school, "One");
    await signedInTeacher(school, "Two");
    const unmatched = await post("update-duplicates", [
      row({ schoolName: school.name, slug: school.slug, city: "Changed" }),
      row({ slug: `nowhere-${tag()}` }),
    ]);
    expect(unmatched.status).toBe(400);
    expect(await errorOf(unmatched)).toBe("1 of 2 rows do not match an existing school; nothing was saved.");

    const tooLow = await post("update-duplicates", [row({ schoolName: school.name, slug: school.slug, city: "Changed", teacherLimit: 1 })]);
    expect(tooLow.status).toBe(400);
    expect((await jsonOf(tooLow, Refused)).rows.rows[0]?.errors).toEqual([
      "The school already has 2 registered teachers; the teacher limit cannot be lower",
    ]);
    expect(await env.DB.prepare("SELECT city FROM schools WHERE id = ?").bind(school.id).first("city")).toBe("Springfield");
  });
});

describe("row numbers when saving", () => {
  it("a refused save names the rows by the numbers sent, the duplicates-only update too", async () => {
    const slug = `save-${tag()}`;
    const rows = [row({ slug }), row({ slug })];
    const bulk = await client({ cookie }).api.schools.bulk.$post({ json: { rows, rowNumbers: [4, 6] } });
    expect(bulk.status).toBe(400);
    const refused = await jsonOf(bulk, Refused);
    expect(refused.rows.rows.map((r) => r.errors)).toEqual([["Row 4 has the same slug as row 6"], ["Row 6 has the same slug as row 4"]]);
    const school = await createSchool();
    const update = await client({ cookie }).api.schools["update-duplicates"].$post({
      json: { rows: [row({ schoolName: school.name, slug: school.slug, teacherLimit: "x" })], rowNumbers: [12] },
    });
    expect(update.status).toBe(400);
    expect((await jsonOf(update, Refused)).rows.rows[0]).toMatchObject({ row: 12, status: "invalid" });
  });
});

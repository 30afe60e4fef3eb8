import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks } from "#shared/chunks.ts";
import { type Actor, auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";
import { done, type Failed, failed, failure, type Outcome } from "../kernel/failure.ts";
import {
  flagInFileDuplicates,
  type ImportMode,
  type ImportRowResult,
  type ImportStatus,
  type ImportValidation,
  importRowNumber,
  nameKey,
  type Parsed,
} from "./import-rows.ts";
import { type SchoolInput, SchoolInputSchema, toInsertValues, toUpdateValues } from "./input.ts";
import { generateUniqueSlugs } from "./slugs.ts";
import { isLimitGuardError, isUniqueSlugError } from "./write-guards.ts";

/** Validates every row (all its field errors, not just the first) and classifies it as new, duplicate or invalid. */
export async function validateImportRows(
  db: Db,
  rows: Record<string, unknown>[],
  mode: ImportMode = "validate",
  rowNumbers?: number[],
): Promise<ImportValidation> {
  const results: ImportRowResult[] = [];
  const parsed: Parsed[] = [];
  const numbers = rowNumbers?.length === rows.length ? rowNumbers : undefined;
  rows.forEach((row, index) => {
    const { name, ...fields } = row;
    const normalized = { ...fields, schoolName: row.schoolName ?? name };
    const check = SchoolInputSchema.safeParse(normalized);
    const number = importRowNumber(index, numbers);
    const result: ImportRowResult = check.success
      ? { index, row: number, status: "new", errors: [], data: check.data }
      : {
          index,
          row: number,
          status: "invalid",
          errors: check.error.issues.map((i) => i.message),
          data: normalized,
        };
    results.push(result);
    if (check.success) parsed.push({ index, input: check.data, result });
  });

  flagInFileDuplicates(
    parsed,
    (row) => row.input.slug,
    (row, others) => `Row ${row} has the same slug as ${others}`,
  );
  flagInFileDuplicates(
    parsed,
    (row) => nameKey(row.input),
    (row, others) => `Row ${row} has the same name and ZIP code as ${others}`,
  );
  const valid = parsed.filter((row) => row.result.status !== "invalid");

  // Existing schools: by slug where the row has one (the unique index), else by name (schools_name_idx) and ZIP.
  const slugs = valid.flatMap((row) => row.input.slug ?? []);
  const names = valid.filter((row) => !row.input.slug).map((row) => row.input.schoolName);
  const [bySlug, byName] = await Promise.all([
    db.all<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM schools WHERE slug IN (SELECT value FROM json_each(${JSON.stringify(slugs)}))`,
    ),
    db.all<{ id: number; name: string; zipCode: string }>(
      sql`SELECT id, name, zip_code AS zipCode FROM schools WHERE name COLLATE NOCASE IN (SELECT value FROM json_each(${JSON.stringify(names)}))`,
    ),
  ]);
  const idBySlug = new Map(bySlug.map((school) => [school.slug, school.id]));
  const idByName = new Map(byName.map((school) => [`${school.name.toLowerCase()}|${school.zipCode}`, school.id]));
  for (const row of valid) {
    const existingId = row.input.slug ? idBySlug.get(row.input.slug) : idByName.get(nameKey(row.input));
    if (existingId !== undefined) Object.assign(row.result, { status: "duplicate", existingId });
  }

  const fresh = valid.filter((row) => row.result.status === "new" && !row.input.slug);
  if (mode === "bulk") {
    for (const row of fresh) {
      row.result.status = "invalid";
      row.result.errors.push("Enter a slug for this school, or save with generated slugs");
    }
  } else if (mode !== "update" && fresh.length) {
    const generated = await generateUniqueSlugs(
      db,
      fresh.map((row) => row.input.schoolName),
      new Set(slugs),
    );
    fresh.forEach((row, i) => {
      row.result.generatedSlug = generated[i];
    });
  }
  if (mode === "update") await flagLimitsBelowCounts(db, valid);

  const summary = { new: 0, duplicate: 0, invalid: 0 };
  for (const result of results) summary[result.status]++;
  return { rows: results, summary };
}

async function flagLimitsBelowCounts(db: Db, rows: Parsed[]) {
  const ids = rows.flatMap((row) => row.result.existingId ?? []);
  const counts = await db.all<{ id: number; teachers: number }>(sql`
    SELECT value AS id, (SELECT count(*) FROM teachers WHERE teachers.school_id = value AND teachers.erased_at IS NULL) AS teachers FROM json_each(${JSON.stringify(ids)})`);
  const teachersById = new Map(counts.map((row) => [row.id, row.teachers]));
  for (const row of rows) {
    const teachers = teachersById.get(row.result.existingId ?? -1) ?? 0;
    if (row.input.teacherLimit >= teachers) continue;
    row.result.status = "invalid";
    row.result.errors.push(`The school already has ${teachers} registered teachers; the teacher limit cannot be lower`);
  }
}

// Audit entries carry the rows in chunks, so none nears D1's 1 MB row limit.
const AUDIT_CHUNK = 100;

/** Every row or none: the rows come back with their own errors for the admin to mend. */
function refusal(validation: ImportValidation, wanted: ImportStatus): Failed {
  const refused = validation.rows.filter((row) => row.status !== wanted).length;
  const what = wanted === "new" ? "cannot be added" : "do not match an existing school";
  return failed({ kind: "invalid", error: `${refused} of ${validation.rows.length} rows ${what}; nothing was saved.`, rows: validation });
}

const RACED = "Another change to these schools happened meanwhile; nothing was saved. Please validate the file again.";

/**
 * Adds every row or none: one batch with one INSERT per row (D1 allows 100 bound parameters per
 * statement) and the audit entries. With `generateSlugs`, rows without a slug get a free one.
 */
export async function importSchools(
  db: Db,
  actor: Actor,
  rows: Record<string, unknown>[],
  options: { generateSlugs: boolean; rowNumbers?: number[] },
  now = Date.now(),
): Promise<Outcome<{ created: number }>> {
  const validation = await validateImportRows(db, rows, options.generateSlugs ? "generate" : "bulk", options.rowNumbers);
  if (validation.rows.some((row) => row.status !== "new")) return refusal(validation, "new");
  const values = validation.rows.map((row) => toInsertValues(row.data as SchoolInput, (row.data.slug as string) ?? row.generatedSlug));
  const statements: BatchItem<"sqlite">[] = values.map((value) => db.insert(schools).values(value));
  for (const chunk of chunks(values, AUDIT_CHUNK)) {
    statements.push(auditEntry(db, actor, { action: "school.import", entityType: "school", after: chunk }, now));
  }
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isUniqueSlugError(error)) return failure("conflict", RACED);
    throw error;
  }
  return done({ created: values.length });
}

/**
 * Overwrites the matched schools (by slug, or by name and ZIP for rows without one) with the
 * rows' fields, all or none; a field a row leaves out stays as it was.
 */
export async function updateDuplicateSchools(
  db: Db,
  actor: Actor,
  rows: Record<string, unknown>[],
  rowNumbers?: number[],
  now = Date.now(),
): Promise<Outcome<{ updated: number }>> {
  const validation = await validateImportRows(db, rows, "update", rowNumbers);
  if (validation.rows.some((row) => row.status !== "duplicate")) return refusal(validation, "duplicate");
  const updates = validation.rows.map((row) => ({ id: row.existingId!, input: row.data as SchoolInput }));
  const ids = JSON.stringify(updates.map((update) => update.id));
  const before = await db.all<{ id: number }>(sql`SELECT * FROM schools WHERE id IN (SELECT value FROM json_each(${ids}))`);
  const beforeById = new Map(before.map((school) => [school.id, school]));
  const statements: BatchItem<"sqlite">[] = updates.map(({ id, input }) =>
    db.update(schools).set(toUpdateValues(id, input)).where(eq(schools.id, id)),
  );
  for (const chunk of chunks(updates, AUDIT_CHUNK)) {
    const entry = { before: chunk.map(({ id }) => beforeById.get(id)), after: chunk };
    statements.push(auditEntry(db, actor, { action: "school.import-update", entityType: "school", ...entry }, now));
  }
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isUniqueSlugError(error) || isLimitGuardError(error)) return failure("conflict", RACED);
    throw error;
  }
  return done({ updated: updates.length });
}

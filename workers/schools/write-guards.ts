import { type SQL, sql } from "drizzle-orm";
import { failure } from "../kernel/failure.ts";

// Shared by every admin write to a school (editing, logins, CSV import). A check made before the
// write can race another request, so the database itself refuses a limit below the teachers or a
// taken slug; these turn its refusal into the answer the admin sees.

/**
 * The new limit, or NULL when teachers registered since we checked outnumber it: the NOT NULL
 * column then fails the statement, and with it the whole batch, so no limit ever ends below the count.
 */
export function guardedTeacherLimit(schoolId: number, limit: number | SQL, max = Number.MAX_SAFE_INTEGER): SQL {
  return sql`CASE WHEN ${limit} >= (SELECT count(*) FROM teachers WHERE teachers.school_id = ${schoolId} AND teachers.erased_at IS NULL) AND ${limit} <= ${max} THEN ${limit} END`;
}

/** The error's message and its causes' (drizzle wraps a failed single query around D1's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e !== undefined && e !== null && parts.length < 5; e = (e as { cause?: unknown }).cause) parts.push(String(e));
  return parts.join(" ");
}

export const isLimitGuardError = (error: unknown) => errorText(error).includes("NOT NULL constraint failed: schools.teacher_limit");
export const isUniqueSlugError = (error: unknown) => errorText(error).includes("UNIQUE constraint failed: schools.slug");
export const DUPLICATE_SLUG = "A school with this slug already exists";

export const limitBelowCount = (count: number) =>
  `This school already has ${count} registered teacher${count === 1 ? "" : "s"}; the teacher limit cannot be lower`;

export const NOT_FOUND = failure("not-found", "School not found");

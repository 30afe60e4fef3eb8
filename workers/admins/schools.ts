import { and, asc, count, desc, eq, getTableColumns, inArray, is, like, or, SQL, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { coverPath } from "../book-category.ts";
import type { Db } from "../db/client.ts";
import { auditLog, bookAccess, books, loginEvents, schools, teachers } from "../db/schema.ts";
import { EmailSchema } from "../schemas.ts";
import { slugFromName } from "../slug-from-name.ts";
import { isValidSlug, SlugSchema } from "../tenancy.ts";
import type { Actor } from "./audit.ts";

// ---- Input ------------------------------------------------------------------------------------

const numberToString = (value: unknown) => (typeof value === "number" ? String(value) : value);
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);
const blankToUndefined = (value: unknown) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value);

function requiredText(what: string, max: number) {
  const missing = `Please enter the ${what}`;
  return z.preprocess(
    numberToString,
    z.string({ error: missing }).trim().min(1, missing).max(max, `The ${what} can have at most ${max} characters`),
  );
}

function optionalText(what: string, max: number) {
  const tooLong = `The ${what} can have at most ${max} characters`;
  return z
    .preprocess(
      blankToNull,
      z
        .string({ error: `The ${what} must be text` })
        .trim()
        .max(max, tooLong)
        .nullable(),
    )
    .optional();
}

const ZIP_MESSAGE = "Enter a 5-digit ZIP code";
const LIMIT_MESSAGE = "Enter a whole number from 1 to 10000";
export const MAX_TEACHER_LIMIT = 10_000;

export const TeacherLimitSchema = z.preprocess(
  (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
  z.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_TEACHER_LIMIT, LIMIT_MESSAGE),
);

/** A school as admins enter it (form or CSV row). Keys are in form order, so the first error is the first field. */
export const SchoolInputSchema = z.object({
  schoolName: requiredText("school name", 200),
  slug: z.preprocess(blankToUndefined, SlugSchema.optional()),
  address1: requiredText("address", 200),
  address2: optionalText("second address line", 200),
  address3: optionalText("third address line", 200),
  city: requiredText("city", 100),
  state: requiredText("state", 50),
  zipCode: z.preprocess(
    numberToString,
    z
      .string({ error: ZIP_MESSAGE })
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, ZIP_MESSAGE),
  ),
  email: EmailSchema,
  principal: optionalText("principal's name", 200),
  teacherLimit: TeacherLimitSchema,
});

export const SchoolUpdateSchema = SchoolInputSchema.partial();

export type SchoolInput = z.output<typeof SchoolInputSchema>;
export type SchoolUpdate = z.output<typeof SchoolUpdateSchema>;

export function toInsertValues(input: SchoolInput, slug: string): typeof schools.$inferInsert {
  const { schoolName, slug: _given, ...rest } = input;
  return {
    ...rest,
    slug,
    name: schoolName,
    address2: rest.address2 ?? null,
    address3: rest.address3 ?? null,
    principal: rest.principal ?? null,
  };
}

/** Only the fields the update names; `teacherLimit` comes back guarded (see guardedTeacherLimit). */
export function toUpdateValues(schoolId: number, input: SchoolUpdate): SQLiteUpdateSetSource<typeof schools> {
  const { schoolName, teacherLimit, ...rest } = input;
  const values: Record<string, unknown> = { ...rest, name: schoolName };
  if (teacherLimit !== undefined) values.teacherLimit = guardedTeacherLimit(schoolId, teacherLimit);
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * The new limit, or NULL when teachers registered since we checked outnumber it: the NOT NULL
 * column then fails the statement, and with it the whole batch, so no limit ever ends below the count.
 */
export function guardedTeacherLimit(schoolId: number, limit: number): SQL {
  return sql`CASE WHEN ${limit} >= (SELECT count(*) FROM teachers WHERE teachers.school_id = ${schoolId}) THEN ${limit} END`;
}

/** The error's message and its causes' (drizzle wraps a failed single query around D1's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e !== undefined && e !== null && parts.length < 5; e = (e as { cause?: unknown }).cause) parts.push(String(e));
  return parts.join(" ");
}

export const isLimitGuardError = (error: unknown) => errorText(error).includes("NOT NULL constraint failed: schools.teacher_limit");
export const isUniqueSlugError = (error: unknown) => errorText(error).includes("UNIQUE constraint failed: schools.slug");
export const DUPLICATE_SLUG = "slug: A school with this slug already exists";

export type WriteResult<T> = ({ ok: true } & T) | { ok: false; status: 400 | 404 | 409; error: string };
const NOT_FOUND = { ok: false, status: 404, error: "School not found" } as const;

// ---- Slugs ------------------------------------------------------------------------------------

/** The admin form's suggestion, kept short enough for a "-N" suffix. */
export function slugBase(name: string): string {
  return slugFromName(name, 56) || "school";
}

/**
 * Free slugs for these names, in order: the name's own slug, else the first free `-2`, `-3`...
 * One query finds every taken slug that could collide (each base and its `base-*` range, on the
 * unique index); `taken` holds slugs already claimed elsewhere (other rows of the same file).
 */
export async function generateUniqueSlugs(db: Db, names: string[], taken = new Set<string>()): Promise<string[]> {
  const bases = names.map(slugBase);
  const distinct = JSON.stringify([...new Set(bases)]);
  const rows = await db.all<{ slug: string }>(sql`
    SELECT slug FROM schools WHERE slug IN (SELECT value FROM json_each(${distinct}))
    UNION ALL
    SELECT s.slug FROM json_each(${distinct}) AS b JOIN schools AS s ON s.slug > b.value || '-' AND s.slug < b.value || '.'`);
  const used = new Set([...taken, ...rows.map((row) => row.slug)]);
  return bases.map((base) => {
    let slug = base;
    for (let n = 2; !isValidSlug(slug) || used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  });
}

export async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: schools.id }).from(schools).where(eq(schools.slug, slug)).limit(1);
  return row !== undefined && row.id !== exceptId;
}

// ---- Reads ------------------------------------------------------------------------------------

// Correlated counts on indexed columns (teachers_school_email_idx, book_access's primary key).
const teacherCount = sql<number>`(SELECT count(*) FROM teachers WHERE teachers.school_id = schools.id)`;
const bookCount = sql<number>`(SELECT count(*) FROM book_access WHERE book_access.school_id = schools.id)`;

const schoolRowColumns = {
  id: schools.id,
  slug: schools.slug,
  schoolName: schools.name,
  address1: schools.address1,
  address2: schools.address2,
  address3: schools.address3,
  city: schools.city,
  state: schools.state,
  zipCode: schools.zipCode,
  email: schools.email,
  principal: schools.principal,
  teacherLimit: schools.teacherLimit,
  teacherCount,
  totalLogins: schools.totalLogins,
  bookCount,
  createdAt: schools.createdAt,
};

export const ListQuerySchema = z.object({
  query: z.string().trim().max(200, "Search for at most 200 characters").default(""),
  page: z.coerce.number().int("Page must be a whole number").min(1, "Page must be 1 or more").max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1, "pageSize must be 1 or more").max(100, "pageSize can be at most 100").default(25),
  sort: z.enum(["name", "slug", "createdAt", "teachers"], { error: "Sort by name, slug, createdAt or teachers" }).default("name"),
  dir: z.enum(["asc", "desc"], { error: "dir is asc or desc" }).default("asc"),
});

export type ListQuery = z.output<typeof ListQuerySchema>;

const MAX_LIKE_BYTES = 50;

/** `%term%` with % _ \ escaped, cut to D1's 50-byte LIKE pattern limit; null for an empty term. */
export function containsPattern(term: string): string | null {
  const encoder = new TextEncoder();
  let body = "";
  let bytes = 2;
  for (const char of term.trim()) {
    const escaped = char === "%" || char === "_" || char === "\\" ? `\\${char}` : char;
    bytes += encoder.encode(escaped).length;
    if (bytes > MAX_LIKE_BYTES) break;
    body += escaped;
  }
  return body ? `%${body}%` : null;
}

function matchesQuery(query: string): SQL | undefined {
  const pattern = containsPattern(query);
  if (!pattern) return undefined;
  const columns = [schools.name, schools.slug, schools.city, schools.email, schools.zipCode];
  return or(...columns.map((column) => sql`${like(column, pattern)} ESCAPE '\\'`));
}

/**
 * Every order ends in the id so pages never overlap. name walks schools_name_idx and slug its
 * unique index; createdAt uses the id, which AUTOINCREMENT keeps in creation order. Only
 * `teachers` has to count for every school (still an index lookup each).
 */
function orderFor(sort: ListQuery["sort"], dir: ListQuery["dir"]) {
  const by = dir === "asc" ? asc : desc;
  const keys = {
    name: [sql`${schools.name} COLLATE NOCASE`, schools.id],
    slug: [schools.slug],
    createdAt: [schools.id],
    teachers: [teacherCount, schools.id],
  };
  return keys[sort].map((key) => by(key));
}

export async function listSchools(db: Db, query: ListQuery) {
  const filter = matchesQuery(query.query);
  const order = orderFor(query.sort, query.dir);
  // The page's ids first, so the counts run for these rows only.
  const pageIds = db
    .select({ id: schools.id })
    .from(schools)
    .where(filter)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [rows, totals] = await db.batch([
    db
      .select(schoolRowColumns)
      .from(schools)
      .where(inArray(schools.id, pageIds))
      .orderBy(...order),
    db.select({ total: count() }).from(schools).where(filter),
  ]);
  return { schools: rows, total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

export type SchoolRow = Awaited<ReturnType<typeof listSchools>>["schools"][number];

export async function searchSchools(db: Db, query: string) {
  const filter = matchesQuery(query);
  if (!filter) return [];
  const rows = await db
    .select({
      id: schools.id,
      name: schools.name,
      email: schools.email,
      zipCode: schools.zipCode,
      city: schools.city,
      state: schools.state,
    })
    .from(schools)
    .where(filter)
    .orderBy(sql`${schools.name} COLLATE NOCASE`, schools.id)
    .limit(20);
  return rows.map(({ city, state, ...row }) => ({
    ...row,
    name: row.name.trim() || "Unnamed School",
    description: [city, state].filter(Boolean).join(", "),
  }));
}

/** The id the next insert will most likely get: AUTOINCREMENT never reuses ids, so past the sequence too. */
export async function nextSchoolId(db: Db): Promise<number> {
  const maxId = sql`coalesce((SELECT max(id) FROM schools), 0)`;
  try {
    const [row] = await db.all<{ nextId: number }>(
      sql`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'schools'), 0), ${maxId}) + 1 AS nextId`,
    );
    return row!.nextId;
  } catch {
    // Should a host refuse sqlite_sequence, the largest id is the next best guess.
    const [row] = await db.all<{ nextId: number }>(sql`SELECT ${maxId} + 1 AS nextId`);
    return row!.nextId;
  }
}

export async function findSchoolRow(db: Db, schoolId: number): Promise<SchoolRow | null> {
  const [row] = await db.select(schoolRowColumns).from(schools).where(eq(schools.id, schoolId));
  return row ?? null;
}

export async function findSchoolDetail(db: Db, schoolId: number) {
  const lastLoginAt = sql<number | null>`(SELECT max(at) FROM login_events WHERE login_events.teacher_id = teachers.id)`;
  const [[school], teacherRows] = await db.batch([
    db.select(schoolRowColumns).from(schools).where(eq(schools.id, schoolId)),
    db
      .select({
        id: teachers.id,
        name: teachers.name,
        email: teachers.email,
        mobile: teachers.mobile,
        createdAt: teachers.createdAt,
        lastLoginAt,
      })
      .from(teachers)
      .where(eq(teachers.schoolId, schoolId))
      .orderBy(sql`${teachers.name} COLLATE NOCASE`, teachers.id),
  ]);
  return school ? { ...school, teachers: teacherRows } : null;
}

export async function listSchoolBooksForAdmin(db: Db, schoolId: number) {
  const [[school], rows] = await db.batch([
    db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId)),
    db
      .select({
        id: books.id,
        title: books.title,
        author1: books.author1,
        author2: books.author2,
        isbn: books.isbn,
        gradeLevel: books.gradeLevel,
        subject: books.subject,
        coverKey: books.coverKey,
        version: sql<number>`coalesce(${books.updatedAt}, ${books.createdAt})`,
      })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .orderBy(sql`${books.title} COLLATE NOCASE`, books.id),
  ]);
  if (!school) return null;
  return rows.map(({ coverKey, version, ...book }) => ({
    ...book,
    thumbnailPath: coverPath({ id: book.id, coverKey, createdAt: version }),
  }));
}

// ---- Writes -----------------------------------------------------------------------------------

/**
 * auditEntry's row for a guarded write: INSERT ... SELECT ... WHERE changes() > 0, so it is written
 * only when the statement before it in the batch changed a row, and its id or values may be SQL
 * evaluated in the batch (the id of the row just inserted, the counter just raised).
 */
export function auditWhenChanged(
  db: Db,
  actor: Actor,
  entry: { action: string; entityId: number | SQL; before?: unknown; after?: unknown },
  now: number,
) {
  const json = (value: unknown) => (is(value, SQL) ? value : value === undefined ? null : JSON.stringify(value));
  const row: Record<keyof typeof auditLog.$inferSelect, unknown> = {
    id: null,
    adminId: actor.id,
    adminEmail: actor.email,
    action: entry.action,
    entityType: "school",
    // D1 binds JS numbers as REAL, so a number is sent as text ("12", not "12.0").
    entityId: is(entry.entityId, SQL) ? sql`CAST(${entry.entityId} AS TEXT)` : String(entry.entityId),
    before: json(entry.before),
    after: json(entry.after),
    at: now,
  };
  // insert().select() fills every column in the table's order.
  const columns = Object.keys(getTableColumns(auditLog)) as (keyof typeof row)[];
  const list = sql.join(
    columns.map((column) => sql`${row[column]}`),
    sql`, `,
  );
  return db.insert(auditLog).select(sql`SELECT ${list} WHERE changes() > 0`);
}

export async function createSchool(
  db: Db,
  actor: Actor,
  input: SchoolInput,
  now = Date.now(),
): Promise<WriteResult<{ school: SchoolRow }>> {
  if (input.slug && (await slugTaken(db, input.slug))) return { ok: false, status: 409, error: DUPLICATE_SLUG };
  const slug = input.slug ?? (await generateUniqueSlugs(db, [input.schoolName]))[0]!;
  const values = toInsertValues(input, slug);
  try {
    const [[created]] = await db.batch([
      db.insert(schools).values(values).returning({ id: schools.id }),
      auditWhenChanged(db, actor, { action: "school.create", entityId: sql`last_insert_rowid()`, after: values }, now),
    ]);
    return { ok: true, school: (await findSchoolRow(db, created!.id))! };
  } catch (error) {
    if (isUniqueSlugError(error)) return { ok: false, status: 409, error: DUPLICATE_SLUG };
    throw error;
  }
}

const limitBelowCount = (count: number, field = "teacherLimit") =>
  `${field}: This school already has ${count} registered teacher${count === 1 ? "" : "s"}; the limit cannot be lower`;

export async function updateSchool(
  db: Db,
  actor: Actor,
  schoolId: number,
  input: SchoolUpdate,
  now = Date.now(),
): Promise<WriteResult<{ school: SchoolRow }>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  if (input.slug && (await slugTaken(db, input.slug, schoolId))) return { ok: false, status: 409, error: DUPLICATE_SLUG };
  if (input.teacherLimit !== undefined && input.teacherLimit < before.teacherCount) {
    return { ok: false, status: 400, error: limitBelowCount(before.teacherCount) };
  }
  const values = toUpdateValues(schoolId, input);
  if (Object.keys(values).length === 0) return { ok: true, school: before };
  try {
    await db.batch([
      db.update(schools).set(values).where(eq(schools.id, schoolId)),
      auditWhenChanged(db, actor, { action: "school.update", entityId: schoolId, before, after: input }, now),
    ]);
  } catch (error) {
    if (isUniqueSlugError(error)) return { ok: false, status: 409, error: DUPLICATE_SLUG };
    if (isLimitGuardError(error))
      return { ok: false, status: 400, error: limitBelowCount((await findSchoolRow(db, schoolId))?.teacherCount ?? 0) };
    throw error;
  }
  const school = await findSchoolRow(db, schoolId);
  return school ? { ok: true, school } : NOT_FOUND;
}

/** Deletes the school; the schema's cascades take its teachers, sessions, codes, shelf, progress and login events. */
export async function deleteSchool(db: Db, actor: Actor, schoolId: number, now = Date.now()): Promise<WriteResult<object>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  const [deleted] = await db.batch([
    db.delete(schools).where(eq(schools.id, schoolId)).returning({ id: schools.id }),
    auditWhenChanged(db, actor, { action: "school.delete", entityId: schoolId, before }, now),
  ]);
  return deleted.length ? { ok: true } : NOT_FOUND;
}

// ---- Logins -----------------------------------------------------------------------------------
//
// The spec's admins raise two numbers. The "login count" is the teacher limit: how many teacher
// accounts a school may register. The "total login" is schools.total_logins: a counter that every
// successful teacher login increments (teachers/accounts.ts) and that admins may raise by hand;
// login_events holds the actual history.

const DAY_MS = 86_400_000;

export async function schoolLoginRecord(db: Db, schoolId: number, now = Date.now()) {
  const since = (days: number) =>
    sql<number>`(SELECT count(*) FROM login_events WHERE login_events.school_id = schools.id AND login_events.at >= ${now - days * DAY_MS})`;
  const [row] = await db
    .select({
      schoolId: schools.id,
      teacherLimit: schools.teacherLimit,
      teacherCount,
      totalLogins: schools.totalLogins,
      loginsLast7Days: since(7),
      loginsLast30Days: since(30),
    })
    .from(schools)
    .where(eq(schools.id, schoolId));
  return row ?? null;
}

export const IncreaseLoginCountSchema = z
  .object({
    by: z.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_TEACHER_LIMIT, LIMIT_MESSAGE).optional(),
    limit: z.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_TEACHER_LIMIT, LIMIT_MESSAGE).optional(),
  })
  .refine((body) => (body.by === undefined) !== (body.limit === undefined), {
    error: "Give either by (how many more) or limit (the new limit)",
  });

/** Raises the teacher limit by `by`, or sets it to `limit`; either way never below the registered teachers. */
export async function increaseTeacherLimit(
  db: Db,
  actor: Actor,
  schoolId: number,
  change: { by?: number; limit?: number },
  now = Date.now(),
): Promise<WriteResult<{ teacherLimit: number }>> {
  const before = await findSchoolRow(db, schoolId);
  if (!before) return NOT_FOUND;
  const limit = change.limit ?? before.teacherLimit + change.by!;
  const field = change.limit === undefined ? "by" : "limit";
  if (limit > MAX_TEACHER_LIMIT)
    return { ok: false, status: 400, error: `${field}: The teacher limit can be at most ${MAX_TEACHER_LIMIT}` };
  if (limit < before.teacherCount) return { ok: false, status: 400, error: limitBelowCount(before.teacherCount, field) };
  try {
    const [[updated]] = await db.batch([
      db
        .update(schools)
        .set({ teacherLimit: guardedTeacherLimit(schoolId, limit) })
        .where(eq(schools.id, schoolId))
        .returning({ teacherLimit: schools.teacherLimit }),
      auditWhenChanged(
        db,
        actor,
        {
          action: "school.increase-login-count",
          entityId: schoolId,
          before: { teacherLimit: before.teacherLimit },
          after: { teacherLimit: limit },
        },
        now,
      ),
    ]);
    return updated ? { ok: true, teacherLimit: updated.teacherLimit } : NOT_FOUND;
  } catch (error) {
    if (isLimitGuardError(error))
      return { ok: false, status: 400, error: limitBelowCount((await findSchoolRow(db, schoolId))?.teacherCount ?? 0) };
    throw error;
  }
}

const BY_MESSAGE = "Enter a whole number from 1 to 1000000";
export const IncreaseTotalLoginSchema = z.object({
  by: z.number({ error: BY_MESSAGE }).int(BY_MESSAGE).min(1, BY_MESSAGE).max(1_000_000, BY_MESSAGE),
});

/** Adds to the counter in SQL, so teacher logins landing at the same moment are not lost. */
export async function increaseTotalLogins(
  db: Db,
  actor: Actor,
  schoolId: number,
  by: number,
  now = Date.now(),
): Promise<WriteResult<{ totalLogins: number }>> {
  const total = sql`(SELECT total_logins FROM schools WHERE id = ${schoolId})`;
  const [[updated]] = await db.batch([
    db
      .update(schools)
      .set({ totalLogins: sql`${schools.totalLogins} + ${by}` })
      .where(eq(schools.id, schoolId))
      .returning({ totalLogins: schools.totalLogins }),
    auditWhenChanged(
      db,
      actor,
      {
        action: "school.increase-total-login",
        entityId: schoolId,
        before: sql`json_object('totalLogins', ${total} - ${by})`,
        after: sql`json_object('totalLogins', ${total}, 'by', ${by})`,
      },
      now,
    ),
  ]);
  return updated ? { ok: true, totalLogins: updated.totalLogins } : NOT_FOUND;
}

/** Teacher logins per UTC day for the last `days` days (today included), zero days filled in. */
export async function schoolLoginHistory(db: Db, slug: string, days: number, now = Date.now()) {
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.slug, slug));
  if (!school) return null;
  const start = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const rows = await db
    .select({ day: sql<number>`${loginEvents.at} / ${sql.raw(String(DAY_MS))}`, logins: count() })
    .from(loginEvents)
    .where(and(eq(loginEvents.schoolId, school.id), sql`${loginEvents.at} >= ${start}`))
    .groupBy(sql`1`);
  const byDay = new Map(rows.map((row) => [row.day, row.logins]));
  const series = Array.from({ length: days }, (_, i) => {
    const day = start / DAY_MS + i;
    return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), logins: byDay.get(day) ?? 0 };
  });
  return { days: series, total: series.reduce((sum, day) => sum + day.logins, 0) };
}

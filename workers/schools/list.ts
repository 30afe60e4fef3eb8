import { asc, count, desc, eq, inArray, like, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";

// Correlated counts on indexed columns (teachers_school_email_idx, book_access's primary key).
export const teacherCount = sql<number>`(SELECT count(*) FROM teachers WHERE teachers.school_id = schools.id AND teachers.erased_at IS NULL)`;
const bookCount = sql<number>`(SELECT count(*) FROM book_access WHERE book_access.school_id = schools.id)`;

export const schoolRowColumns = {
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
  pageSize: z.coerce.number().int().min(1, "The page size must be 1 or more").max(100, "The page size can be at most 100").default(25),
  sort: z.enum(["name", "slug", "createdAt", "teachers"], { error: "Sort by name, slug, createdAt or teachers" }).default("name"),
  dir: z.enum(["asc", "desc"], { error: "The sort direction must be asc or desc" }).default("asc"),
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

/** How many schools there are (what "assign to all schools" reaches); a count over the primary key. */
export async function countSchools(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(schools);
  return row?.n ?? 0;
}

export async function findSchoolRow(db: Db, schoolId: number): Promise<SchoolRow | null> {
  const [row] = await db.select(schoolRowColumns).from(schools).where(eq(schools.id, schoolId));
  return row ?? null;
}

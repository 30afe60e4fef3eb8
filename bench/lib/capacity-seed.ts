/**
 * The capacity bench's database: the demo seed as the before commit makes it, plus CAPACITY.schools
 * schools of CAPACITY.teachersPerSchool teachers each (the demo teacher's password) that all have
 * the same demo books with ready pages. Seeding stores every demo book's pages (about 90 s even
 * from the page cache), so it is built once per before commit and copied for each run; each side's
 * copy then gets that side's own pending migrations, as a deploy over the old data would.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { CAPACITY_DIR } from "./capacity-stage.ts";
import { copyLocalState } from "./state-copy.ts";

/** Raise when what the base holds changes. */
const BASE_VERSION = 1;
/** 5 teachers a school: each side signs every one in, ~60 ms of password hashing apiece. */
export const CAPACITY = { schools: 20, teachersPerSchool: 5, books: 2 } as const;
const MARKER = "capacity-base.json";

export interface CapacityBase {
  key: string;
  schools: { id: number; slug: string }[];
  teachersPerSchool: number;
  books: { id: number; pageCount: number }[];
  accounts: { teacherPassword: string; adminEmail: string; adminPassword: string };
}

export const capacityTeacherEmail = (slug: string, i: number) => `capacity.teacher${i}@${slug}.example.org`;

type SeedLocal = (persistTo: string, log?: (line: string) => void) => Promise<{ env: Record<string, string> }>;

/** The schools, teachers and book assignments the drive reads with, added to a seeded state. */
async function addCapacityRows(persistTo: string): Promise<Pick<CapacityBase, "schools" | "books">> {
  return withLocalState(persistTo, async ({ DB }) => {
    const count = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;
    await DB.prepare(
      `INSERT INTO schools (slug, name, city, state, email)
       ${count(CAPACITY.schools)} SELECT printf('capacity-%02d', i), printf('Capacity School %02d', i), 'Springfield', 'IL',
         printf('office@capacity-%02d.example.org', i) FROM n`,
    ).run();
    const schools = (
      await DB.prepare("SELECT id, slug FROM schools WHERE slug LIKE 'capacity-%' ORDER BY slug").all<{ id: number; slug: string }>()
    ).results;
    await DB.prepare(
      `INSERT INTO teachers (school_id, name, email, mobile, password_hash)
       ${count(CAPACITY.teachersPerSchool)} SELECT s.id, 'Capacity Teacher ' || i, 'capacity.teacher' || i || '@' || s.slug || '.example.org',
         '5550000000', (SELECT password_hash FROM teachers WHERE email = 'demo.teacher@lincoln-high.example.org')
       FROM n, schools s WHERE s.slug LIKE 'capacity-%'`,
    ).run();
    const books = (
      await DB.prepare(
        `SELECT b.id, p.page_count AS pageCount FROM books b JOIN page_sets p ON p.id = b.page_set_id
         WHERE p.status = 'ready' AND p.page_count > 0 ORDER BY b.id LIMIT ?`,
      )
        .bind(CAPACITY.books)
        .all<{ id: number; pageCount: number }>()
    ).results;
    if (books.length < CAPACITY.books) throw new Error(`the seed has ${books.length} book(s) with ready pages, not ${CAPACITY.books}`);
    const assign = DB.prepare("INSERT INTO book_access (school_id, book_id) VALUES (?, ?)");
    await DB.batch(schools.flatMap((school) => books.map((book) => assign.bind(school.id, book.id))));
    return { schools, books };
  });
}

/** The base state for `beforeHash` (seeded with that commit's own seed code in `beforeDir`), built when missing. */
export async function ensureCapacityBase(beforeDir: string, beforeHash: string, log: (line: string) => void): Promise<CapacityBase> {
  const dir = join(CAPACITY_DIR, "base");
  const marker = join(dir, MARKER);
  const key = `${beforeHash}:${BASE_VERSION}:${JSON.stringify(CAPACITY)}`;
  if (existsSync(marker)) {
    const found = JSON.parse(readFileSync(marker, "utf8")) as CapacityBase;
    if (found.key === key) return found;
  }
  log(`seeding the base database in ${dir} with ${beforeHash.slice(0, 7)}'s seed (once; later runs copy it)`);
  rmSync(dir, { recursive: true, force: true });
  const { seedLocal } = (await import(join(beforeDir, "scripts/lib/seed-local.ts"))) as { seedLocal: SeedLocal };
  const { env } = await seedLocal(dir);
  const rows = await addCapacityRows(dir);
  const base: CapacityBase = {
    key,
    ...rows,
    teachersPerSchool: CAPACITY.teachersPerSchool,
    accounts: { teacherPassword: env.DEMO_TEACHER_PASSWORD!, adminEmail: env.DEMO_ADMIN_EMAIL!, adminPassword: env.DEMO_ADMIN_PASSWORD! },
  };
  writeFileSync(marker, `${JSON.stringify(base, null, 2)}\n`);
  return base;
}

/**
 * A copy of the base for one side, with `sourceDir`'s pending migrations applied.
 */
export async function copyBase(sourceDir: string, to: string): Promise<string[]> {
  copyLocalState(join(CAPACITY_DIR, "base"), to, MARKER);
  const localState = (await import(join(sourceDir, "scripts/lib/local-state.ts"))) as typeof import("../../scripts/lib/local-state.ts");
  return localState.withLocalState(to, ({ DB }) => localState.applyMigrations(DB));
}

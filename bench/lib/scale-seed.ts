import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dayOf } from "#shared/rules/licence.ts";
import { ROOT } from "../../scripts/lib/env.ts";
import { openLocalState } from "../../scripts/lib/local-state.ts";
import { seedState } from "./app-server.ts";
import { addBigSchool } from "./big-school.ts";
import { addUsageRollups, USAGE, type UsageBuild } from "./usage-seed.ts";

/** Raise when the generated data changes; the migrations' own text is part of the cache key too. */
const SCALE_VERSION = 2;
export const SCALE = { schools: 10_000, books: 100_000, booksPerSchool: 100, teachers: 10_000, sessions: 20_000 } as const;
export const SCALE_STATE = ".wrangler/bench-scale";
const MARKER = "bench-scale.json";
/**
 * The overview reads the 365 days ending now, so the synthetic year must end near today: older than
 * this, the rollups alone are generated again (the rest of the database stays). A week keeps every
 * 7- and 30-day figure of the overview filled and costs a rebuild of the rollups at most weekly.
 */
const USAGE_MAX_AGE_DAYS = 7;

const PLACES = ["Lincoln", "Washington", "Oak", "Maple", "River", "Hill", "Lake", "Cedar", "Pine", "Elm", "Park", "Valley"]
  .concat(["Summit", "Harbor", "Meadow", "Forest", "Spring", "Bridge", "Stone", "Willow", "Grant", "Jefferson", "Madison"])
  .concat(["Franklin", "Adams", "Jackson", "Monroe", "Kennedy", "Roosevelt", "Hamilton", "Clark", "Lewis", "Parker"]);
const KINDS = ["Elementary School", "Middle School", "High School", "Academy", "Preparatory School", "Charter School"];
const ADJECTIVES = ["Exploring", "Understanding", "Discovering", "Mastering", "Foundations of", "Adventures in", "Essential"].concat([
  "Introduction to",
  "Advanced",
  "Practical",
  "Everyday",
  "Modern",
  "Hidden",
  "Great",
  "Little",
  "Amazing",
]);
const NOUNS = ["Numbers", "Planets", "Rivers", "Empires", "Poems", "Machines", "Cells", "Maps", "Colours", "Stories"].concat([
  "Fractions",
  "Forests",
  "Oceans",
  "Voices",
  "Patterns",
  "Energy",
  "Islands",
  "Inventions",
  "Rhythms",
  "Atoms",
]);
const SUBJECTS = ["Mathematics", "Science", "English", "History", "Art", "Computer Science", "Social Studies"];
const AUTHORS = ["Maya Ellison", "Priya Raman", "Daniel Okafor", "Hannah Lindqvist", "Amara Nwosu", "Carlos Mendes", "Leo Park"].concat([
  "Tom Whitaker",
  "Ines Duarte",
  "Kenji Sato",
  "Olivia Brooks",
  "Samuel Adeyemi",
  "Greta Holm",
  "Nadia Haddad",
]);

/** A SQL expression picking `list[index % list.length]`, with the list inlined as JSON (plain words only). */
function pick(list: string[], index: string): string {
  return `json_extract('${JSON.stringify(list)}', '$[' || ((${index}) % ${list.length}) || ']')`;
}

function cacheKey(): string {
  const hash = createHash("sha256").update(String(SCALE_VERSION)).update(JSON.stringify(SCALE)).update(JSON.stringify(USAGE));
  const dir = join(ROOT, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest("hex").slice(0, 16);
}

/** Bulk rows after the demo seed: schools, books (FTS by trigger), assignments, teachers, sessions. */
async function addScaleRows(persistTo: string, log: (line: string) => void): Promise<void> {
  const proxy = await openLocalState(persistTo);
  const db = proxy.env.DB;
  const step = async (label: string, sql: string, ...binds: unknown[]) => {
    const started = performance.now();
    await db
      .prepare(sql)
      .bind(...binds)
      .run();
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const count = (sql: string) => `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?) ${sql}`;
  try {
    const base = await db
      .prepare("SELECT (SELECT coalesce(max(id), 0) FROM schools) AS school, (SELECT coalesce(max(id), 0) FROM books) AS book")
      .first<{ school: number; book: number }>();
    const template = await db
      .prepare("SELECT cover_key, pdf_key, pdf_size, updated_at FROM books WHERE pdf_key IS NOT NULL LIMIT 1")
      .first<{ cover_key: string; pdf_key: string; pdf_size: number }>();
    await step(
      `${SCALE.schools} schools`,
      `INSERT INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit, created_at)
       ${count(`SELECT printf('scale-%05d', i), ${pick(PLACES, "i * 7")} || ' ' || ${pick(KINDS, "i / 3")} || ' ' || i,
         i || ' Main Street', ${pick(PLACES, "i * 11")} || 'ville', 'CA', printf('%05d', 90000 + i % 9999),
         printf('office%05d@scale.example.org', i), 25, 1600000000000 + i * 60000 FROM n`)}`,
      1,
      SCALE.schools,
    );
    const chunk = 20_000;
    for (let from = 1; from <= SCALE.books; from += chunk) {
      await step(
        `books ${from}-${from + chunk - 1}`,
        `INSERT INTO books (title, author1, description, isbn, grade_level, subject, cover_key, pdf_key, pdf_size, page_count, created_at)
         ${count(`SELECT ${pick(ADJECTIVES, "i * 3")} || ' ' || ${pick(NOUNS, "i / 7")} || ' ' || (i % 9 + 1),
           ${pick(AUTHORS, "i * 5")}, 'A ' || lower(${pick(SUBJECTS, "i")}) || ' reader for grade ' || (i % 12 + 1) || ', title number ' || i || '.',
           printf('979-1-%06d-00-0', i), i % 12 + 1, ${pick(SUBJECTS, "i")}, ?, ?, ?, 24, 1600000000000 + i * 997000 FROM n`)}`,
        from,
        Math.min(from + chunk - 1, SCALE.books),
        template?.cover_key ?? null,
        template?.pdf_key ?? null,
        template?.pdf_size ?? null,
      );
    }
    const perStatement = 1000;
    for (let from = 1; from <= SCALE.schools; from += perStatement) {
      // 100 distinct books per school: k * 1009 is distinct mod 100000 for k < 100 (1009 is prime).
      await step(
        `assignments for schools ${from}-${from + perStatement - 1}`,
        `INSERT INTO book_access (school_id, book_id, created_at)
         WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?),
                        k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < ?)
         SELECT ? + i, ? + 1 + ((i * 7919 + j * 1009) % ?), 1700000000000 FROM n, k`,
        from,
        from + perStatement - 1,
        SCALE.booksPerSchool - 1,
        base!.school,
        base!.book,
        SCALE.books,
      );
    }
    const teacherBase = await db.prepare("SELECT coalesce(max(id), 0) AS id FROM teachers").first<{ id: number }>();
    await step(
      `${SCALE.teachers} teachers`,
      `INSERT INTO teachers (school_id, name, email, mobile, password_hash)
       ${count(`SELECT ? + i, 'Teacher ' || i, printf('teacher%05d@scale.example.org', i), '5550000000',
         (SELECT password_hash FROM teachers LIMIT 1) FROM n`)}`,
      1,
      SCALE.teachers,
      base!.school,
    );
    // Teacher n (from teacherBase + 1) belongs to school base.school + n.
    await step(
      `${SCALE.sessions} sessions`,
      `INSERT INTO sessions (token_hash, kind, teacher_id, school_id, last_seen_at, expires_at)
       ${count("SELECT printf('%064d', i), 'teacher', ? + 1 + i % ?, ? + 1 + i % ?, 1700000000000, 4100000000000 FROM n")}`,
      1,
      SCALE.sessions,
      teacherBase!.id,
      SCALE.teachers,
      base!.school,
      SCALE.teachers,
    );
  } finally {
    await proxy.dispose();
  }
}

interface Marker {
  key: string;
  usage: UsageBuild;
}

/**
 * The scale database in its own state folder, built once and reused while the cache key (version,
 * sizes, migrations) matches. Holds the demo seed, big-library (1,000 books), the bulk rows and a
 * year of usage rollups ending within USAGE_MAX_AGE_DAYS of today.
 */
export async function ensureScaleState(
  log: (line: string) => void,
): Promise<{ persistTo: string; cached: boolean; seconds: number; usage: UsageBuild }> {
  const started = performance.now();
  const persistTo = join(ROOT, SCALE_STATE);
  const key = cacheKey();
  const marker = join(persistTo, MARKER);
  const found = existsSync(marker) ? (JSON.parse(readFileSync(marker, "utf8")) as Partial<Marker>) : null;
  const seconds = () => +((performance.now() - started) / 1000).toFixed(1);
  const write = (usage: UsageBuild) =>
    writeFileSync(
      marker,
      `${JSON.stringify({ key, version: SCALE_VERSION, scale: SCALE, usage, seconds: seconds(), date: new Date().toISOString() })}\n`,
    );
  if (found?.key === key && found.usage) {
    const oldest = dayOf(Date.now() - USAGE_MAX_AGE_DAYS * 86_400_000);
    if (found.usage.day >= oldest) return { persistTo, cached: true, seconds: 0, usage: found.usage };
    log(`the scale database's usage year ends ${found.usage.day}: generating it again to end today`);
    // Half-regenerated rollups (their indexes dropped) are no cache: a failure here rebuilds it all next time.
    rmSync(marker);
    const usage = await addUsageRollups(persistTo, log);
    write(usage);
    return { persistTo, cached: false, seconds: seconds(), usage };
  }
  log(`building the scale database in ${SCALE_STATE} (key ${key})`);
  let usage: UsageBuild | undefined;
  await seedState(SCALE_STATE, async (dir) => {
    await addBigSchool(dir, 1000);
    await addScaleRows(dir, log);
    usage = await addUsageRollups(dir, log);
  });
  write(usage!);
  return { persistTo, cached: false, seconds: seconds(), usage: usage! };
}

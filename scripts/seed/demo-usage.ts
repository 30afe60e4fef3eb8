/**
 * Three months of made-up reading for the demo schools, so the usage reports have something to
 * show on a fresh `npm start`: five sample teachers per school (not the demo teacher) reading on school days, written
 * straight into D1's rollups with the rollup arithmetic of workers/reading/usage-events.ts (the same
 * as a school object's flush), so every rollup agrees, and the seat figures from it. Runs once: skipped when any usage is already recorded.
 */
import { eq, sql } from "drizzle-orm";
import { type Db, runTransaction } from "../../workers/db/client.ts";
import { bookAccess, books, readingProgress, schools, teachers } from "../../workers/db/schema.ts";
import { readingEventStatements } from "../../workers/reading/usage-events.ts";
import { DEMO_SCHOOLS } from "./demo-schools.ts";

const DAYS = 90;
const SAMPLE_READERS = ["Grace Okoye", "Marcus Bell", "Lena Fischer", "Omar Haddad", "Sofia Marquez"];
/** How often a teacher of each demo school reads on a school day: some schools read more than others. */
const READING_CHANCE = [0.65, 0.45, 0.3, 0.2, 0.1];
const STATEMENTS_PER_BATCH = 400;

/** A small seeded generator (mulberry32), so every fresh demo has the same history. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedDemoUsage(db: Db, now = Date.now()): Promise<number> {
  const [recorded] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM usage_daily`);
  if ((recorded?.n ?? 0) > 0) return 0;
  const next = random(20261123);
  const statements = [];
  const progress = new Map<string, { teacherId: number; bookId: number; page: number; at: number }>();
  for (const [index, demo] of DEMO_SCHOOLS.entries()) {
    const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.slug, demo.slug));
    if (!school) continue;
    const [template] = await db.select({ hash: teachers.passwordHash }).from(teachers).where(eq(teachers.schoolId, school.id)).limit(1);
    if (!template) continue;
    await db
      .insert(teachers)
      .values(
        SAMPLE_READERS.map((name, i) => ({
          schoolId: school.id,
          name,
          email: `sample.reader${i + 1}@${demo.slug}.example.org`,
          mobile: "5550100000",
          passwordHash: template.hash,
        })),
      )
      .onConflictDoNothing();
    // Only the sample teachers read: the demo teacher, whom visitors and the e2e tests sign in as,
    // starts with no reading of their own.
    const readers = await db
      .select({ id: teachers.id })
      .from(teachers)
      .where(sql`${teachers.schoolId} = ${school.id} AND ${teachers.email} LIKE 'sample.reader%'`);
    const shelf = await db
      .select({ id: books.id, pages: books.pageCount })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(sql`${bookAccess.schoolId} = ${school.id} AND ${books.pdfKey} IS NOT NULL`);
    if (shelf.length === 0) continue;
    const chance = READING_CHANCE[index] ?? 0.2;
    for (let daysAgo = DAYS - 1; daysAgo >= 1; daysAgo--) {
      const dayStart = Math.floor(now / 86_400_000 - daysAgo) * 86_400_000;
      const weekday = new Date(dayStart).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      for (const reader of readers) {
        if (next() > chance) continue;
        const book = shelf[Math.floor(next() * shelf.length)]!;
        const bookPages = book.pages ?? 24;
        let at = Math.round(dayStart + (8 + next() * 7) * 3600_000);
        const event = { schoolId: school.id, bookId: book.id, teacherId: reader.id, pages: 0 as const };
        statements.push(...readingEventStatements(event, at));
        const key = `${reader.id}:${book.id}`;
        let page = progress.get(key)?.page ?? 1;
        const pages = 2 + Math.floor(next() * 14);
        for (let p = 0; p < pages && page <= bookPages; p++, page++) {
          at += Math.round(20_000 + next() * 130_000);
          statements.push(...readingEventStatements({ ...event, pages: 1 }, at));
        }
        progress.set(key, { teacherId: reader.id, bookId: book.id, page: Math.min(page, bookPages), at });
      }
    }
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await runTransaction(db, statements.slice(i, i + STATEMENTS_PER_BATCH));
  // Seats (docs/decisions/0028), made up from the same days: those who read a book on a day read
  // it at once, as many as the licence's seats allow; the others were turned away.
  await db.run(sql`INSERT INTO seat_daily (school_id, book_id, day, peak_readers, turned_away)
    SELECT r.school_id, r.book_id, r.day, min(count(*), coalesce(ba.seats, count(*))), max(0, count(*) - coalesce(ba.seats, count(*)))
    FROM reading_daily r JOIN book_access ba ON ba.school_id = r.school_id AND ba.book_id = r.book_id
    GROUP BY r.school_id, r.book_id, r.day
    ON CONFLICT DO NOTHING`);
  for (const row of progress.values()) {
    await db
      .insert(readingProgress)
      .values({ teacherId: row.teacherId, bookId: row.bookId, page: row.page, updatedAt: row.at })
      .onConflictDoNothing();
  }
  return statements.length;
}

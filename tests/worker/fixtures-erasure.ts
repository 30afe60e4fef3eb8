/**
 * What erasure tests need: a school whose teachers have left a trace in every place the product
 * keeps one (D1 and the school's object), and searches of every table of both for their names,
 * addresses and mobiles.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { auditLog, favourites, oidcRequests, otpCodes, readingProgress, teachers } from "../../workers/db/schema.ts";
import { recordReadingEvent } from "../../workers/reading/usage-events.ts";
import { schoolReport } from "../../workers/reports/detail.ts";
import { lastDays } from "../../workers/reports/range.ts";
import { liveRanking } from "../../workers/reports/rankings.ts";
import { activeTeacherCounts, usageReport } from "../../workers/reports/usage.ts";
import { teacherWithPassword } from "./fixtures-teachers.ts";
import { createBook, createSchool, db, flushUsage, schoolStub, setPagesSpent } from "./helpers.ts";

export const PASSWORD = "correct horse battery 9";
const DAY_MS = 86_400_000;
let counter = 0;

/** Unique names, addresses and mobiles, so a search finds this test's people only. */
export function person(label: string) {
  const n = `${++counter}${crypto.randomUUID().slice(0, 6)}`;
  return {
    name: `${label} Q${n}`,
    email: `${label.toLowerCase()}.${n}@erase.test`,
    mobile: `77${String(Date.now()).slice(-6)}${counter % 100}`,
  };
}

/** A teacher with a password (for the login API), a live session and a unique mobile. */
export async function teacherOf(school: { id: number }, who = person("Teacher")) {
  const teacher = await teacherWithPassword(school.id, who.email, PASSWORD, who.name);
  await db().update(teachers).set({ mobile: who.mobile }).where(eq(teachers.id, teacher.id));
  const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
  const token = await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, teacher, "Firefox on Linux");
  return { teacher, who, cookie: `__Host-lectern_teacher=${token}` };
}

/**
 * Leaves a trace of `teacher` everywhere: reading history (rollups and reading_daily), reading
 * progress, a favourite, reading settings, a one-time code, sign-in throttles, a provider sign-in
 * in flight, audit entries naming them, and in the object a seat, a page budget, reading marks,
 * unsent progress and a note.
 */
export async function leaveTraces(school: { id: number }, bookId: number, teacher: { id: number; name: string; email: string }) {
  const now = Date.now();
  for (const daysAgo of [3, 2, 1])
    await recordReadingEvent(db(), { schoolId: school.id, bookId, teacherId: teacher.id, pages: 1 }, now - daysAgo * DAY_MS);
  await db().insert(readingProgress).values({ teacherId: teacher.id, bookId, page: 4, updatedAt: now });
  await db().insert(favourites).values({ teacherId: teacher.id, bookId });
  await db()
    .update(teachers)
    .set({ readingSettings: { font: "serif" } })
    .where(eq(teachers.id, teacher.id));
  await db()
    .insert(otpCodes)
    .values({ schoolId: school.id, email: teacher.email, purpose: "reset", codeHash: "h", expiresAt: now + 60_000 });
  await db().run(sql`INSERT INTO rate_limits (key, count, window_start) VALUES
    (${`login:account:${school.id}:${teacher.email}`}, 1, ${now}), (${`login:pair:${school.id}:${teacher.email}:10.0.0.1`}, 1, ${now})`);
  await db().insert(oidcRequests).values({
    state: crypto.randomUUID(),
    schoolId: school.id,
    provider: "google",
    returnTo: "https://x.test",
    teacherId: teacher.id,
    createdAt: now,
  });
  const named = { name: teacher.name, email: teacher.email };
  await db()
    .insert(auditLog)
    .values([
      {
        adminEmail: "someone@lectern.test",
        action: "teacher.disable",
        entityType: "teacher",
        entityId: String(teacher.id),
        before: named,
        after: named,
        at: now,
      },
      { adminEmail: `${teacher.email} (coordinator)`, action: "teacher.enable", entityType: "teacher", entityId: "0", at: now },
      {
        adminEmail: teacher.email,
        action: "teacher.sign-in-refused",
        entityType: "school",
        entityId: String(school.id),
        after: { email: teacher.email },
        at: now,
      },
    ]);
  const stub = await schoolStub(school.id);
  await stub.record(school.id, { teacherId: teacher.id, bookId, pages: 1, now: now - 60_000 });
  await stub.saveProgress(school.id, { teacherId: teacher.id, bookId, page: 5, now });
  await flushUsage(school.id);
  // Progress saved after the flush stays in the object until the next one.
  await stub.saveProgress(school.id, { teacherId: teacher.id, bookId, page: 6, now });
  await setPagesSpent(school, teacher.id, bookId, "h", 3);
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("INSERT OR REPLACE INTO seats (book_id, teacher_id, last_at) VALUES (?, ?, ?)", bookId, teacher.id, now);
    state.storage.sql.exec(
      "INSERT INTO annotations (teacher_id, book_id, kind, page, note, created_at, updated_at) VALUES (?, ?, 'note', 2, ?, ?, ?)",
      teacher.id,
      bookId,
      `A note by ${teacher.name}`,
      now,
      now,
    );
  });
}

/** A school with two teachers who left traces, a colleague-free other school with one, and a book both read. */
export async function schoolWithTraces() {
  const school = await createSchool({ teacherLimit: 10 });
  const other = await createSchool();
  const book = await createBook({ title: `Erasable ${crypto.randomUUID().slice(0, 6)}` }, [school.id, other.id]);
  const ada = await teacherOf(school, person("Ada"));
  const ben = await teacherOf(school, person("Ben"));
  const keeper = await teacherOf(other, person("Keeper"));
  for (const t of [ada, ben]) await leaveTraces(school, book.id, t.teacher);
  await leaveTraces(other, book.id, keeper.teacher);
  return { school, other, book, ada, ben, keeper };
}

/** Every row of every D1 table (but the migrations' own), as text, that contains any of `needles`. */
export async function d1RowsNaming(needles: string[]): Promise<string[]> {
  const tables = await db().all<{ name: string }>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' AND name NOT LIKE '%fts%'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await db().all<Record<string, unknown>>(sql.raw(`SELECT * FROM "${name}"`));
    for (const row of rows) {
      const text = JSON.stringify(row);
      if (needles.some((needle) => text.includes(needle))) found.push(`${name}: ${text}`);
    }
  }
  return found;
}

/** The same search of every table the school's object keeps (read through the test hook). */
export async function objectRowsNaming(schoolId: number, needles: string[]): Promise<string[]> {
  return runInDurableObject(await schoolStub(schoolId), (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'").toArray();
    const found: string[] = [];
    for (const { name } of tables)
      for (const row of sql.exec(`SELECT * FROM "${name}"`).toArray()) {
        const text = JSON.stringify(row);
        if (needles.some((needle) => text.includes(needle))) found.push(`${name}: ${text}`);
      }
    return found;
  });
}

/** Rows of the object's tables that name one of `teacherIds` by id. */
export async function objectRowsOf(schoolId: number, teacherIds: number[]): Promise<Record<string, number>> {
  return runInDurableObject(await schoolStub(schoolId), (_instance, state) => {
    const counts: Record<string, number> = {};
    for (const table of ["sessions", "seats", "budgets", "reading_days", "progress", "seat_refusals", "annotations", "pending"]) {
      const [row] = state.storage.sql
        .exec<{ n: number }>(
          `SELECT count(*) AS n FROM ${table} WHERE teacher_id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(teacherIds),
        )
        .toArray();
      counts[table] = row?.n ?? 0;
    }
    return counts;
  });
}

/** What the admin's reports show for the school, the book and all schools over the last 30 days (usage flushed first). */
export async function reportFigures(schoolId: number, bookId: number) {
  await flushUsage(schoolId);
  const range = lastDays(30);
  const school = await schoolReport(db(), schoolId, range);
  return {
    school: school.usage.totals,
    schoolDays: school.usage.days,
    schoolActive: { week: school.active.last7Days, month: school.active.last30Days },
    topBooks: school.topBooks,
    overview: (await usageReport(db(), range)).totals,
    book: (await usageReport(db(), range, { bookId })).totals,
    bookInSchool: (await usageReport(db(), range, { bookId, schoolId })).totals,
    allActive: await activeTeacherCounts(db()).then(({ last7Days, last30Days }) => ({ last7Days, last30Days })),
    topSchools: await liveRanking(db(), "school", range),
    seatDays: await db().all(sql`SELECT * FROM seat_daily WHERE school_id = ${schoolId} ORDER BY day, book_id`),
  };
}

// Each school's hot state in its own Durable Object (issue #24, docs/decisions/0024), with the real
// objects of the Cloudflare vitest pool: sessions, budgets and usage per school, what an admin's
// action does to them, the flush to D1, and what a page view costs D1.
import {
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/app.ts";
import { sha256Hex } from "../../workers/auth/tokens.ts";
import { readingDaily, schoolUsageDaily } from "../../workers/db/usage-schema.ts";
import { pageBudget } from "../../workers/reading/page-budget.ts";
import type { School } from "../../workers/school-object/school-object.ts";
import { today } from "./fixtures-suite.ts";
import {
  api,
  client,
  createSchool,
  db,
  flushUsage,
  objectSessions,
  pagesSpent,
  schoolStub,
  setPagesSpent,
  signedInTeacher,
} from "./helpers.ts";
import { preparedBook, twoSchoolsReading } from "./page-fixtures.ts";

const TEXTS = ["One.", "Two.", "Three."];

let { schoolA, schoolB, bookId, admin } = {} as Awaited<ReturnType<typeof twoSchoolsReading>>;

beforeAll(async () => {
  ({ schoolA, schoolB, bookId, admin } = await twoSchoolsReading(["Aspen School", "Beech School"], "Object Lessons", TEXTS));
});

const pageOf = (cookie: string, n = 1, book = bookId) =>
  client({ cookie }).api.books[":id"].pages[":n"].$get({ param: { id: String(book), n: String(n) } });
const verifyToken = (cookie: string) => client({ cookie }).api.teacher["verify-token"].$get();
/** The same token under another school's id: what a teacher editing their cookie would send. */
const underSchool = (cookie: string, schoolId: number) => cookie.replace(/=\d+\./, `=${schoolId}.`);

/** How many tables the object's storage holds (none once emptied). */
const objectTables = (stub: DurableObjectStub<School>) =>
  runInDurableObject(
    stub,
    (_instance, state) =>
      state.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'",
        )
        .one().n,
  );

async function schoolDay(schoolId: number) {
  const [row] = await db()
    .select()
    .from(schoolUsageDaily)
    .where(and(eq(schoolUsageDaily.schoolId, schoolId), eq(schoolUsageDaily.day, today())));
  return row?.pages ?? 0;
}

describe("a school's object", () => {
  it("never sees another school's teachers or sessions", async () => {
    const a = await signedInTeacher(schoolA, "Ash Teacher");
    const b = await signedInTeacher(schoolB, "Birch Teacher");
    expect((await pageOf(a.cookie)).status).toBe(200);
    // A's token presented to B's object (the cookie's school id changed) is nobody there.
    const forged = underSchool(a.cookie, schoolB.id);
    expect((await pageOf(forged)).status).toBe(401);
    expect((await verifyToken(forged)).status).toBe(401);
    const [inA, inB] = [await objectSessions(schoolA.id), await objectSessions(schoolB.id)];
    expect(inA.map((s) => s.teacher_id)).toContain(a.teacher.id);
    expect(inA.map((s) => s.teacher_id)).not.toContain(b.teacher.id);
    expect(inB.map((s) => s.teacher_id)).toEqual([b.teacher.id]);
    // An object answers only as the school it is.
    await runInDurableObject(await schoolStub(schoolA.id), async (object: School) => {
      await expect(object.checkSession(schoolB.id, "x")).rejects.toThrow(/called as school/);
    });
  });

  it("keeps its sessions, budgets and unflushed usage across a restart", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const book = (await preparedBook("Restart Book", [school.id], TEXTS)).book.id;
    expect((await pageOf(reader.cookie, 1, book)).status).toBe(200);
    expect((await pageOf(reader.cookie, 2, book)).status).toBe(200);
    const stub = await schoolStub(school.id);
    // The runtime may evict an object at any time: its memory goes, its storage stays.
    await runInDurableObject(stub, (_instance, state) => state.abort("restart")).catch(() => {});
    expect((await pageOf(reader.cookie, 3, book)).status).toBe(200);
    expect(await pagesSpent(school, reader.teacher.id, book)).toBe(3);
    await flushUsage(school.id);
    expect(await schoolDay(school.id)).toBe(3);
  });

  it("serves exactly the pages left in the budget to 30 requests at once", async () => {
    const reader = await signedInTeacher(schoolA);
    const { limit } = pageBudget(TEXTS.length).hour;
    await setPagesSpent(schoolA, reader.teacher.id, bookId, "h", limit - 5);
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => pageOf(reader.cookie, (i % 3) + 1)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(await pagesSpent(schoolA, reader.teacher.id, bookId)).toBe(limit);
  });
});

describe("a refused page", () => {
  it("costs nothing: ten requests refused by the hour's limit leave the day's count as it was", async () => {
    const reader = await signedInTeacher(schoolA);
    const { hour } = pageBudget(TEXTS.length);
    await setPagesSpent(schoolA, reader.teacher.id, bookId, "h", hour.limit);
    await setPagesSpent(schoolA, reader.teacher.id, bookId, "d", 201);
    for (let i = 0; i < 10; i++) expect((await pageOf(reader.cookie, 1)).status).toBe(429);
    expect(await pagesSpent(schoolA, reader.teacher.id, bookId, "d")).toBe(201);
    expect(await pagesSpent(schoolA, reader.teacher.id, bookId, "h")).toBe(hour.limit);
  });
});

describe("the flush to D1", () => {
  it("writes nothing to D1 until it runs, and reaches D1 exactly once when a flushed batch is sent again", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Flush Book", [school.id], TEXTS)).book.id;
    const reader = await signedInTeacher(school);
    for (const n of [1, 2, 3]) expect((await pageOf(reader.cookie, n, book)).status).toBe(200);
    expect(await schoolDay(school.id)).toBe(0);

    const stub = await schoolStub(school.id);
    // What the alarm is about to send, kept to send it again as a retry would after a lost answer.
    const batch = await runInDurableObject(stub, (_instance, state) => state.storage.sql.exec("SELECT * FROM pending").toArray());
    expect(batch).toHaveLength(1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await schoolDay(school.id)).toBe(3);
    const rows = () => db().select().from(readingDaily).where(eq(readingDaily.teacherId, reader.teacher.id));
    expect((await rows()).map((r) => r.pages)).toEqual([3]);

    // The object lost its record of having sent the batch (it was evicted between D1's commit and its own
    // write): the batch is still there under its number, and the retried alarm sends it again.
    await runInDurableObject(stub, async (_instance, state) => {
      const sent = state.storage.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'flush_seq'").one().value;
      for (const row of batch) {
        state.storage.sql.exec(
          "INSERT INTO pending (seq, day, book_id, teacher_id, pages, seconds, last_at, new_teacher, new_book) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          sent,
          row.day,
          row.book_id,
          row.teacher_id,
          row.pages,
          row.seconds,
          row.last_at,
          row.new_teacher,
          row.new_book,
        );
      }
      await state.storage.setAlarm(Date.now());
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await schoolDay(school.id)).toBe(3);
    expect((await rows()).map((r) => r.pages)).toEqual([3]);
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.sql.exec("SELECT * FROM pending").toArray())).toEqual([]);

    // New reading after it is a new batch, and counts.
    expect((await pageOf(reader.cookie, 1, book)).status).toBe(200);
    await flushUsage(school.id);
    expect(await schoolDay(school.id)).toBe(4);
  });

  it("flushes on demand for an admin only: a teacher's cookie, no cookie or a forged origin get nothing", async () => {
    const reader = await signedInTeacher(schoolA);
    const flush = (call: Parameters<typeof client>[0], id = schoolA.id) =>
      client(call).api.schools[":id"].usage.flush.$post({ param: { id: String(id) } });
    expect((await flush({ cookie: reader.cookie })).status).toBe(401);
    expect((await flush({})).status).toBe(401);
    expect((await flush({ cookie: admin.cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await flush({ cookie: admin.cookie, origin: null })).status).toBe(403);
    expect((await flush({ cookie: admin.cookie }, 987654321)).status).toBe(404);
    expect((await flush({ cookie: admin.cookie })).status).toBe(200);
  });

  it("sets its alarm with the first unflushed event, and the report of a school flushes it", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Alarm Book", [school.id], TEXTS)).book.id;
    const reader = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    // Before any reading, only the tidying alarm, weeks away (docs/decisions/0045); the first page brings the flush's.
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBeGreaterThan(Date.now() + 7 * 86_400_000);
    expect((await pageOf(reader.cookie, 1, book)).status).toBe(200);
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now());
    expect(alarm).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    const report = await client(admin).api.reports.teachers.$get({ query: { schoolId: String(school.id), from: today(), to: today() } });
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({ teachers: [expect.objectContaining({ id: reader.teacher.id, pagesRead: 1 })] });
  });
});

describe("admins' actions reach the object", () => {
  const write = (schoolId: number, teacherId: number, action: "disable" | "sign-out" | "") => {
    const row = client(admin).api.schools[":id"].teachers[":teacherId"];
    const param = { param: { id: String(schoolId), teacherId: String(teacherId) } };
    return action ? row[action].$post(param) : row.$delete(param);
  };

  it("a disable makes the teacher's next page request 401, and no new session opens", async () => {
    const reader = await signedInTeacher(schoolA, "Disabled Reader");
    expect((await pageOf(reader.cookie)).status).toBe(200);
    expect((await write(schoolA.id, reader.teacher.id, "disable")).status).toBe(200);
    const refused = await pageOf(reader.cookie, 2);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ disabled: true });
    const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
    expect(await openTeacherSession(env, schoolA, reader.teacher, null)).toBeNull();
  });

  it("the object is written first: a disable whose D1 write fails leaves the teacher signed out", async () => {
    const reader = await signedInTeacher(schoolA, "Half Disabled");
    const { setTeacherDisabled } = await import("../../workers/teachers/management.ts");
    // D1 refuses every write (the object's call goes first and succeeds).
    const failing = new Proxy(db(), {
      get(target, key, receiver) {
        if (key === "batch") return () => Promise.reject(new Error("D1 is unavailable"));
        return Reflect.get(target, key, receiver);
      },
    });
    await expect(
      setTeacherDisabled(failing, env, { id: admin.admin.id, email: admin.admin.email }, schoolA.id, reader.teacher.id, true),
    ).rejects.toThrow(/unavailable/);
    expect((await pageOf(reader.cookie)).status).toBe(401);
    const login = await client().api.teacher.login.$post({ json: { email: reader.teacher.email, password: "x", slug: schoolA.slug } });
    expect(login.status).not.toBe(200);
  });

  it("signing a teacher out, removing them and lowering the session limit end sessions at once", async () => {
    const school = await createSchool();
    const one = await signedInTeacher(school, "One");
    const two = await signedInTeacher(school, "Two");
    const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
    const extra = await Promise.all([1, 2].map(() => openTeacherSession(env, { id: school.id, sessionLimit: 3 }, two.teacher, null)));
    expect((await write(school.id, one.teacher.id, "sign-out")).status).toBe(200);
    expect((await verifyToken(one.cookie)).status).toBe(401);
    // Two has three sessions; a limit of 1 keeps only the newest.
    const limited = await client(admin).api.schools[":id"].$put({ param: { id: String(school.id) }, json: { sessionLimit: 1 } });
    expect(limited.status).toBe(200);
    const live = (await objectSessions(school.id)).filter((s) => s.teacher_id === two.teacher.id);
    expect(live).toHaveLength(1);
    expect(live[0]!.token_hash).toBe(await sha256Hex(extra[1]!.split(".")[1]!));
    expect((await write(school.id, two.teacher.id, "")).status).toBe(200);
    expect(await objectSessions(school.id)).toEqual([]);
  });

  it("deleting a school empties its object", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Doomed Book", [school.id], TEXTS)).book.id;
    const reader = await signedInTeacher(school);
    expect((await pageOf(reader.cookie, 1, book)).status).toBe(200);
    const stub = await schoolStub(school.id);
    expect(await objectTables(stub)).toBeGreaterThan(0);
    const deleted = await client(admin).api.schools[":id"].$delete({ param: { id: String(school.id) } });
    expect(deleted.status).toBe(200);
    expect(await objectTables(stub)).toBe(0);
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBeNull();
    expect((await pageOf(reader.cookie, 1, book)).status).toBe(401);
    // The stale cookie's request wrote nothing back: D1 has no such school.
    expect(await objectTables(stub)).toBe(0);
  });

  it("the hourly job empties the object of a school deleted when its object could not be reached", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    expect(await objectSessions(school.id)).toHaveLength(1);
    // The D1 half of a deletion, as deleteSchool writes it, without the object's half.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM schools WHERE id = ?").bind(school.id),
      env.DB.prepare(
        "INSERT INTO audit_log (admin_email, action, entity_type, entity_id, at) VALUES ('admin@test', 'school.delete', 'school', ?, ?)",
      ).bind(String(school.id), Date.now()),
    ]);
    expect((await verifyToken(reader.cookie)).status).toBe(401);
    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await objectTables(stub)).toBe(0);
  });
});

describe("a page view's cost to D1", () => {
  /** env.DB, counting the statements the Worker sends it. */
  function probedDb() {
    const counts = { statements: 0, batches: 0, sessions: 0 };
    // The database and the sessions (D1's Sessions API, for replica reads) made from it.
    const probe = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(inner, key) {
          const value = Reflect.get(inner, key);
          if (typeof value !== "function") return value;
          if (key === "prepare")
            return (query: string) => {
              counts.statements++;
              return value.call(inner, query);
            };
          if (key === "batch")
            return (statements: D1PreparedStatement[]) => {
              counts.batches++;
              return value.call(inner, statements);
            };
          if (key === "withSession")
            return (...args: unknown[]) => {
              counts.sessions++;
              return probe(value.apply(inner, args));
            };
          return value.bind(inner);
        },
      });
    return { probe: probe(env.DB), counts };
  }

  it("is no D1 statement once the book is in the isolate's memory, one read before; never a write", async () => {
    const reader = await signedInTeacher(schoolB);
    const book = (await preparedBook("Counted Book", [schoolB.id], TEXTS)).book.id;
    const { probe, counts } = probedDb();
    // Raw: on a school's host too, which the typed client (bound to our own origin) does not call.
    const view = (n: number, host = "lectern.test") =>
      api(`https://${host}/api/books/${book}/pages/${n}`, { cookie: reader.cookie, env: { DB: probe } });
    // The first view reads the school's book (one narrow row, through a D1 session: a replica may answer).
    expect((await view(1)).status).toBe(200);
    expect(counts.statements).toBe(1 + 2); // + the page set and its pages, once per isolate (a ready set never changes)
    expect(counts.sessions).toBe(1);
    counts.statements = 0;
    for (const n of [2, 3, 1]) expect((await view(n)).status).toBe(200);
    // On the school's own host too (the tenant is checked against the remembered school's slug).
    expect((await view(2, `${schoolB.slug}.lectern.test`)).status).toBe(200);
    expect(counts).toMatchObject({ statements: 0, batches: 0 });
  });

  it("stops serving a book from memory as soon as an admin takes it from the school", async () => {
    const school = await createSchool();
    const [kept, taken] = [
      (await preparedBook("Kept Book", [school.id], TEXTS)).book.id,
      (await preparedBook("Taken Book", [school.id], TEXTS)).book.id,
    ];
    const reader = await signedInTeacher(school);
    for (const book of [kept, taken]) expect((await pageOf(reader.cookie, 1, book)).status).toBe(200);
    const revoked = await client(admin).api.books.access[":schoolId"][":bookId"].$delete({
      param: { schoolId: String(school.id), bookId: String(taken) },
    });
    expect(revoked.status).toBe(200);
    const refused = await pageOf(reader.cookie, 2, taken);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "Book not found" });
    // The school's other books are read again from D1, once; nothing is spent twice.
    expect((await pageOf(reader.cookie, 2, kept)).status).toBe(200);
    expect(await pagesSpent(school, reader.teacher.id, kept)).toBe(2);
    expect(await pagesSpent(school, reader.teacher.id, taken)).toBe(1);
  });

  it("reads the book again when the page set it remembered was replaced (a new PDF)", async () => {
    const school = await createSchool();
    const { book } = await preparedBook("Reissued Book", [school.id], TEXTS);
    const reader = await signedInTeacher(school);
    expect((await pageOf(reader.cookie, 1, book.id)).status).toBe(200);
    // A new rendering replaces the set in D1 and deletes the old set's files from R2.
    const { openPageSet, storePage } = await import("../../workers/page-images/page-sets.ts");
    const { completePageSet } = await import("../../workers/page-images/complete-set.ts");
    const { pageImages, pageText } = await import("./page-fixtures.ts");
    const opened = await openPageSet(db(), book, 2);
    if (!opened.ok) throw new Error(opened.failure.error);
    for (const n of [1, 2]) await storePage(db(), env.BOOKS, opened.value, n, { images: pageImages(200), text: pageText(`New ${n}`) });
    expect((await completePageSet(db(), env.BOOKS, null, book, opened.value, { outline: [], text: ["New 1", "New 2"] })).ok).toBe(true);
    const text = await client(reader).api.books[":id"].pages[":n"].text.$get({ param: { id: String(book.id), n: "1" } });
    expect(text.status).toBe(200);
    expect(await text.json()).toMatchObject({ runs: [expect.objectContaining({ str: "New 1" })] });
    expect((await pageOf(reader.cookie, 3, book.id)).status).toBe(404);
  });

  it("makes no object that stays for a cookie naming a school that does not exist", async () => {
    const forged = `__Host-lectern_teacher=987654321.${"B".repeat(43)}`;
    expect((await pageOf(forged)).status).toBe(401);
    expect((await verifyToken(forged)).status).toBe(401);
    expect(await objectTables(await schoolStub(987654321))).toBe(0);
  });

  it("answers the dashboard's call for a school it does not hold, and keeps nothing for it", async () => {
    const stub = await schoolStub(987654322);
    expect(await stub.dashboardState(987654322, 1)).toEqual({ unflushed: [], catalogueVersion: 0 });
    expect(await objectTables(stub)).toBe(0);
  });

  it("answers a made-up cookie 401 whatever it asks, without telling which books a school has", async () => {
    const forged = `__Host-lectern_teacher=${schoolA.id}.${"A".repeat(43)}`;
    for (const path of [
      `${bookId}/pages/1`,
      `${bookId}/pages/99`,
      `${bookId}/pages/0`,
      `${bookId}/pages/1?w=99999`,
      "999999/pages/1",
      `${bookId}/pages/1/text`,
    ]) {
      // Raw: a width, which the route reads itself (not declared to Hono), among the paths.
      const response = await api(`/api/books/${path}`, { cookie: forged });
      expect(response.status, path).toBe(401);
    }
    // A real teacher of A on B's host: like a school that does not exist.
    const reader = await signedInTeacher(schoolA);
    // Raw: the typed client calls our own origin, not a school's host.
    const elsewhere = await api(`https://${schoolB.slug}.lectern.test/api/books/${bookId}/pages/1`, { cookie: reader.cookie });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: "School not found" });
  });
});

describe("moving the previous design's state into the objects", () => {
  it("keeps a teacher signed in with their D1 session, and their budget spent, on the object's first use", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Legacy Book", [school.id], TEXTS)).book.id;
    const { teachers } = await import("../../workers/db/schema.ts");
    const [teacher] = await db()
      .insert(teachers)
      .values({ schoolId: school.id, name: "Old Timer", email: "old@school.test", mobile: "5550000000", passwordHash: "x" })
      .returning();
    const token = "legacy-token-0123456789abcdefghijklmnopqrstu";
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO sessions (token_hash, kind, teacher_id, school_id, device, created_at, last_seen_at, expires_at) VALUES (?, 'teacher', ?, ?, 'Firefox on Linux', ?, ?, ?)",
      ).bind(await sha256Hex(token), teacher!.id, school.id, now - 60_000, now - 60_000, now + 86_400_000),
      env.DB.prepare("INSERT INTO rate_limits (key, count, window_start) VALUES (?, 7, ?)").bind(
        `pages:h:${teacher!.id}:${book}`,
        now - 60_000,
      ),
    ]);
    // The cookie from before: a bare token, no school id.
    const cookie = `__Host-lectern_teacher=${token}`;
    const me = await verifyToken(cookie);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ teacherName: "Old Timer" });
    expect((await pageOf(cookie, 1, book)).status).toBe(200);
    expect(await pagesSpent(school, teacher!.id, book)).toBe(8);
    expect((await objectSessions(school.id)).map((s) => s.device)).toEqual(["Firefox on Linux"]);
    // Sign-out ends it in the object, where it now lives.
    await client({ cookie }).api.teacher["sign-out"].$post();
    expect((await verifyToken(cookie)).status).toBe(401);
  });
});

import {
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  AUDIT_LOG_KEPT_DAYS,
  AUDIT_RETENTION_NOTE,
  DAY_MS,
  ENDED_SESSION_KEPT_DAYS,
  LEAK_TRACE_ACTION,
  LEAK_TRACE_KEPT_DAYS,
  SIGN_IN_REQUEST_KEPT_MS,
} from "#shared/rules/retention.ts";
import worker from "../../workers/app.ts";
import { teacherUsageKinds } from "../../workers/reports/housekeeping.ts";
import { CHUNK_ROWS, chunkOf, purgeExpired, purgeKinds } from "../../workers/retention/purge.ts";
import { ENDED_SESSION_KEPT_MS, FLUSH_INTERVAL_MS } from "../../workers/school-object/policy.ts";
import { client, createSchool, db, objectSessions, page, schoolStub, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

/** A tag no other test's rows carry, so each test counts only its own. */
const tag = () => crypto.randomUUID().slice(0, 8);

async function hourlyCron() {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ cron: "7 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** One row of each kind the purge removes, aged `age` ms past its period (negative: still inside it). */
async function rowsOfEveryKind(t: string, schoolId: number, now: number, age: number) {
  const at = (periodMs: number) => now - periodMs - age;
  const sessionEnd = at(ENDED_SESSION_KEPT_DAYS * DAY_MS);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO sessions (token_hash, kind, created_at, last_seen_at, expires_at) VALUES (?, 'admin', ?, ?, ?)").bind(
      `${t}-session`,
      sessionEnd - 9e6,
      sessionEnd - 9e6,
      sessionEnd,
    ),
    env.DB.prepare(
      "INSERT INTO otp_codes (school_id, email, purpose, code_hash, expires_at, attempts, used_at, created_at) VALUES (?, ?, 'register', 'h', ?, 1, ?, ?)",
    ).bind(schoolId, `${t}@school.test`, at(DAY_MS), at(DAY_MS) - 300_000, at(DAY_MS) - 600_000),
    env.DB.prepare(
      "INSERT INTO oidc_requests (state, school_id, provider, return_to, created_at) VALUES (?, ?, 'google', 'https://lectern.test', ?)",
    ).bind(`${t}-state`, schoolId, at(SIGN_IN_REQUEST_KEPT_MS)),
    env.DB.prepare("INSERT INTO rate_limits (key, count, window_start, blocked_until) VALUES (?, 3, ?, NULL)").bind(
      `${t}-counter`,
      at(DAY_MS),
    ),
    env.DB.prepare(
      "INSERT INTO audit_log (admin_email, action, entity_type, entity_id, at) VALUES ('admin@test', 'licence.update', 'licence', ?, ?)",
    ).bind(`${t}-audit`, at(AUDIT_LOG_KEPT_DAYS * DAY_MS)),
    env.DB.prepare("INSERT INTO audit_log (admin_email, action, entity_type, entity_id, at) VALUES ('admin@test', ?, 'leak', ?, ?)").bind(
      LEAK_TRACE_ACTION,
      `${t}-trace`,
      at(LEAK_TRACE_KEPT_DAYS * DAY_MS),
    ),
  ]);
}

/** Which of a tag's rows are still there, by kind. */
async function remaining(t: string) {
  const count = (query: string, ...values: unknown[]) =>
    env.DB.prepare(query)
      .bind(...values)
      .first<number>("n");
  return {
    sessions: await count("SELECT count(*) AS n FROM sessions WHERE token_hash LIKE ?", `${t}-%`),
    otp_codes: await count("SELECT count(*) AS n FROM otp_codes WHERE email LIKE ?", `${t}%`),
    oidc_requests: await count("SELECT count(*) AS n FROM oidc_requests WHERE state LIKE ?", `${t}-%`),
    rate_limits: await count("SELECT count(*) AS n FROM rate_limits WHERE key LIKE ?", `${t}-%`),
    audit_log: await count("SELECT count(*) AS n FROM audit_log WHERE entity_id LIKE ? AND action != ?", `${t}-%`, LEAK_TRACE_ACTION),
    leak_traces: await count("SELECT count(*) AS n FROM audit_log WHERE entity_id LIKE ? AND action = ?", `${t}-%`, LEAK_TRACE_ACTION),
  };
}

const every = (n: number) => ({ sessions: n, otp_codes: n, oidc_requests: n, rate_limits: n, audit_log: n, leak_traces: n });

describe("the hourly purge (docs/decisions/0045)", () => {
  it("removes every kind's rows once past their period and keeps those a minute inside it", async () => {
    const school = await createSchool();
    const [old, recent, now] = [tag(), tag(), Date.now()];
    await rowsOfEveryKind(old, school.id, now, 60_000);
    await rowsOfEveryKind(recent, school.id, now, -60_000);
    expect(await remaining(old)).toEqual(every(1));
    const removed = await purgeExpired(db(), now);
    expect(await remaining(old)).toEqual(every(0));
    expect(await remaining(recent)).toEqual(every(1));
    for (const kind of Object.keys(every(0))) expect(removed[kind]).toBeGreaterThanOrEqual(1);
  });

  it("runs from the Worker's hourly cron", async () => {
    const school = await createSchool();
    const [old, recent] = [tag(), tag()];
    await rowsOfEveryKind(old, school.id, Date.now(), 3600_000);
    await rowsOfEveryKind(recent, school.id, Date.now(), -3600_000);
    await hourlyCron();
    expect(await remaining(old)).toEqual(every(0));
    expect(await remaining(recent)).toEqual(every(1));
  });

  it("keeps a leak trace's entry a year and other audit entries two: an entry of 400 days stays unless it is a trace", async () => {
    const t = tag();
    const at = Date.now() - 400 * DAY_MS;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO audit_log (admin_email, action, entity_type, entity_id, at) VALUES ('a@test', ?, 'leak', ?, ?)").bind(
        LEAK_TRACE_ACTION,
        `${t}-trace`,
        at,
      ),
      env.DB.prepare(
        "INSERT INTO audit_log (admin_email, action, entity_type, entity_id, at) VALUES ('a@test', 'school.update', 'school', ?, ?)",
      ).bind(`${t}-school`, at),
    ]);
    await purgeExpired(db());
    expect(await remaining(t)).toMatchObject({ audit_log: 1, leak_traces: 0 });
  });

  it("keeps a throttle counter that still blocks, however old its window", async () => {
    const t = tag();
    const now = Date.now();
    await env.DB.prepare("INSERT INTO rate_limits (key, count, window_start, blocked_until) VALUES (?, 30, ?, ?), (?, 30, ?, ?)")
      .bind(`${t}-blocking`, now - 3 * DAY_MS, now + 600_000, `${t}-was-blocking`, now - 3 * DAY_MS, now - 1000)
      .run();
    await purgeExpired(db(), now);
    expect((await env.DB.prepare("SELECT key FROM rate_limits WHERE key LIKE ?").bind(`${t}-%`).all()).results).toEqual([
      { key: `${t}-blocking` },
    ]);
  });

  it("works off a backlog larger than one chunk in one run, a chunk per statement", async () => {
    const t = tag();
    const now = Date.now();
    const rows = CHUNK_ROWS * 2 + 500;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO rate_limits (key, count, window_start) SELECT ? || '-' || i, 1, ? FROM n`,
    )
      .bind(rows, t, now - 2 * DAY_MS)
      .run();
    const removed = await purgeExpired(db(), now);
    expect(removed.rate_limits).toBeGreaterThanOrEqual(rows);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM rate_limits WHERE key LIKE ?").bind(`${t}-%`).first("n")).toBe(0);
  });

  it("tells a superadmin on the audit log's page how long entries are kept", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const html = await (await page("/superadmin/dashboard", { cookie })).text();
    expect(AUDIT_RETENTION_NOTE).toBe(
      "Entries are kept 2 years, leak traces 1 year, and then removed: export what an invoice or a dispute needs before then.",
    );
    expect(html).toContain(AUDIT_RETENTION_NOTE);
  });

  it("finds each kind's chunk on an index, never by scanning the table (the reports' 400-day kinds too)", async () => {
    const { SQLiteSyncDialect } = await import("drizzle-orm/sqlite-core");
    const dialect = new SQLiteSyncDialect();
    for (const kind of [...purgeKinds(Date.now()), ...teacherUsageKinds(Date.now())]) {
      const query = dialect.sqlToQuery(chunkOf(kind));
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>();
      const details = plan.results.map((row) => row.detail).join("; ");
      expect(details, kind.name).toMatch(/^SEARCH \w+ USING (COVERING )?INDEX \w+ \(/);
      expect(details, kind.name).not.toMatch(/\bSCAN\b/);
    }
  });
});

describe("a school object tidies its own sessions on its alarm", () => {
  /** Adds a session row to the object as if opened long ago: `expiresAt` is its last possible end. */
  const agedSession = (stub: Awaited<ReturnType<typeof schoolStub>>, hash: string, teacherId: number, expiresAt: number) =>
    runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec(
        "INSERT INTO sessions (token_hash, teacher_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
        hash,
        teacherId,
        expiresAt - 14 * DAY_MS,
        expiresAt - 14 * DAY_MS,
        expiresAt,
      );
    });
  const alarmOf = (stub: Awaited<ReturnType<typeof schoolStub>>) =>
    runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());

  it("sets its alarm when a session opens, for when that session's row is due to go", async () => {
    const school = await createSchool();
    const before = Date.now();
    await signedInTeacher(school);
    const [session] = await objectSessions(school.id);
    expect(await alarmOf(await schoolStub(school.id))).toBe(session!.expires_at + ENDED_SESSION_KEPT_MS);
    expect(session!.expires_at + ENDED_SESSION_KEPT_MS).toBeGreaterThan(before + 27 * DAY_MS);
  });

  it("removes the rows past their period when its alarm rings, keeps the others, and comes back for the next", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    const now = Date.now();
    await agedSession(stub, "long-ended", reader.teacher.id, now - ENDED_SESSION_KEPT_MS - 60_000);
    await agedSession(stub, "ended-lately", reader.teacher.id, now - ENDED_SESSION_KEPT_MS + 3600_000);
    // The alarm the sign-in set is a month away; a tidy due now rings it now.
    await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(now));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = (await objectSessions(school.id)).map((s) => s.token_hash);
    expect(left).not.toContain("long-ended");
    expect(left).toContain("ended-lately");
    expect(left).toHaveLength(2);
    // The next ring: when "ended-lately" is due to go.
    expect(await alarmOf(stub)).toBe(now + 3600_000);
  });

  it("an object started before this rule, holding sessions and no alarm, sets one when it starts", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    const due = Date.now() - ENDED_SESSION_KEPT_MS - 60_000;
    await agedSession(stub, "from-before", reader.teacher.id, due);
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.deleteAlarm();
      // Written through before the restart, so the restart does not break the pending write.
      await state.storage.sync();
    });
    await runInDurableObject(stub, (_instance, state) => state.abort("restart")).catch(() => {});
    // The restarted object, reached through a new stub as the next request would.
    const restarted = await schoolStub(school.id);
    expect(await alarmOf(restarted)).toBeLessThanOrEqual(Date.now());
    expect(await runDurableObjectAlarm(restarted)).toBe(true);
    expect((await objectSessions(school.id)).map((s) => s.token_hash)).not.toContain("from-before");
  });

  it("a flush still comes within five minutes of a page read when the tidy alarm is weeks away", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Tidy Book", [school.id], ["One.", "Two."])).book.id;
    const reader = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    expect(await alarmOf(stub)).toBeGreaterThan(Date.now() + 7 * DAY_MS);
    const read = await client({ cookie: reader.cookie }).api.books[":id"].pages[":n"].$get({ param: { id: String(book), n: "1" } });
    expect(read.status).toBe(200);
    const alarm = await alarmOf(stub);
    expect(alarm).toBeGreaterThan(Date.now());
    expect(alarm).toBeLessThanOrEqual(Date.now() + FLUSH_INTERVAL_MS);
  });
});

import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { csvCell } from "#shared/csv.ts";
import { dayOf } from "#shared/rules/licence.ts";
import worker from "../../workers/app.ts";
import { loginEvents, schools, teachers } from "../../workers/db/schema.ts";
import { readingDaily, schoolUsageDaily, usageDaily } from "../../workers/db/usage-schema.ts";
import { recordReadingEvent } from "../../workers/reading/usage-events.ts";
import { TEACHER_DATA_RETENTION_DAYS } from "../../workers/reports/housekeeping.ts";
import { LIVE_RANKING_ROWS, overviewRankings, RANKING_MAX_AGE_MS, refreshRankings } from "../../workers/reports/rankings.ts";
import { READING_GAP_CAP_MS } from "../../workers/school-object/policy.ts";
import { today } from "./fixtures-suite.ts";
import { api, client, createSchool, db, errorOf, flushUsage, jsonOf, page, schoolStub, signedInTeacher } from "./helpers.ts";
import { preparedBook, twoSchoolsReading } from "./page-fixtures.ts";

const TEXTS = ["First page.", "Second page.", "Third page."];

let { schoolA, schoolB, bookId, admin } = {} as Awaited<ReturnType<typeof twoSchoolsReading>>;

beforeAll(async () => {
  ({ schoolA, schoolB, bookId, admin } = await twoSchoolsReading(["Alder Primary", "Birch College"], "Counting Stars", TEXTS));
});

async function schoolDay(schoolId: number, day = today()) {
  const [row] = await db()
    .select()
    .from(schoolUsageDaily)
    .where(and(eq(schoolUsageDaily.schoolId, schoolId), eq(schoolUsageDaily.day, day)));
  return row ?? { activeTeachers: 0, booksOpened: 0, pages: 0, seconds: 0 };
}
async function allDay(day = today()) {
  const [row] = await db().select().from(usageDaily).where(eq(usageDaily.day, day));
  return row ?? { activeTeachers: 0, booksOpened: 0, pages: 0, seconds: 0 };
}
const flushBoth = async () => {
  await flushUsage(schoolA.id);
  await flushUsage(schoolB.id);
};
const teacherRows = (teacherId: number) => db().select().from(readingDaily).where(eq(readingDaily.teacherId, teacherId));

describe("usage events counted by the server", () => {
  it("moves the day, school, book and teacher by exactly the pages served, and another school's teacher only theirs", async () => {
    const reader = await signedInTeacher(schoolA, "Ada Reader");
    const other = await signedInTeacher(schoolB, "Ben Other");
    const [beforeA, beforeB, beforeAll] = [await schoolDay(schoolA.id), await schoolDay(schoolB.id), await allDay()];

    const id = String(bookId);
    const asReader = client(reader).api.books[":id"];
    expect((await asReader.pages.$get({ param: { id } })).status).toBe(200);
    for (const n of [1, 2, 3]) expect((await asReader.pages[":n"].$get({ param: { id, n: String(n) } })).status).toBe(200);
    // Texts and searches spend the budget but are not pages read.
    expect((await asReader.pages[":n"].text.$get({ param: { id, n: "1" } })).status).toBe(200);
    // The schools' objects count; D1 has it once they flush (the alarm's flush, here on demand).
    expect(await schoolDay(schoolA.id)).toEqual(beforeA);
    await flushBoth();

    const [afterA, afterB] = [await schoolDay(schoolA.id), await schoolDay(schoolB.id)];
    expect(afterA.pages - beforeA.pages).toBe(3);
    expect(afterA.booksOpened - beforeA.booksOpened).toBe(1);
    expect(afterA.activeTeachers - beforeA.activeTeachers).toBe(1);
    expect(afterB).toEqual(beforeB);
    expect(await teacherRows(reader.teacher.id)).toEqual([
      expect.objectContaining({ day: today(), schoolId: schoolA.id, bookId, teacherId: reader.teacher.id, pages: 3 }),
    ]);

    const asOther = client(other).api.books[":id"].pages[":n"];
    for (const n of [2, 3]) expect((await asOther.$get({ param: { id, n: String(n) } })).status).toBe(200);
    await flushBoth();
    const [finalA, finalB, finalAll] = [await schoolDay(schoolA.id), await schoolDay(schoolB.id), await allDay()];
    expect(finalA).toEqual(afterA);
    expect(finalB.pages - beforeB.pages).toBe(2);
    expect(finalB.activeTeachers - beforeB.activeTeachers).toBe(1);
    expect(finalAll.pages - beforeAll.pages).toBe(5);
    expect(finalAll.activeTeachers - beforeAll.activeTeachers).toBe(2);
    expect(finalAll.booksOpened - beforeAll.booksOpened).toBe(2);
    expect(await teacherRows(other.teacher.id)).toEqual([expect.objectContaining({ schoolId: schoolB.id, pages: 2 })]);
    const [teacherRow] = await db().select({ day: teachers.lastActiveDay }).from(teachers).where(eq(teachers.id, other.teacher.id));
    const [schoolRow] = await db().select({ day: schools.lastActiveDay }).from(schools).where(eq(schools.id, schoolB.id));
    expect([teacherRow?.day, schoolRow?.day]).toEqual([today(), today()]);
  });

  it("does not count an admin's reading", async () => {
    const before = await allDay();
    expect((await client(admin).api.books[":id"].pages[":n"].$get({ param: { id: String(bookId), n: "1" } })).status).toBe(200);
    expect(await allDay()).toEqual(before);
  });

  it("times reading from the gaps between a teacher's events, capped, and once across two open books", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const second = (await preparedBook("Second Book", [school.id], TEXTS)).book.id;
    // Counted by the school's object, as the page route counts them; then flushed.
    const object = await schoolStub(school.id);
    const record = (book: number, pages: 0 | 1, now: number) =>
      object.record(school.id, { bookId: book, teacherId: reader.teacher.id, pages, now });
    const start = Date.parse("2026-03-02T09:00:00Z");
    await record(bookId, 0, start); // opened: no time yet
    await record(bookId, 1, start + 40_000); // +40 s
    await record(second, 1, start + 100_000); // +60 s, in the other book
    await record(bookId, 1, start + 130_000); // +30 s
    await record(bookId, 1, start + 130_000 + 3 * 3600_000); // a 3-hour gap counts 5 minutes
    await flushUsage(school.id);
    const rows = await teacherRows(reader.teacher.id);
    const seconds = (book: number) => rows.find((row) => row.bookId === book)?.seconds;
    expect(seconds(bookId)).toBe(40 + 30 + READING_GAP_CAP_MS / 1000);
    expect(seconds(second)).toBe(60);
    const day = await schoolDay(school.id, "2026-03-02");
    expect(day).toMatchObject({ activeTeachers: 1, booksOpened: 2, pages: 4, seconds: 40 + 60 + 30 + 300 });
  });

  it("counts the reader's progress pings as reading time, not pages", async () => {
    const school = await createSchool();
    const book = (await preparedBook("Ping Book", [school.id], TEXTS)).book.id;
    const reader = await signedInTeacher(school);
    const put = (page: number) =>
      client(reader).api["reading-progress"][":bookId"].$put({ param: { bookId: String(book) }, json: { page } });
    expect((await put(1)).status).toBe(204);
    expect((await put(1)).status).toBe(204);
    await flushUsage(school.id);
    const [row] = await teacherRows(reader.teacher.id);
    expect(row).toMatchObject({ pages: 0, bookId: book });
    expect(row?.lastAt).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("GET /api/reports/usage", () => {
  let school: Awaited<ReturnType<typeof createSchool>>;
  let teacherIds: number[];
  beforeAll(async () => {
    school = await createSchool({ name: "Cedar Report School" });
    teacherIds = [(await signedInTeacher(school, "T One")).teacher.id, (await signedInTeacher(school, "T Two")).teacher.id];
    const at = (day: string, minutes: number) => Date.parse(`${day}T10:00:00Z`) + minutes * 60_000;
    const read = (teacherId: number, day: string, minutes: number, pages: 0 | 1) =>
      recordReadingEvent(db(), { schoolId: school.id, bookId, teacherId, pages }, at(day, minutes));
    // 2025-01-10: teacher one reads 3 pages over 4 minutes; 2025-01-12: both read.
    for (const [minute, pages] of [
      [0, 0],
      [1, 1],
      [3, 1],
      [4, 1],
    ] as const)
      await read(teacherIds[0]!, "2025-01-10", minute, pages);
    for (const [minute, pages] of [
      [0, 1],
      [2, 1],
    ] as const)
      await read(teacherIds[0]!, "2025-01-12", minute, pages);
    for (const [minute, pages] of [
      [0, 1],
      [10, 1],
    ] as const)
      await read(teacherIds[1]!, "2025-01-12", minute, pages);
  });

  const url = (query: string) => `/api/reports/usage?${query}`;
  const reports = () => client(admin).api.reports;
  // The reports build their JSON per report (typed `object` on the server), so hc cannot describe it: read by schemas.
  const UsageReport = z.object({ days: z.array(z.unknown()), totals: z.unknown() });
  const TeachersReport = z.object({
    teachers: z.array(z.object({ name: z.string(), pagesRead: z.number(), readingMinutes: z.number(), booksOpened: z.number() })),
  });
  const BooksReport = z.object({ books: z.array(z.object({ id: z.number(), pagesRead: z.number(), readers: z.number() })) });
  const SchoolsReport = z.object({ schools: z.array(z.object({ id: z.number(), pagesRead: z.number() })) });

  it("gives an admin every day of the range and the totals", async () => {
    const response = await reports().usage.$get({ query: { from: "2025-01-09", to: "2025-01-12", schoolId: String(school.id) } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const report = await jsonOf(response, UsageReport);
    expect(report.days).toEqual([
      { date: "2025-01-09", activeTeachers: 0, booksOpened: 0, pagesRead: 0, readingMinutes: 0 },
      { date: "2025-01-10", activeTeachers: 1, booksOpened: 1, pagesRead: 3, readingMinutes: 4 },
      { date: "2025-01-11", activeTeachers: 0, booksOpened: 0, pagesRead: 0, readingMinutes: 0 },
      { date: "2025-01-12", activeTeachers: 2, booksOpened: 2, pagesRead: 4, readingMinutes: 7 },
    ]);
    expect(report.totals).toEqual({ activeTeachers: 2, booksOpened: 3, pagesRead: 7, readingMinutes: 11 });
    const oneDay = await jsonOf(
      reports().usage.$get({ query: { from: "2025-01-12", to: "2025-01-12", schoolId: String(school.id), bookId: String(bookId) } }),
      UsageReport,
    );
    expect(oneDay.totals).toEqual({ activeTeachers: 2, booksOpened: 2, pagesRead: 4, readingMinutes: 7 });
  });

  it("includes the school's figures in all schools' and answers the same as CSV", async () => {
    const all = await jsonOf(
      reports().usage.$get({ query: { from: "2025-01-10", to: "2025-01-10" } }),
      z.object({ totals: z.object({ pagesRead: z.number() }) }),
    );
    expect(all.totals.pagesRead).toBeGreaterThanOrEqual(3);
    const csv = await reports().usage.$get({ query: { from: "2025-01-10", to: "2025-01-11", schoolId: String(school.id), format: "csv" } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toBe(
      `attachment; filename="lectern-usage-school-${school.id}-2025-01-10-to-2025-01-11.csv"`,
    );
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes)).toBe(
      "\uFEFFdate,activeTeachers,booksOpened,pagesRead,readingMinutes\r\n2025-01-10,1,1,3,4\r\n2025-01-11,0,0,0,0\r\n",
    );
  });

  it("answers 401 without an admin session, a teacher's included", async () => {
    const query = { from: "2025-01-01", to: "2025-01-31" };
    expect((await client().api.reports.usage.$get({ query })).status).toBe(401);
    const teacher = await signedInTeacher(school);
    expect((await client(teacher).api.reports.usage.$get({ query })).status).toBe(401);
    const teachers = await client(teacher).api.reports.teachers.$get({ query: { ...query, schoolId: String(school.id) } });
    expect(teachers.status).toBe(401);
  });

  it("answers 400 for a malformed, impossible, reversed or too long range, and 404 for an unknown school or book", async () => {
    const cases: Array<[string, RegExp]> = [
      ["", /from=YYYY-MM-DD/],
      ["from=2025-01-01", /from=YYYY-MM-DD/],
      ["from=2025-1-1&to=2025-01-31", /YYYY-MM-DD/],
      ["from=2025-02-30&to=2025-03-01", /real days/],
      ["from=2025-01-01&to=2025-13-01", /real days/],
      ["from=2025-01-01T00:00&to=2025-01-31", /YYYY-MM-DD/],
      ["from=2025-02-01&to=2025-01-31", /ends before it starts/],
      ["from=2024-01-01&to=2025-01-01", /at most 366 days/],
      ["from=2025-01-01&to=2025-01-31&schoolId=abc", /school id/],
      ["from=2025-01-01&to=2025-01-31&format=xlsx", /json or csv/],
    ];
    for (const [query, message] of cases) {
      // Raw: malformed queries, which the typed client would not send.
      const response = await api(url(query), { cookie: admin.cookie });
      expect(response.status, query).toBe(400);
      expect(await errorOf(response), query).toMatch(message);
    }
    // 366 days is allowed (a leap year).
    expect((await reports().usage.$get({ query: { from: "2024-01-01", to: "2024-12-31" } })).status).toBe(200);
    const january = { from: "2025-01-01", to: "2025-01-31" };
    expect((await reports().usage.$get({ query: { ...january, schoolId: "999999" } })).status).toBe(404);
    expect((await reports().usage.$get({ query: { ...january, bookId: "999999" } })).status).toBe(404);
  });

  it("exports the school's teachers, its books and the book's schools and stop pages", async () => {
    const range = { from: "2025-01-09", to: "2025-01-12" };
    const teachersReport = await jsonOf(reports().teachers.$get({ query: { ...range, schoolId: String(school.id) } }), TeachersReport);
    expect(teachersReport.teachers.map((t) => [t.name, t.pagesRead, t.readingMinutes, t.booksOpened])).toEqual([
      ["T One", 5, 6, 2],
      ["T Two", 2, 5, 1],
      ["Test Teacher", 0, 0, 0], // signed up in the 401 case, never read: listed with nothing
    ]);
    const books = await jsonOf(reports().books.$get({ query: { ...range, schoolId: String(school.id) } }), BooksReport);
    expect(books.books).toEqual([expect.objectContaining({ id: bookId, pagesRead: 7, readers: 2 })]);
    const readingSchools = await jsonOf(reports().schools.$get({ query: { ...range, bookId: String(bookId) } }), SchoolsReport);
    expect(readingSchools.schools).toContainEqual(expect.objectContaining({ id: school.id, pagesRead: 7 }));
    expect((await reports().teachers.$get({ query: range })).status).toBe(400);
    expect((await reports()["stop-pages"].$get({ query: range })).status).toBe(400);
    const stops = await reports()["stop-pages"].$get({ query: { from: today(), to: today(), bookId: String(bookId), format: "csv" } });
    expect(stops.status).toBe(200);
    expect((await stops.text()).split("\r\n")[0]).toBe("fromPage,toPage,readers");
  });

  it("escapes cells a spreadsheet would run as formulas", async () => {
    expect(["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "plain", 'say "hi", ok'].map(csvCell)).toEqual([
      "'=1+1",
      "'+SUM(A1)",
      "'-2+3",
      "'@cmd",
      "'\tx",
      "plain",
      '"say ""hi"", ok"',
    ]);
    expect(csvCell(-3)).toBe("-3");
    const evil = await createSchool({ name: "Evil School" });
    await signedInTeacher(evil, '=HYPERLINK("http://evil.example","x")');
    const query = { from: "2025-01-01", to: "2025-01-02", schoolId: String(evil.id), format: "csv" } as const;
    const csv = await (await client(admin).api.reports.teachers.$get({ query })).text();
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

describe("GET /api/reports/inactive-schools", () => {
  it("lists schools with no reading in 30 days, but not schools added this month", async () => {
    const quiet = await createSchool({ name: "Quiet School", createdAt: Date.now() - 90 * 86_400_000 });
    const fresh = await createSchool({ name: "Fresh School" });
    const response = await client(admin).api.reports["inactive-schools"].$get({ query: {} });
    expect(response.status).toBe(200);
    // JSON or CSV by `format`, so hc cannot type the answer: read by a schema.
    const body = await jsonOf(
      response,
      z.object({ count: z.number(), schools: z.array(z.object({ id: z.number(), lastActiveDay: z.string().nullable() })) }),
    );
    const ids = body.schools.map((s) => s.id);
    expect(ids).toContain(quiet.id);
    expect(ids).not.toContain(fresh.id);
    expect(ids).not.toContain(schoolA.id);
    expect(body.count).toBe(body.schools.length);
  });
});

describe("rankings, retention and the hourly job", () => {
  it("stores the rankings the overview reads at scale, and says when they are stale", async () => {
    const now = Date.now();
    await refreshRankings(db(), now);
    const stored = await overviewRankings(db(), 30, LIVE_RANKING_ROWS + 1, now);
    expect(stored.computedAt).toBe(now);
    expect(stored.stale).toBe(false);
    const live = await overviewRankings(db(), 30, 0, now);
    expect(live.computedAt).toBeNull();
    expect(stored.books).toEqual(live.books);
    expect(stored.schools).toEqual(live.schools);
    expect((await overviewRankings(db(), 30, LIVE_RANKING_ROWS + 1, now + RANKING_MAX_AGE_MS + 1)).stale).toBe(true);
  });

  it("deletes what names a teacher after 400 days and keeps the school's anonymous days", async () => {
    const school = await createSchool();
    const reader = await signedInTeacher(school);
    const old = Date.now() - (TEACHER_DATA_RETENTION_DAYS + 2) * 86_400_000;
    await recordReadingEvent(db(), { schoolId: school.id, bookId, teacherId: reader.teacher.id, pages: 1 }, old);
    await recordReadingEvent(db(), { schoolId: school.id, bookId, teacherId: reader.teacher.id, pages: 1 });
    await db().insert(loginEvents).values({ kind: "teacher", schoolId: school.id, teacherId: reader.teacher.id, at: old });
    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await teacherRows(reader.teacher.id)).map((row) => row.day)).toEqual([today()]);
    expect(await db().select().from(loginEvents).where(eq(loginEvents.teacherId, reader.teacher.id))).toEqual([]);
    expect((await schoolDay(school.id, dayOf(old))).pages).toBe(1);
  });
});

describe("the console's report pages", () => {
  it("puts the usage overview on /admin only, with the chart drawn in the first HTML", async () => {
    const home = await page("/admin?range=7", { cookie: admin.cookie });
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('id="usage-heading"');
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Pages read per day for all schools/);
    expect(html).toMatch(/<rect[^>]*class="visx-bar/);
    expect(html).toContain('aria-current="page" class="');
    const list = await (await page("/admin/all-schools", { cookie: admin.cookie })).text();
    expect(list).not.toContain('id="usage-heading"');
    expect((await page("/admin?range=nonsense", { cookie: admin.cookie })).status).toBe(200);
    // A client-side change of range asks for the data alone: the overview comes with it.
    const data = await page("/admin.data?range=90", { cookie: admin.cookie });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain("rankings");
  });

  it("shows a school's usage with its teachers, and a book's schools and stop pages", async () => {
    const school = await (await page(`/admin/school/${schoolA.id}?range=30`, { cookie: admin.cookie })).text();
    expect(school).toContain("Reading by teacher");
    expect(school).toContain("Ada Reader");
    expect(school).toContain("Logins per day");
    const book = await (await page(`/admin/book/${bookId}`, { cookie: admin.cookie })).text();
    expect(book).toContain("Schools reading it");
    expect(book).toContain("Where readers stop");
    expect(book).toContain("Alder Primary");
  });
});

describe("the rules hold against scripts", () => {
  const headersAScriptForges = {
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "navigate",
    "X-Forwarded-For": "10.0.0.1",
    "X-Requested-With": "XMLHttpRequest",
    Referer: "https://lectern.test/admin",
  };

  it("keeps the reports from teachers and anonymous scripts whatever headers they send, and from an admin cookie on a school's host", async () => {
    const teacher = await signedInTeacher(schoolA);
    const query = `/api/reports/teachers?from=2025-01-01&to=2025-01-31&schoolId=${schoolA.id}&format=csv`;
    const typed = { from: "2025-01-01", to: "2025-01-31", schoolId: String(schoolA.id), format: "csv" } as const;
    for (const cookie of [undefined, teacher.cookie, `${teacher.cookie}; lectern_admin=forged-token`]) {
      const response = await client({ cookie }).api.reports.teachers.$get({ query: typed }, { headers: headersAScriptForges });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain("@");
    }
    // A school's own host never carries an admin session (decision 14).
    // Raw: the typed client calls our own origin, not a school's host.
    const onSchoolHost = await api(`https://${schoolA.slug}.lectern.test${query}`, { cookie: admin.cookie });
    expect(onSchoolHost.status).toBe(401);
  });

  it("counts a teacher's events only for their own school's books", async () => {
    const outsider = await signedInTeacher(schoolB);
    const otherBook = (await preparedBook("Alder Only", [schoolA.id], TEXTS)).book.id;
    const put = await client(outsider).api["reading-progress"][":bookId"].$put({ param: { bookId: String(otherBook) }, json: { page: 1 } });
    expect(put.status).toBe(404);
    const book = client(outsider).api.books[":id"];
    const param = { id: String(otherBook) };
    const options = { headers: headersAScriptForges };
    expect((await book.pages.$get({ param }, options)).status).toBe(404);
    expect((await book.pages[":n"].$get({ param: { ...param, n: "1" } }, options)).status).toBe(404);
    expect(await teacherRows(outsider.teacher.id)).toEqual([]);
    const [row] = await db().select().from(readingDaily).where(eq(readingDaily.bookId, otherBook));
    expect(row).toBeUndefined();
  });
});

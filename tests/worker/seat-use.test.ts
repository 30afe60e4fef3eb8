import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addDays } from "#shared/rules/licence.ts";
import { readingDaily, seatDaily } from "../../workers/db/usage-schema.ts";
import { licenceSeatUse } from "../../workers/licences/seat-use.ts";
import { flushStatement, seatDayStatement } from "../../workers/school-object/usage-flush.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import {
  client,
  createBook,
  createSchool,
  db,
  flushUsage,
  jsonOf,
  licenceOf,
  objectSessions,
  page,
  schoolStub,
  signedInTeacher,
} from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const admin = adminForTheFile();

const seatRows = (schoolId: number) => db().select().from(seatDaily).where(eq(seatDaily.schoolId, schoolId)).orderBy(seatDaily.day);

// The reports build their JSON per report (typed `object` on the server), so hc cannot describe it: read by a schema.
const SeatReport = z.object({
  from: z.string(),
  to: z.string(),
  licences: z.array(
    z.object({
      licenceId: z.number(),
      bookId: z.number(),
      seats: z.number().nullable(),
      peakReaders: z.number(),
      daysFull: z.number(),
      daysTurnedAway: z.number(),
      turnedAway: z.number(),
    }),
  ),
  days: z.array(z.object({ day: z.string(), licenceId: z.number(), peakReaders: z.number(), turnedAway: z.number() })),
});

/** A school with a `seats`-seat licence of a one-page book, and `n` teachers signed in. */
async function seatedSchool(seats: number | null, n: number) {
  const school = await createSchool({ teacherLimit: n + 5 });
  const { book } = await preparedBook(`Seat Report ${crypto.randomUUID()}`, [], ["One."]);
  const made = await client(admin).api.licences.$post({ json: { schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats } });
  expect(made.status).toBe(201);
  const teachers = [];
  for (let i = 0; i < n; i++) teachers.push(await signedInTeacher(school, `Reader ${i}`));
  const read = (teacher: { cookie: string }) =>
    client(teacher).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } });
  return { school, book, teachers, read };
}

describe("seat reports", () => {
  it("count the day's peak readers and each teacher turned away once, flushed to D1 and shown per licence", async () => {
    const { school, book, teachers, read } = await seatedSchool(2, 4);
    const [a, b, c, d] = teachers as [(typeof teachers)[0], (typeof teachers)[0], (typeof teachers)[0], (typeof teachers)[0]];
    expect((await read(a)).status).toBe(200);
    expect((await read(b)).status).toBe(200);
    // C asks three times (the reader retries by itself), D once: two teachers turned away, not four.
    for (let i = 0; i < 3; i++) expect((await read(c)).status).toBe(409);
    expect((await read(d)).status).toBe(409);
    await flushUsage(school.id);
    expect(await seatRows(school.id)).toMatchObject([{ bookId: book.id, day: today(), peakReaders: 2, turnedAway: 2 }]);

    const seats = client(admin).api.reports.seats;
    const report = await seats.$get({ query: { schoolId: String(school.id), from: addDays(today(), -6), to: today() } });
    expect(report.status).toBe(200);
    const body = await jsonOf(report, SeatReport);
    const { id } = (await licenceOf(school.id, book.id))!;
    expect(body.licences).toEqual([
      expect.objectContaining({ licenceId: id, seats: 2, peakReaders: 2, daysFull: 1, daysTurnedAway: 1, turnedAway: 2 }),
    ]);
    expect(body.days).toEqual([expect.objectContaining({ day: today(), licenceId: id, peakReaders: 2, turnedAway: 2 })]);

    const csv = await seats.$get({ query: { schoolId: String(school.id), from: today(), to: today(), format: "csv" } });
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("date,licenceId,schoolId,school,bookId,title,seats,peakReaders,turnedAway");
    expect(lines[1]).toBe(`${today()},${id},${school.id},${school.name},${book.id},${book.title},2,2,2`);

    // The school's page, the book's page and the Licences page say so; the licences' CSV carries the figures.
    const schoolPage = await (await page(`/admin/school/${school.id}`, { cookie: admin.cookie })).text();
    expect(schoolPage).toContain("Licences and seats");
    expect(schoolPage).toContain("1 day (2 teachers)");
    expect(schoolPage).toContain("2 of 2");
    const bookPage = await (await page(`/admin/book/${book.id}`, { cookie: admin.cookie })).text();
    expect(bookPage).toContain("1 licence(s) turned teachers away");
    const licencesPage = await (await page(`/admin/licences?schoolId=${school.id}`, { cookie: admin.cookie })).text();
    expect(licencesPage).toContain("Turned away: 1 day (2 teachers)");
    const exported = await (await client(admin).api.licences.export.$get({ query: { schoolId: String(school.id) } })).text();
    const [header, row] = exported
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(header).toContain("peakReaders30Days,daysTurnedAway30Days,turnedAway30Days");
    expect(row).toMatch(/,2,1,2$/);
  });

  it("keep the higher figure when a day is sent twice or out of order, and drop a day for a deleted book", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Resent ${crypto.randomUUID()}` }, [school.id]);
    const day = today();
    await db().run(seatDayStatement(school.id, [{ day, bookId: book.id, peak: 3, turnedAway: 1 }]));
    await db().run(seatDayStatement(school.id, [{ day, bookId: book.id, peak: 3, turnedAway: 1 }]));
    await db().run(seatDayStatement(school.id, [{ day, bookId: book.id, peak: 2, turnedAway: 0 }]));
    expect(await seatRows(school.id)).toMatchObject([{ day, peakReaders: 3, turnedAway: 1 }]);
    await db().run(seatDayStatement(school.id, [{ day, bookId: book.id, peak: 4, turnedAway: 2 }]));
    expect(await seatRows(school.id)).toMatchObject([{ day, peakReaders: 4, turnedAway: 2 }]);
    // A book deleted meanwhile: the flush goes through and writes nothing for it.
    await db().run(seatDayStatement(school.id, [{ day, bookId: 999_999_999, peak: 1, turnedAway: 0 }]));
    expect(await seatRows(school.id)).toHaveLength(1);
  });

  it("ride in the usage flush's one statement (issue 41: a second statement doubled D1's writes per page view)", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school, "Flushed Reader");
    const book = await createBook({ title: `One Statement ${crypto.randomUUID()}` }, [school.id]);
    const day = today();
    const usage = { day, bookId: book.id, teacherId: teacher.id, pages: 3, seconds: 60, lastAt: Date.now(), newTeacher: 1, newBook: 1 };
    await db().run(flushStatement(school.id, 1, [usage], [], [{ day, bookId: book.id, peak: 2, turnedAway: 1 }]));
    const reading = () => db().select().from(readingDaily).where(eq(readingDaily.schoolId, school.id));
    expect(await reading()).toMatchObject([{ bookId: book.id, teacherId: teacher.id, pages: 3 }]);
    expect(await seatRows(school.id)).toMatchObject([{ day, bookId: book.id, peakReaders: 2, turnedAway: 1 }]);
    // The same batch again (its answer was lost) with a figure that rose meanwhile: the usage is not
    // counted twice, the figure still rises.
    await db().run(flushStatement(school.id, 1, [usage], [], [{ day, bookId: book.id, peak: 3, turnedAway: 1 }]));
    expect(await reading()).toMatchObject([{ pages: 3 }]);
    expect(await seatRows(school.id)).toMatchObject([{ peakReaders: 3, turnedAway: 1 }]);
  });

  it("count only the days inside the licence's period and the range", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Period ${crypto.randomUUID()}` });
    const t = today();
    await client(admin).api.licences.$post({
      json: { schoolId: school.id, bookId: book.id, startsOn: addDays(t, -5), endsOn: addDays(t, -1), seats: 1 },
    });
    const days = [-8, -5, -3, -1, 0].map((offset) => ({ day: addDays(t, offset), bookId: book.id, peak: 1, turnedAway: 1 }));
    await db().run(seatDayStatement(school.id, days));
    const [use] = await licenceSeatUse(db(), { schoolId: school.id }, { from: addDays(t, -29), to: t });
    // -8 is before it began and today after it ended: three days are the licence's.
    expect(use).toMatchObject({ peakReaders: 1, daysFull: 3, daysTurnedAway: 3, turnedAway: 3 });
    const [narrow] = await licenceSeatUse(db(), { schoolId: school.id }, { from: addDays(t, -2), to: t });
    expect(narrow).toMatchObject({ daysTurnedAway: 1 });
  });

  it("an unlimited licence shows how many read at once, and the peak falls with readers who left ten minutes before", async () => {
    const { school, book, teachers, read } = await seatedSchool(null, 3);
    for (const teacher of teachers) expect((await read(teacher)).status).toBe(200);
    await flushUsage(school.id);
    const [use] = await licenceSeatUse(db(), { schoolId: school.id }, { from: today(), to: today() });
    expect(use).toMatchObject({ bookId: book.id, seats: null, peakReaders: 3, daysFull: 0, daysTurnedAway: 0 });
    // Tomorrow, one teacher reads an hour after the others: the day's peak is 1.
    const stub = await schoolStub(school.id);
    const tomorrow = Date.parse(`${addDays(today(), 1)}T09:00:00Z`);
    const sessions = await objectSessions(school.id);
    for (const [i, session] of sessions.slice(0, 2).entries()) {
      const input = { tokenHash: session.token_hash, bookId: book.id, pageCount: 1, countsAsRead: true, seats: null };
      expect((await stub.readPage(school.id, { ...input, now: tomorrow + i * 3600_000 })).ok).toBe(true);
    }
    await flushUsage(school.id);
    expect((await seatRows(school.id)).map((row) => [row.day, row.peakReaders])).toEqual([
      [today(), 3],
      [addDays(today(), 1), 1],
    ]);
  });

  it("are for admins only", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const query = { schoolId: String(school.id), from: today(), to: today() };
    expect((await client(teacher).api.reports.seats.$get({ query })).status).toBe(401);
    expect((await client().api.reports.seats.$get({ query })).status).toBe(401);
    expect((await client(admin).api.reports.seats.$get({ query: { ...query, schoolId: "999999999" } })).status).toBe(404);
  });
});

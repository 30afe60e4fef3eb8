import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addDays, formatDay, schoolYearOf } from "#shared/rules/licence.ts";
import { OFFLINE_DAYS_RULE } from "#shared/rules/offline.ts";
import { auditLog, licenceReminders } from "../../workers/db/schema.ts";
import { readConfig } from "../../workers/kernel/config.ts";
import { sendLicenceReminders } from "../../workers/licences/reminders.ts";
import { SEAT_HOLD_MS } from "../../workers/school-object/policy.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import {
  api,
  client,
  createBook,
  createSchool,
  db,
  errorBody,
  errorOf,
  jsonOf,
  licenceOf,
  objectSessions,
  okBody,
  page,
  schoolStub,
  signedInTeacher,
} from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const admin = adminForTheFile();

/** The admin's typed client for /api/licences. */
const licencesApi = () => client({ cookie: admin.cookie }).api.licences;
type CreateBody = InferRequestType<ReturnType<typeof licencesApi>["$post"]>["json"];
type PatchBody = InferRequestType<ReturnType<typeof licencesApi>[":id"]["$patch"]>["json"];
const licences = (json: CreateBody) => licencesApi().$post({ json });
const licence = (id: number | string, json: PatchBody) => licencesApi()[":id"].$patch({ param: { id: String(id) }, json });
const removeLicence = (id: number | string) => licencesApi()[":id"].$delete({ param: { id: String(id) } });
/** POST /api/books/access (a licence made by the old call), typed. */
const grantAccess = (json: InferRequestType<ReturnType<typeof client>["api"]["books"]["access"]["$post"]>["json"]) =>
  client({ cookie: admin.cookie }).api.books.access.$post({ json });

describe("an assignment is a licence", () => {
  it("made by the old /api/books/access call: open-ended, unlimited, active from today", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Old Way ${crypto.randomUUID()}` });
    const granted = await grantAccess({ schoolIds: [school.id], bookIds: [book.id] });
    expect(granted.status).toBe(200);
    expect(await licenceOf(school.id, book.id)).toMatchObject({ startsOn: today(), endsOn: null, seats: null, note: "" });
    const listed = await okBody(client({ cookie: admin.cookie }).api.licences.$get({ query: { schoolId: String(school.id) } }));
    expect(listed.licences).toMatchObject([{ schoolId: school.id, bookId: book.id, state: "active", endsOn: null, seats: null }]);
  });
});

describe("POST /api/licences", () => {
  it("creates a licence with its period, seats and note, audited; a second for the same pair is 409", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Sold ${crypto.randomUUID()}` });
    const year = schoolYearOf(today());
    const body = { schoolId: school.id, bookId: book.id, ...year, seats: 5, note: "PO-1234" };
    const created = await licences(body);
    expect(created.status).toBe(201);
    // POST / answers one licence or many (the body's shape picks), so the answer is read as either.
    expect(await okBody(created)).toMatchObject({ licence: { schoolId: school.id, bookId: book.id, ...year, seats: 5, note: "PO-1234" } });
    // The entry names the licences it made by their school and book (a pair has one licence), not
    // by id: the admin's other licences, in this file and others, have entries of the same action.
    const entries = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityType, "licence"),
          eq(auditLog.action, "licence.create"),
          sql`EXISTS (SELECT 1 FROM json_each(${auditLog.after}) WHERE value ->> 'schoolId' = ${school.id} AND value ->> 'bookId' = ${book.id})`,
        ),
      );
    expect(entries).toMatchObject([
      { adminId: admin.admin.id, after: [{ schoolId: school.id, bookId: book.id, ...year, seats: 5, note: "PO-1234" }] },
    ]);

    const again = await licences(body);
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatch(/already has a licence for “Sold /);
  });

  it("refuses bad dates and seats with the field, and writes nothing", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Refused ${crypto.randomUUID()}` });
    const base = { schoolId: school.id, bookId: book.id, startsOn: "2027-08-01" };
    const cases: [CreateBody, string][] = [
      [{ ...base, endsOn: "2027-07-31" }, "endsOn"],
      [{ ...base, startsOn: "2027-02-30" }, "startsOn"],
      [{ ...base, startsOn: "01/08/2027" }, "startsOn"],
      [{ ...base, seats: 0 }, "seats"],
      [{ ...base, seats: 2.5 }, "seats"],
    ];
    for (const [body, field] of cases) {
      const refused = await licences(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await errorBody(refused)).field, JSON.stringify(body)).toBe(field);
    }
    // A school id of the wrong type, which the typed client would not send: raw.
    const wrongType = await api("/api/licences", { cookie: admin.cookie, body: { ...base, schoolId: "1" } });
    expect(wrongType.status, 'schoolId: "1"').toBe(400);
    expect((await errorBody(wrongType)).field, 'schoolId: "1"').toBe("schoolId");
    const unknownSchool = await licences({ ...base, schoolId: 99_999_999 });
    expect(unknownSchool.status).toBe(400);
    expect(await errorOf(unknownSchool)).toBe("No school with id 99999999");
    expect(await licenceOf(school.id, book.id)).toBeUndefined();
  });

  it("creates many in one call, or none of them when one pair has a licence already", async () => {
    const [a, b] = [await createSchool(), await createSchool()];
    const book = await createBook({ title: `Many ${crypto.randomUUID()}` }, [b.id]);
    const all = await licences({
      licences: [
        { schoolId: a.id, bookId: book.id, startsOn: "2026-08-01" },
        { schoolId: b.id, bookId: book.id, startsOn: "2026-08-01" },
      ],
    });
    expect(all.status).toBe(409);
    expect(await licenceOf(a.id, book.id)).toBeUndefined();
    const one = await licences({ licences: [{ schoolId: a.id, bookId: book.id, startsOn: "2026-08-01", endsOn: "2027-07-31", seats: 3 }] });
    expect(one.status).toBe(201);
    expect(await okBody(one)).toMatchObject({ licences: [{ schoolId: a.id, bookId: book.id, seats: 3, endsOn: "2027-07-31" }] });
  });

  it("is for admins only: 401 for a teacher's cookie or none, 403 from another site", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const body = { schoolId: school.id, bookId: 1, startsOn: "2026-08-01" };
    const as = (cookie: string | null, origin?: string) => client({ cookie, origin }).api.licences;
    expect((await as(null).$post({ json: body })).status).toBe(401);
    expect((await as(teacher.cookie).$post({ json: body })).status).toBe(401);
    expect((await as(admin.cookie, "https://evil.example").$post({ json: body })).status).toBe(403);
    expect((await as(teacher.cookie).$get({ query: {} })).status).toBe(401);
  });
});

describe("GET /api/licences/export", () => {
  it("is the filtered list as a CSV for invoicing, with a formula in a note neutralised", async () => {
    const school = await createSchool({ name: `Invoice School ${crypto.randomUUID().slice(0, 6)}` });
    const book = await createBook({ title: `Invoiced ${crypto.randomUUID().slice(0, 6)}` });
    await licences({
      schoolId: school.id,
      bookId: book.id,
      startsOn: "2026-08-01",
      endsOn: "2027-07-31",
      seats: 30,
      note: "=HYPERLINK(1)",
    });
    const response = await licencesApi().export.$get({ query: { schoolId: String(school.id) } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="lectern-licences-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "licenceId,schoolId,school,slug,bookId,title,startsOn,endsOn,seats,state,note,offlineAllowed,offlineDays,peakReaders30Days,daysTurnedAway30Days,turnedAway30Days",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${book.title},2026-08-01,2027-07-31,30,`);
    expect(lines[1]!.endsWith(",'=HYPERLINK(1),yes,14,0,0,0")).toBe(true);
    const teacher = await signedInTeacher(school);
    expect((await client({ cookie: teacher.cookie }).api.licences.export.$get({ query: {} })).status).toBe(401);
  });
});

describe("GET, PATCH, renew and DELETE", () => {
  it("filters by state and by the days left, changes seats and dates, renews and deletes", async () => {
    const school = await createSchool();
    const t = today();
    const [ending, ended, later] = [
      await createBook({ title: `Ending ${crypto.randomUUID()}` }),
      await createBook({ title: `Ended ${crypto.randomUUID()}` }),
      await createBook({ title: `Later ${crypto.randomUUID()}` }),
    ];
    const made = await licences({
      licences: [
        { schoolId: school.id, bookId: ending.id, startsOn: addDays(t, -100), endsOn: addDays(t, 10) },
        { schoolId: school.id, bookId: ended.id, startsOn: addDays(t, -100), endsOn: addDays(t, -1) },
        { schoolId: school.id, bookId: later.id, startsOn: addDays(t, 5) },
      ],
    });
    expect(made.status).toBe(201);
    const list = (query: Record<string, string>) =>
      okBody(client({ cookie: admin.cookie }).api.licences.$get({ query: { schoolId: String(school.id), ...query } }));
    expect((await list({ state: "active" })).licences.map((l) => l.bookId)).toEqual([ending.id]);
    expect((await list({ state: "expired" })).licences.map((l) => l.bookId)).toEqual([ended.id]);
    expect((await list({ state: "scheduled" })).licences.map((l) => l.bookId)).toEqual([later.id]);
    expect((await list({ endingWithinDays: "30" })).licences.map((l) => l.bookId)).toEqual([ending.id]);
    expect((await list({ endingWithinDays: "9" })).licences).toEqual([]);
    // A state the API does not know, which the typed client would not send: raw.
    expect((await api(`/api/licences?state=gone`, { cookie: admin.cookie })).status).toBe(400);

    const endingId = (await licenceOf(school.id, ending.id))!.id;
    const patched = await licence(endingId, { seats: 2, note: "PO-77" });
    expect(patched.status).toBe(200);
    expect(await licenceOf(school.id, ending.id)).toMatchObject({ seats: 2, note: "PO-77" });
    expect((await licence(endingId, { seats: null })).status).toBe(200);
    expect((await licenceOf(school.id, ending.id))!.seats).toBeNull();
    // A body cannot retarget the path's licence (an id the typed client would not send: raw).
    const laterId = (await licenceOf(school.id, later.id))!.id;
    const retarget = await api(`/api/licences/${endingId}`, { method: "PATCH", cookie: admin.cookie, body: { id: laterId, seats: 7 } });
    expect(retarget.status).toBe(200);
    expect((await licenceOf(school.id, ending.id))!.seats).toBe(7);
    expect((await licenceOf(school.id, later.id))!.seats).toBeNull();
    expect((await licence(endingId, { seats: null })).status).toBe(200);
    const backwards = await licence(endingId, { endsOn: addDays(t, -200) });
    expect(backwards.status).toBe(400);
    expect((await errorBody(backwards)).field).toBe("endsOn");
    expect((await licence(endingId, {})).status).toBe(400);
    for (const id of ["0", "abc", "99999999"]) expect((await licence(id, { seats: 1 })).status).toBe(404);

    // Renewal: the running one to the end of the school year after the one it ends in; the ended
    // one for today's school year.
    const endedId = (await licenceOf(school.id, ended.id))!.id;
    const renewed = await licencesApi().renew.$post({ json: { ids: [endingId, endedId] } });
    expect(await okBody(renewed)).toEqual({ renewed: 2, openEnded: 0 });
    const next = schoolYearOf(addDays(schoolYearOf(addDays(t, 10)).endsOn, 1));
    expect(await licenceOf(school.id, ending.id)).toMatchObject({ startsOn: addDays(t, -100), endsOn: next.endsOn });
    expect(await licenceOf(school.id, ended.id)).toMatchObject(schoolYearOf(t));
    // No ids, which the typed client would not send: raw.
    expect((await api("/api/licences/renew", { cookie: admin.cookie, body: {} })).status).toBe(400);

    expect((await removeLicence(endingId)).status).toBe(200);
    expect(await licenceOf(school.id, ending.id)).toBeUndefined();
    expect((await removeLicence(endingId)).status).toBe(404);
  });
});

describe("what teachers see", () => {
  it("only books with an active licence; an ended one says when, a scheduled one is not there", async () => {
    const school = await createSchool({ email: "library@hillside.example" });
    const teacher = await signedInTeacher(school);
    const t = today();
    const title = `Licensed ${crypto.randomUUID()}`;
    const { book } = await preparedBook(title, [], ["One.", "Two."]);
    const created = await licences({ schoolId: school.id, bookId: book.id, startsOn: addDays(t, -30), endsOn: addDays(t, 7) });
    expect(created.status).toBe(201);
    const id = (await licenceOf(school.id, book.id))!.id;
    const shelf = () => okBody(client(teacher).api.schools.slug[":slug"].books.$get({ param: { slug: school.slug }, query: {} }));

    // Ending within 14 days: the book says until when.
    const own = await okBody(
      client(teacher).api.schools.slug[":slug"].books[":bookId"].$get({ param: { slug: school.slug, bookId: String(book.id) } }),
    );
    expect(own.book.availableUntil).toBe(addDays(t, 7));
    expect((await shelf()).books.map((b) => b.id)).toContain(book.id);
    const asTeacher = client(teacher).api;
    const bookParam = { param: { id: String(book.id) } };
    const pageOne = () => asTeacher.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } });
    const detailOf = () => asTeacher.schools.slug[":slug"].books[":bookId"].$get({ param: { slug: school.slug, bookId: String(book.id) } });
    expect((await pageOne()).status).toBe(200);
    expect((await asTeacher.books[":id"].favourite.$put(bookParam)).status).toBe(200);

    // Ended yesterday: gone from the shelf; the book and its pages say so (403), with the day.
    await licence(id, { endsOn: addDays(t, -1) });
    expect((await shelf()).books.map((b) => b.id)).not.toContain(book.id);
    const ended = `Your school's licence for this book ended on ${formatDay(addDays(t, -1))}.`;
    const detail = await detailOf();
    expect(detail.status).toBe(403);
    expect(await detail.json()).toEqual({ error: ended, status: "licence-ended" });
    const image = await pageOne();
    expect(image.status).toBe(403);
    expect(await image.json()).toEqual({ error: ended, status: "licence-ended" });
    expect((await asTeacher.books[":id"].pages.$get(bookParam)).status).toBe(403);
    // The book's page says so too, with whom to ask.
    const html = await page(`https://lectern.test/schools/${school.slug}/dashboard/book/${book.id}`, { cookie: teacher.cookie });
    expect(html.status).toBe(403);
    const body = await html.text();
    expect(body).toContain("This book is no longer available");
    expect(body).toContain(`licence for this book ended on ${formatDay(addDays(t, -1))}.`);
    expect(body).toContain('href="mailto:library@hillside.example"');
    // Nor can it be starred, or its place saved.
    expect((await asTeacher.books[":id"].favourite.$put(bookParam)).status).toBe(404);
    const progress = await asTeacher["reading-progress"][":bookId"].$put({ param: { bookId: String(book.id) }, json: { page: 1 } });
    expect(progress.status).toBe(404);

    // Not begun yet: like a book the school does not have.
    await licence(id, { startsOn: addDays(t, 1), endsOn: null });
    expect((await pageOne()).status).toBe(404);
    expect((await detailOf()).status).toBe(404);
  });
});

describe("seats", () => {
  it("a 2-seat book: two teachers read, the third is told, and gets in once one closes the book", async () => {
    const school = await createSchool({ teacherLimit: 10 });
    const { book } = await preparedBook(`Two Seats ${crypto.randomUUID()}`, [], ["One.", "Two."]);
    expect((await licences({ schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats: 2 })).status).toBe(201);
    const [first, second, third] = [
      await signedInTeacher(school, "A"),
      await signedInTeacher(school, "B"),
      await signedInTeacher(school, "C"),
    ];
    const read = (teacher: { cookie: string }, n = 1) =>
      client(teacher).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: String(n) } });
    expect((await read(first)).status).toBe(200);
    expect((await read(second)).status).toBe(200);
    const refused = await read(third);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "All 2 copies of this book are in use at your school. Try again in a few minutes.",
      status: "no-seat",
    });
    // A holder reads on; the text layer is reading too.
    expect((await read(first, 2)).status).toBe(200);
    const text = await client(third).api.books[":id"].pages[":n"].text.$get({ param: { id: String(book.id), n: "2" } });
    expect(text.status).toBe(409);

    // A script's release without our origin, or with another site's, changes nothing.
    const release = (origin?: string | null) =>
      client({ cookie: first.cookie, origin }).api.books[":id"].seat.$delete({ param: { id: String(book.id) } });
    expect((await release(null)).status).toBe(403);
    expect((await release("https://evil.example")).status).toBe(403);
    expect((await read(third)).status).toBe(409);
    expect((await release()).status).toBe(204);
    expect((await read(third)).status).toBe(200);
    expect((await read(first)).status).toBe(409);
  });

  it("30 teachers opening a 5-seat book at once get exactly 5 seats; a seat idle for 10 minutes is free again", async () => {
    const school = await createSchool({ teacherLimit: 40 });
    const { book } = await preparedBook(`Five Seats ${crypto.randomUUID()}`, [], ["One."]);
    expect((await licences({ schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats: 5 })).status).toBe(201);
    const teachers = await Promise.all(Array.from({ length: 30 }, (_, i) => signedInTeacher(school, `Teacher ${i}`)));
    const answers = await Promise.all(
      teachers.map((t) => client(t).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(25);
    const stub = await schoolStub(school.id);
    expect(await stub.seatsHeld(school.id, book.id)).toBe(5);
    // Ten minutes on, the seats are free: the object counts none held, and a sixth teacher's page goes through.
    const later = Date.now() + SEAT_HOLD_MS + 1;
    expect(await stub.seatsHeld(school.id, book.id, later)).toBe(0);
    const turnedAway = teachers[statuses.indexOf(409)]!;
    const [session] = (await objectSessions(school.id)).filter((row) => row.teacher_id === turnedAway.teacher.id);
    const input = { tokenHash: session!.token_hash, bookId: book.id, pageCount: 1, countsAsRead: true, seats: 5 };
    expect(await stub.readPage(school.id, { ...input, now: Date.now() })).toMatchObject({
      ok: false,
      failure: { details: { status: "no-seat" } },
    });
    expect((await stub.readPage(school.id, { ...input, now: later })).ok).toBe(true);
  });

  it("a refused request spends nothing of the reading budget", async () => {
    const school = await createSchool();
    const { book } = await preparedBook(`One Seat ${crypto.randomUUID()}`, [], ["One."]);
    await licences({ schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats: 1 });
    const [holder, waiting] = [await signedInTeacher(school, "Holder"), await signedInTeacher(school, "Waiting")];
    const pageOne = (who: { cookie: string }) => client(who).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } });
    expect((await pageOne(holder)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await pageOne(waiting)).status).toBe(409);
    const { runInDurableObject } = await import("cloudflare:test");
    const spent = await runInDurableObject(await schoolStub(school.id), (_instance, state) =>
      state.storage.sql.exec("SELECT count(*) AS n FROM budgets WHERE teacher_id = ?", waiting.teacher.id).toArray(),
    );
    expect(spent).toEqual([{ n: 0 }]);
  });
});

describe("the Licences page", () => {
  /** The page's form as it posts: the intent, then an id per licence picked, then any other field (seats). */
  const post = (url: string, intent: string, ids: number[], more: [string, string][] = [], cookie = admin.cookie) =>
    page(url, {
      method: "POST",
      cookie,
      body: new URLSearchParams([["intent", intent], ...ids.map((id): [string, string] => ["id", String(id)]), ...more]),
    });

  it("lists a school's licences with their state, and changes seats, renews and ends the ones picked", async () => {
    const school = await createSchool({ name: `Licence Page School ${crypto.randomUUID().slice(0, 6)}` });
    const t = today();
    const [a, b] = [
      await createBook({ title: `Page A ${crypto.randomUUID()}` }),
      await createBook({ title: `Page B ${crypto.randomUUID()}` }),
    ];
    await licences({
      licences: [
        { schoolId: school.id, bookId: a.id, startsOn: addDays(t, -10), endsOn: addDays(t, 20), seats: 3 },
        { schoolId: school.id, bookId: b.id, startsOn: addDays(t, 5), endsOn: addDays(t, 300) },
      ],
    });
    const [idA, idB] = [(await licenceOf(school.id, a.id))!.id, (await licenceOf(school.id, b.id))!.id];
    const url = `/admin/licences?schoolId=${school.id}`;
    const shown = await page(url, { cookie: admin.cookie });
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("<title>Licences · Lectern Admin</title>");
    expect(html).toContain("Ending soon");
    expect(html).toContain("Scheduled");
    // The form's empty "ending" and a state it never sends are no filter: both licences still show.
    const lenient = await (await page(`${url}&ending=&state=bogus`, { cookie: admin.cookie })).text();
    expect(lenient).toContain(a.title);
    expect(lenient).toContain(b.title);

    expect((await post(url, "seats", [idA, idB], [["seats", "4"]])).status).toBe(200);
    expect([(await licenceOf(school.id, a.id))!.seats, (await licenceOf(school.id, b.id))!.seats]).toEqual([4, 4]);
    expect((await post(url, "seats", [idA], [["seats", ""]])).status).toBe(200);
    expect((await licenceOf(school.id, a.id))!.seats).toBeNull();
    expect((await post(url, "seats", [idA], [["seats", "0"]])).status).toBe(400);

    // Offline reading for the licences picked: off (the box unticked; their days are kept), then on
    // with other days for one of them; days out of range are refused at their field, nothing changed.
    const allowFor = (days: string): [string, string][] => [
      ["offlineAllowed", "true"],
      ["offlineDays", days],
    ];
    expect((await post(url, "offline", [idA, idB])).status).toBe(200);
    for (const book of [a, b]) expect(await licenceOf(school.id, book.id)).toMatchObject({ offlineAllowed: false, offlineDays: 14 });
    expect((await post(url, "offline", [idA], allowFor("30"))).status).toBe(200);
    expect(await licenceOf(school.id, a.id)).toMatchObject({ offlineAllowed: true, offlineDays: 30 });
    expect(await licenceOf(school.id, b.id)).toMatchObject({ offlineAllowed: false, offlineDays: 14 });
    for (const days of ["0", "", "91", "2.5"]) {
      const refused = await post(url, "offline", [idB], allowFor(days));
      expect(refused.status, `${days} days`).toBe(400);
      expect(await refused.text()).toContain(OFFLINE_DAYS_RULE);
    }
    expect(await licenceOf(school.id, b.id)).toMatchObject({ offlineAllowed: false, offlineDays: 14 });

    expect((await post(url, "end", [idB])).status).toBe(200);
    expect(await licenceOf(school.id, b.id)).toMatchObject({ startsOn: addDays(t, -1), endsOn: addDays(t, -1) });
    expect((await post(url, "renew", [idA])).status).toBe(200);
    expect((await licenceOf(school.id, a.id))!.endsOn).toBe(schoolYearOf(addDays(schoolYearOf(addDays(t, 20)).endsOn, 1)).endsOn);
    expect((await post(url, "renew", [])).status).toBe(400);

    // A teacher's cookie is no admin's: off to the admin sign-in, nothing changed.
    const teacher = await signedInTeacher(school);
    const refused = await post(url, "end", [idA], [], teacher.cookie);
    expect([302, 303]).toContain(refused.status);
    expect((await licenceOf(school.id, a.id))!.endsOn).not.toBe(addDays(t, -1));
  });
});

describe("assigning with the licence's terms", () => {
  it("the API and the Assign Books page give the period and seats asked; without them, open-ended and unlimited", async () => {
    const school = await createSchool();
    const [viaApi, viaPage, plain] = [
      await createBook({ title: `Terms API ${crypto.randomUUID()}` }),
      await createBook({ title: `Terms Page ${crypto.randomUUID()}` }),
      await createBook({ title: `Terms None ${crypto.randomUUID()}` }),
    ];
    const terms = { startsOn: "2026-08-01", endsOn: "2027-07-31", seats: 12 };
    const granted = await grantAccess({ schoolIds: [school.id], bookIds: [viaApi.id], ...terms });
    expect(granted.status).toBe(200);
    expect(await licenceOf(school.id, viaApi.id)).toMatchObject(terms);
    const backwards = await grantAccess({ schoolIds: [school.id], bookIds: [plain.id], startsOn: "2027-08-01", endsOn: "2027-07-31" });
    expect(backwards.status).toBe(400);
    expect((await errorBody(backwards)).field).toBe("endsOn");

    const form = new URLSearchParams([
      ["intent", "assign"],
      ["bookId", String(viaPage.id)],
      ["startsOn", "2026-09-01"],
      ["endsOn", ""],
      ["seats", "3"],
    ]);
    expect((await page(`/admin/assign-books/${school.id}`, { method: "POST", cookie: admin.cookie, body: form })).status).toBe(200);
    expect(await licenceOf(school.id, viaPage.id)).toMatchObject({ startsOn: "2026-09-01", endsOn: null, seats: 3 });

    expect((await grantAccess({ schoolIds: [school.id], bookIds: [plain.id] })).status).toBe(200);
    expect(await licenceOf(school.id, plain.id)).toMatchObject({ startsOn: today(), endsOn: null, seats: null });
  });
});

describe("reminders", () => {
  const caught = async (to: string) =>
    jsonOf(
      fetch(`${env.MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(to)}`),
      z.array(z.object({ subject: z.string(), text: z.string() }).loose()),
    );
  const withMail = () => readConfig({ ...env, SMTP_URL: env.SMTP_TEST_URL, MAIL_FROM: "Lectern <no-reply@lectern.test>" });

  it("e-mails the school once 30 and once 7 days before a licence ends, whatever how often or how many jobs run", async () => {
    const email = `office-${crypto.randomUUID().slice(0, 8)}@school.test`;
    const school = await createSchool({ name: "Reminder High", email });
    const t = today();
    const titles = ["Soon Seven", "Month Thirty", "Far Forty", "Never Ending"].map(
      (title) => `${title} ${crypto.randomUUID().slice(0, 6)}`,
    );
    const books = await Promise.all(titles.map((title) => createBook({ title })));
    const ends = [addDays(t, 5), addDays(t, 20), addDays(t, 40), null];
    const created = await licences({
      licences: books.map((book, i) => ({ schoolId: school.id, bookId: book.id, startsOn: addDays(t, -100), endsOn: ends[i] })),
    });
    expect(created.status).toBe(201);

    // Two jobs at once, then a third: one e-mail.
    await Promise.all([sendLicenceReminders(db(), withMail()), sendLicenceReminders(db(), withMail())]);
    await sendLicenceReminders(db(), withMail());
    const first = await caught(email);
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toBe("2 book licences ending soon at Reminder High");
    expect(first[0]!.text).toContain(`${titles[0]}: until ${formatDay(addDays(t, 5))}`);
    expect(first[0]!.text).toContain(`${titles[1]}: until ${formatDay(addDays(t, 20))}`);
    expect(first[0]!.text).not.toContain(titles[2]);
    expect(first[0]!.text).not.toContain(titles[3]);

    // Two weeks on, the second book is within a week of its end: its 7-day notice, and only that.
    await sendLicenceReminders(db(), withMail(), Date.now() + 14 * 86_400_000);
    const second = await caught(email);
    expect(second).toHaveLength(2);
    expect(second[1]!.text).toContain(titles[1]);
    expect(second[1]!.text).not.toContain(titles[0]);

    // A licence renewed to a new last day is reminded of again when that comes near.
    const soonId = (await licenceOf(school.id, books[0]!.id))!.id;
    await licence(soonId, { endsOn: addDays(t, 6) });
    await sendLicenceReminders(db(), withMail());
    expect(await caught(email)).toHaveLength(3);
  });

  it("in Development Mode logs the reminder instead, once", async () => {
    const email = `dev-${crypto.randomUUID().slice(0, 8)}@school.test`;
    const school = await createSchool({ name: "Quiet School", email });
    const book = await createBook({ title: `Dev Mode ${crypto.randomUUID()}` });
    await licences({ schoolId: school.id, bookId: book.id, startsOn: addDays(today(), -1), endsOn: addDays(today(), 3) });
    const devMode = readConfig({ ...env, SMTP_URL: "" });
    const sent = await sendLicenceReminders(db(), devMode);
    expect(sent.emails).toBeGreaterThanOrEqual(1);
    expect(await caught(email)).toEqual([]);
    const rows = await db()
      .select()
      .from(licenceReminders)
      .where(eq(licenceReminders.licenceId, (await licenceOf(school.id, book.id))!.id));
    expect(rows).toHaveLength(1);
  });
});

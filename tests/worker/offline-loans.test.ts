// Offline loans, the teacher's side (issue 45 item 3, docs/decisions/0050), as a script would send
// the requests: keeping a book (once per session, within the school's cap and the licence's terms),
// the seat a loan holds (not freed by the idle rule or the reader's seat release; freed at once by a
// return), downloading pages under the loan (spent, not counted as read; a foreign or ended loan
// refused), the contact check ending loans whose licence ended or whose session went, and pages read
// offline counted once per (loan, page, UTC day) in offline-reads.test.ts.
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenceEndedMessage, noSeatMessage } from "#shared/rules/licence.ts";
import { OFFLINE_LOAN_NOT_FOUND, OFFLINE_LOAN_REFUSED, OFFLINE_NOT_ALLOWED, offlineCapMessage } from "#shared/rules/offline.ts";
import { OfflineLoanAnswerSchema, OfflineLoansAnswerSchema } from "#shared/rules/offline-loan-schema.ts";
import { openTeacherSession } from "../../workers/auth/sessions.ts";
import { books } from "../../workers/db/schema.ts";
import { openPageSet, storePage } from "../../workers/page-images/page-sets.ts";
import {
  client,
  createBook,
  db,
  errorBody,
  errorOf,
  flushUsage,
  jsonOf,
  okBody,
  pagesSpent,
  schoolStub,
  setPagesSpent,
} from "./helpers.ts";
import { contact, download, giveBack, keep, kept, loanRow, loanSchool, readPage, type Teacher, tokenHashOf } from "./offline-fixtures.ts";
import { pageImages, pageText } from "./page-fixtures.ts";

const NO_STORE = "private, no-store";
const DAY_MS = 86_400_000;

describe("keeping a book for offline reading", () => {
  it("answers the loan with its key (32 random bytes), private and unstored; the same session again gets the same loan", async () => {
    const { school, book, teachers } = await loanSchool(["Kim Keeper"], { offlineDays: 3 });
    const [teacher] = teachers as [Teacher];
    const before = Date.now();
    const response = await keep(teacher, book.id);
    expect(response.status).toBe(201);
    expect(response.headers.get("Cache-Control")).toBe(NO_STORE);
    const { loan } = await jsonOf(response, OfflineLoanAnswerSchema);
    expect(loan).toMatchObject({ bookId: book.id, pageCount: 3 });
    expect(Uint8Array.from(atob(loan.key), (c) => c.charCodeAt(0))).toHaveLength(32);
    expect(loan.until).toBeGreaterThanOrEqual(before + 3 * DAY_MS);
    expect(loan.until).toBeLessThanOrEqual(Date.now() + 3 * DAY_MS);
    const again = await keep(teacher, book.id);
    expect(again.status).toBe(200);
    expect((await jsonOf(again, OfflineLoanAnswerSchema)).loan).toEqual(loan);
    // Another device of the same teacher gets a loan (and a key) of its own.
    const other = {
      cookie: `__Host-lectern_teacher=${await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, teacher.teacher, null)}`,
    };
    const second = (await jsonOf(await keep(other, book.id), OfflineLoanAnswerSchema)).loan;
    expect(second.id).not.toBe(loan.id);
    expect(second.key).not.toBe(loan.key);
  });

  it("never outlives the session its key is handed to", async () => {
    const { book, teachers } = await loanSchool(["Long Loan"], { offlineDays: 90 });
    const loan = await kept(teachers[0]!, book.id);
    // A teacher's session lasts 14 days at most (docs/decisions/0006).
    expect(loan.until).toBeLessThanOrEqual(Date.now() + 14 * DAY_MS);
  });

  it("is refused past the school's cap per teacher (every device counts), and at a school that allows none", async () => {
    const { school, book, teachers } = await loanSchool(["Cap Teacher"], { offlineBooksPerTeacher: 1 });
    const [teacher] = teachers as [Teacher];
    await kept(teacher, book.id);
    const other = {
      cookie: `__Host-lectern_teacher=${await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, teacher.teacher, null)}`,
    };
    const refused = await keep(other, book.id);
    expect(refused.status).toBe(409);
    expect(await errorBody(refused)).toMatchObject({ error: offlineCapMessage(1), status: "offline-cap" });
    const none = await loanSchool(["No Offline"], { offlineBooksPerTeacher: 0 });
    const zero = await keep(none.teachers[0]!, none.book.id);
    expect(zero.status).toBe(409);
    expect(await errorOf(zero)).toBe("Your school does not allow keeping books for offline reading.");
  });

  it("is refused with the licence's sentence when it allows no offline reading, and as reading is when it ended", async () => {
    const off = await loanSchool(["Not Allowed"], { offlineAllowed: false });
    const refused = await keep(off.teachers[0]!, off.book.id);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toBe(OFFLINE_NOT_ALLOWED);
    const ended = await loanSchool(["Ended"]);
    await client(ended.admin).api.licences[":id"].$patch({ param: { id: String(ended.licence.id) }, json: { endsOn: "2026-01-02" } });
    const gone = await keep(ended.teachers[0]!, ended.book.id);
    expect(gone.status).toBe(403);
    expect(await errorOf(gone)).toBe(licenceEndedMessage("2026-01-02"));
  });

  it("is refused (409, preparing) for a book whose pages are still being prepared", async () => {
    const { school, teachers, admin } = await loanSchool(["Early Bird"]);
    const book = await createBook({ title: `Preparing ${crypto.randomUUID().slice(0, 8)}` });
    const opened = await openPageSet(db(), book, 3);
    if (!opened.ok) throw new Error(opened.failure.error);
    await storePage(db(), env.BOOKS, opened.value, 1, { images: pageImages(), text: pageText("One.") });
    // A book's first PDF is readable from its first page (decision 38): its set is the book's while it is prepared.
    await db().update(books).set({ pageSetId: opened.value.id }).where(eq(books.id, book.id));
    expect(
      (await client(admin).api.licences.$post({ json: { schoolId: school.id, bookId: book.id, startsOn: "2026-01-01" } })).status,
    ).toBe(201);
    const refused = await keep(teachers[0]!, book.id);
    expect(refused.status).toBe(409);
    expect(await errorBody(refused)).toMatchObject({ status: "preparing" });
  });

  it("is refused (429, as reading) when the reading budget is spent, and for someone signed out (401)", async () => {
    const { school, book, teachers } = await loanSchool(["Spent"]);
    const [teacher] = teachers as [Teacher];
    await setPagesSpent(school, teacher.teacher.id, book.id, "h", 10_000);
    const spent = await keep(teacher, book.id);
    expect(spent.status).toBe(429);
    expect(spent.headers.get("Retry-After")).not.toBeNull();
    expect((await keep({ cookie: "__Host-lectern_teacher=made-up" }, book.id)).status).toBe(401);
  });
});

describe("the seat a loan holds (a one-seat licence)", () => {
  it("holds it against other teachers, through the reader's seat release and the 10-minute idle rule, until returned", async () => {
    const { school, book, teachers } = await loanSchool(["Lena Loan", "Walt Waiting"], { seats: 1 });
    const [holder, waiting] = teachers as [Teacher, Teacher];
    await kept(holder, book.id);
    const turnedAway = await readPage(waiting, book.id, 1);
    expect(turnedAway.status).toBe(409);
    expect(await errorBody(turnedAway)).toMatchObject({ error: noSeatMessage(1), status: "no-seat" });
    const noLoan = await keep(waiting, book.id);
    expect(noLoan.status).toBe(409);
    expect(await errorBody(noLoan)).toMatchObject({ error: noSeatMessage(1), status: "no-seat" });
    // The holder reads online too, on the seat their loan holds; closing the reader does not give it back.
    expect((await readPage(holder, book.id, 1)).status).toBe(200);
    expect((await client(holder).api.books[":id"].seat.$delete({ param: { id: String(book.id) } })).status).toBe(204);
    expect((await readPage(waiting, book.id, 1)).status).toBe(409);
    // Eleven minutes on, a reader's seat would be free again; the loan's is not.
    const stub = await schoolStub(school.id);
    const later = Date.now() + 11 * 60_000;
    expect(await stub.seatsHeld(school.id, book.id, later)).toBe(1);
    const tokenHash = await tokenHashOf(school.id, waiting.teacher.id);
    const idle = await stub.readPage(school.id, { tokenHash, bookId: book.id, pageCount: 3, countsAsRead: true, seats: 1, now: later });
    expect(idle.ok).toBe(false);
    // Returned: the seat is free at once.
    const returned = await giveBack(holder, book.id);
    expect(returned.status).toBe(204);
    expect((await readPage(waiting, book.id, 1)).status).toBe(200);
    expect((await giveBack(holder, book.id)).status).toBe(404);
    expect(await errorOf(giveBack(holder, book.id))).toBe(OFFLINE_LOAN_NOT_FOUND);
  });
});

describe("downloading pages under a loan (offline=<loanId>)", () => {
  it("spends the budget as reading does but does not count the page as read", async () => {
    const { school, book, teachers } = await loanSchool(["Dee Download"]);
    const [teacher] = teachers as [Teacher];
    const loan = await kept(teacher, book.id);
    const image = await download(teacher, book.id, 1, loan.id);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toMatch(/^image\//);
    expect((await download(teacher, book.id, 2, loan.id, "text")).status).toBe(200);
    expect(await pagesSpent(school, teacher.teacher.id, book.id)).toBe(2);
    await flushUsage(school.id);
    const [row] = await db().all<{ pages: number | null }>(
      sql`SELECT sum(pages) AS pages FROM reading_daily WHERE school_id = ${school.id} AND teacher_id = ${teacher.teacher.id}`,
    );
    expect(row?.pages ?? 0).toBe(0);
    // Read online, the same page counts.
    expect((await readPage(teacher, book.id, 1)).status).toBe(200);
    await flushUsage(school.id);
    const [after] = await db().all<{ pages: number }>(
      sql`SELECT sum(pages) AS pages FROM reading_daily WHERE school_id = ${school.id} AND teacher_id = ${teacher.teacher.id}`,
    );
    expect(after?.pages).toBe(1);
  });

  it("is 429 once the budget is spent", async () => {
    const { school, book, teachers } = await loanSchool(["Budget Gone"]);
    const [teacher] = teachers as [Teacher];
    const loan = await kept(teacher, book.id);
    await setPagesSpent(school, teacher.teacher.id, book.id, "h", 10_000);
    const refused = await download(teacher, book.id, 1, loan.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).not.toBeNull();
  });

  it("refuses another session's loan, a made-up one and an ended one (403), and a made-up cookie first (401)", async () => {
    const { book, teachers } = await loanSchool(["Owner", "Other"]);
    const [owner, other] = teachers as [Teacher, Teacher];
    const loan = await kept(owner, book.id);
    for (const [who, id] of [
      [other, loan.id],
      [owner, "made-up-loan"],
    ] as const) {
      const refused = await download(who, book.id, 1, id);
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toBe(OFFLINE_LOAN_REFUSED);
    }
    expect((await download({ cookie: "__Host-lectern_teacher=made-up" }, book.id, 1, loan.id)).status).toBe(401);
    expect((await giveBack(owner, book.id)).status).toBe(204);
    const ended = await download(owner, book.id, 1, loan.id, "text");
    expect(ended.status).toBe(403);
    expect(await errorOf(ended)).toBe(OFFLINE_LOAN_REFUSED);
  });
});

describe("the contact check (GET /api/teacher/offline)", () => {
  it("answers the session's live loans with their keys, private and unstored", async () => {
    const { book, teachers } = await loanSchool(["Contact"]);
    const [teacher] = teachers as [Teacher];
    const loan = await kept(teacher, book.id);
    const response = await contact(teacher);
    expect(response.headers.get("Cache-Control")).toBe(NO_STORE);
    expect((await jsonOf(response, OfflineLoansAnswerSchema)).loans).toEqual([loan]);
  });

  it("ends the loans of an ended licence, or one no longer allowing offline: seat freed, key never handed out again", async () => {
    for (const change of [{ endsOn: "2026-01-02" }, { offlineAllowed: false }]) {
      const { admin, school, book, licence, teachers } = await loanSchool(["Ending", "Next"], { seats: 1 });
      const [teacher, next] = teachers as [Teacher, Teacher];
      const loan = await kept(teacher, book.id);
      await okBody(client(admin).api.licences[":id"].$patch({ param: { id: String(licence.id) }, json: change }));
      expect((await okBody(contact(teacher))).loans).toEqual([]);
      expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
      expect(await loanRow(school.id, loan.id)).toEqual({ key: null, ended: "endsOn" in change ? "licence-ended" : "offline-not-allowed" });
      if ("offlineAllowed" in change) expect((await readPage(next, book.id, 1)).status).toBe(200);
    }
  });

  const ends: [string, (teacher: Teacher, ctx: Awaited<ReturnType<typeof loanSchool>>) => Promise<unknown>][] = [
    ["the session revoked (signed out)", (t) => client(t).api.teacher["sign-out"].$post()],
    ["signed out everywhere", (t) => client(t).api.teacher["sign-out-everywhere"].$post()],
    [
      "the teacher disabled",
      (t, { admin, school }) =>
        client(admin).api.schools[":id"].teachers[":teacherId"].disable.$post({
          param: { id: String(school.id), teacherId: String(t.teacher.id) },
        }),
    ],
  ];
  for (const [what, end] of ends) {
    it(`is 401 once ${what}, and the loan's seat is free at once`, async () => {
      const ctx = await loanSchool(["Gone", "Waiting"], { seats: 1 });
      const [teacher, waiting] = ctx.teachers as [Teacher, Teacher];
      const loan = await kept(teacher, ctx.book.id);
      await end(teacher, ctx);
      expect((await contact(teacher)).status).toBe(401);
      expect((await readPage(waiting, ctx.book.id, 1)).status).toBe(200);
      // Its key goes with it when the object next settles the school's loans (the staff's list, or the
      // tidying alarm); another session's contact check settles only its own (no scan per page load).
      await okBody(contact(waiting));
      expect((await loanRow(ctx.school.id, loan.id))?.key).not.toBeNull();
      const listed = await client(ctx.admin).api.schools[":id"]["offline-loans"].$get({ param: { id: String(ctx.school.id) } });
      expect(listed.status).toBe(200);
      expect((await loanRow(ctx.school.id, loan.id))?.key).toBeNull();
    });
  }
});

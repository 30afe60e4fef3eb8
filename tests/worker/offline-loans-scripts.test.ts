// Offline loans against the requests a script would send (issue 45, docs/decisions/0050), where the
// other offline tests do not already try them: a loan used for another book of the school, the
// teacher's other session (device) asking for the first one's key or pages, and reads reported for
// times after the loan was returned.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OFFLINE_LOAN_NOT_FOUND, OFFLINE_LOAN_REFUSED } from "#shared/rules/offline.ts";
import { openTeacherSession } from "../../workers/auth/sessions.ts";
import { api, errorOf, okBody } from "./helpers.ts";
import { contact, download, giveBack, kept, loanSchool, reportReads, type Teacher } from "./offline-fixtures.ts";
import { preparedBook } from "./page-fixtures.ts";

describe("an offline loan used where it does not belong", () => {
  it("gives no page or text of another book of the school, and counts no reads of it (the loan's book is checked)", async () => {
    const { school, book, teachers } = await loanSchool(["Two Books"]);
    const [teacher] = teachers as [Teacher];
    const other = (await preparedBook(`Other ${crypto.randomUUID()}`, [school.id], ["A.", "B.", "C."])).book;
    const loan = await kept(teacher, book.id);
    for (const what of ["image", "text"] as const) {
      const refused = await download(teacher, other.id, 1, loan.id, what);
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toBe(OFFLINE_LOAN_REFUSED);
    }
    const reads = await reportReads(teacher, other.id, loan.id, [{ n: 1, at: Date.now() }]);
    expect(reads.status).toBe(404);
    expect(await errorOf(reads)).toBe(OFFLINE_LOAN_NOT_FOUND);
  });

  it("is the session's own: the same teacher's other session gets neither its key nor its pages", async () => {
    const { school, book, teachers } = await loanSchool(["Two Devices"]);
    const [teacher] = teachers as [Teacher];
    const loan = await kept(teacher, book.id);
    const token = await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, teacher.teacher, null);
    const laptop = { cookie: `__Host-lectern_teacher=${token}` };
    expect((await okBody(contact(laptop))).loans).toEqual([]);
    expect((await download(laptop, book.id, 1, loan.id)).status).toBe(403);
    expect((await okBody(contact(teacher))).loans.map((row) => row.id)).toEqual([loan.id]);
  });

  it("counts no read reported for a time after the loan was returned", async () => {
    const { book, teachers } = await loanSchool(["Returner"]);
    const [teacher] = teachers as [Teacher];
    const loan = await kept(teacher, book.id);
    expect((await giveBack(teacher, book.id)).status).toBe(204);
    const after = Date.now() + 1;
    expect(await okBody(reportReads(teacher, book.id, loan.id, [{ n: 1, at: after }]))).toEqual({ counted: 0 });
  });

  it("tells a made-up cookie nothing before its session is checked: 401 for a malformed saver, another book, a made-up loan", async () => {
    const { school, book, teachers } = await loanSchool(["Real"]);
    const loan = await kept(teachers[0]!, book.id);
    // A well-formed cookie naming the school (as a real one does) but no session of it: the page view reads it without D1.
    const madeUp = { cookie: `__Host-lectern_teacher=${school.id}.${"m".repeat(32)}` };
    const elsewhere = (await preparedBook(`Elsewhere ${crypto.randomUUID()}`, [], ["A."])).book;
    for (const path of [
      `/api/books/${book.id}/pages/1?saver=nope`,
      `/api/books/${book.id}/pages/9?offline=${loan.id}`,
      `/api/books/${elsewhere.id}/pages/1?offline=${loan.id}`,
      `/api/books/${book.id}/pages/1/text?offline=made-up`,
    ]) {
      expect((await api(path, madeUp)).status, path).toBe(401);
    }
  });
});

// Pages read offline (issue 45 item 4's counting, docs/decisions/0050), as a script would report
// them: counted in the usage reports once per (loan, page, UTC day); pages outside the book, times
// outside the loan and another session's reports are not; reads made before a return still count.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { OFFLINE_LOAN_NOT_FOUND } from "#shared/rules/offline.ts";
import { db, errorOf, flushUsage, okBody } from "./helpers.ts";
import { giveBack, kept, loanSchool, reportReads, type Teacher } from "./offline-fixtures.ts";

const DAY_MS = 86_400_000;

describe("pages read offline (POST /api/books/:id/offline/reads)", () => {
  it("count once per (loan, page, UTC day); pages outside the book, times outside the loan and other sessions are not counted", async () => {
    const { school, book, teachers } = await loanSchool(["Reader", "Stranger"]);
    const [teacher, stranger] = teachers as [Teacher, Teacher];
    const loan = await kept(teacher, book.id);
    const at = Date.now();
    const reads = [
      { n: 1, at },
      { n: 2, at },
      { n: 1, at: at + 1 },
      { n: 9, at },
      { n: 0, at },
      { n: 3, at: at - DAY_MS },
      { n: 3, at: at + DAY_MS },
    ];
    expect(await okBody(reportReads(teacher, book.id, loan.id, reads))).toEqual({ counted: 2 });
    expect(await okBody(reportReads(teacher, book.id, loan.id, reads))).toEqual({ counted: 0 });
    const foreign = await reportReads(stranger, book.id, loan.id, [{ n: 3, at }]);
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toBe(OFFLINE_LOAN_NOT_FOUND);
    await flushUsage(school.id);
    const [row] = await db().all<{ pages: number }>(
      sql`SELECT sum(pages) AS pages FROM reading_daily WHERE school_id = ${school.id} AND teacher_id = ${teacher.teacher.id}`,
    );
    expect(row?.pages).toBe(2);
    // Reads made before a return are still counted after it.
    expect((await giveBack(teacher, book.id)).status).toBe(204);
    expect(await okBody(reportReads(teacher, book.id, loan.id, [{ n: 3, at: at + 2 }]))).toEqual({ counted: 1 });
  });

  it("takes at most 500 reads in one report", async () => {
    const { book, teachers } = await loanSchool(["Many Reads"]);
    const loan = await kept(teachers[0]!, book.id);
    const reads = Array.from({ length: 501 }, () => ({ n: 1, at: Date.now() }));
    expect((await reportReads(teachers[0]!, book.id, loan.id, reads)).status).toBe(400);
  });
});

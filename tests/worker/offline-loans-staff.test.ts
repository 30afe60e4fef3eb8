// Offline loans, the staff's side (issue 45 item 6, docs/decisions/0050), as a script would send the
// requests: an admin and the school's coordinator list who keeps which book offline until when and
// "Return now" (seat free at once, key never handed out again, audited); another school's
// coordinator, a plain teacher and no one cannot. And the terms: a licence's offline allowed and
// days, a school's offline books per teacher, each refused outside its rule.
import { describe, expect, it } from "vitest";
import { OFFLINE_BOOKS_RULE, OFFLINE_DAYS_RULE, OFFLINE_LOAN_GONE } from "#shared/rules/offline.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { client, createSchool, errorBody, errorOf, licenceOf, okBody, page, schoolStub, signedInAdmin } from "./helpers.ts";
import { contact, kept, loanRow, loanSchool, readPage, type Teacher } from "./offline-fixtures.ts";

async function keptBy(names: string[]) {
  const ctx = await loanSchool(names, { seats: 1 });
  const [holder] = ctx.teachers as [Teacher];
  return { ...ctx, holder, loan: await kept(holder, ctx.book.id) };
}

const adminLoans = (cookie: string | undefined, schoolId: number) =>
  client({ cookie }).api.schools[":id"]["offline-loans"].$get({ param: { id: String(schoolId) } });
const adminReturn = (cookie: string | undefined, schoolId: number, loanId: string) =>
  client({ cookie }).api.schools[":id"]["offline-loans"][":loanId"].return.$post({ param: { id: String(schoolId), loanId } });
const myLoans = (cookie: string | undefined) => client({ cookie }).api.schools.slug[":slug"].coordinator["offline-loans"];

describe("an admin's Kept for offline", () => {
  it("lists the school's loans and returns one: seat free at once, key gone, audited once", async () => {
    const { admin, school, book, holder, loan, teachers } = await keptBy(["Lou Loaner", "Wen Waiting"]);
    const listed = await okBody(adminLoans(admin.cookie, school.id));
    expect(listed.loans).toEqual([
      {
        id: loan.id,
        bookId: book.id,
        bookTitle: book.title,
        teacherId: holder.teacher.id,
        teacherName: "Lou Loaner",
        teacherEmail: holder.teacher.email,
        until: loan.until,
        createdAt: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(loan.key);
    const returned = await adminReturn(admin.cookie, school.id, loan.id);
    expect(returned.status).toBe(204);
    expect(returned.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await readPage(teachers[1]!, book.id, 1)).status).toBe(200);
    expect((await okBody(contact(holder))).loans).toEqual([]);
    expect(await loanRow(school.id, loan.id)).toEqual({ key: null, ended: "returned-by-staff" });
    const entries = await auditEntriesOf("teacher", holder.teacher.id, "offline-loan.return");
    expect(entries).toHaveLength(1);
    expect(entries[0]?.adminEmail).toBe(admin.admin.email);
    // Again: nothing to return, nothing audited.
    const again = await adminReturn(admin.cookie, school.id, loan.id);
    expect(again.status).toBe(404);
    expect(await errorOf(again)).toBe(OFFLINE_LOAN_GONE);
    expect(await auditEntriesOf("teacher", holder.teacher.id, "offline-loan.return")).toHaveLength(1);
    expect((await okBody(adminLoans(admin.cookie, school.id))).loans).toEqual([]);
  });

  it("cannot return another school's loan through its own school, and a teacher or no one cannot call it", async () => {
    const { admin, school, holder, loan } = await keptBy(["Other School Loan"]);
    const elsewhere = await createSchool({ slug: `elsewhere-${crypto.randomUUID().slice(0, 8)}` });
    expect((await adminReturn(admin.cookie, elsewhere.id, loan.id)).status).toBe(404);
    expect((await adminLoans(admin.cookie, 999_999)).status).toBe(404);
    for (const cookie of [holder.cookie, undefined]) {
      expect((await adminLoans(cookie, school.id)).status).toBe(401);
      expect((await adminReturn(cookie, school.id, loan.id)).status).toBe(401);
    }
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, loan.bookId)).toBe(1);
  });

  it("from the school's admin page: the Kept for offline table and its Return now action", async () => {
    const { admin, school, book, loan } = await keptBy(["Page Holder"]);
    const url = `/admin/school/${school.id}`;
    const html = await (await page(url, { cookie: admin.cookie })).text();
    expect(html).toContain("Kept for offline");
    expect(html).toContain("Page Holder");
    expect(html).toContain(book.title);
    const post = await page(url, {
      method: "POST",
      cookie: admin.cookie,
      body: new URLSearchParams({ intent: "offline-loan-return", loanId: loan.id }),
    });
    expect(await post.text()).toContain("Page Holder&#x27;s offline copy is returned");
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
  });
});

describe("the coordinator's Kept for offline (My school)", () => {
  async function withCoordinator() {
    const ctx = await keptBy(["Hana Holder", "Cory Coordinator"]);
    const coordinator = ctx.teachers[1]!;
    const made = await client(ctx.admin).api.schools[":id"].teachers[":teacherId"].coordinator.$post({
      param: { id: String(ctx.school.id), teacherId: String(coordinator.teacher.id) },
    });
    expect(made.status).toBe(200);
    return { ...ctx, coordinator };
  }

  it("lists and returns their own school's loans (audited in the coordinator's name)", async () => {
    const { school, holder, loan, coordinator } = await withCoordinator();
    const listed = await okBody(myLoans(coordinator.cookie).$get({ param: { slug: school.slug } }));
    expect(listed.loans.map((row) => row.id)).toEqual([loan.id]);
    const returned = await myLoans(coordinator.cookie)[":loanId"].return.$post({ param: { slug: school.slug, loanId: loan.id } });
    expect(returned.status).toBe(204);
    const [entry] = await auditEntriesOf("teacher", holder.teacher.id, "offline-loan.return");
    expect(entry?.adminEmail).toBe(`${coordinator.teacher.email} (coordinator)`);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, loan.bookId)).toBe(0);
  });

  it("a coordinator of school B cannot return school A's loan; a plain teacher is 403; no one 401", async () => {
    const a = await withCoordinator();
    const b = await withCoordinator();
    // B's own path with A's loan id: as if it did not exist.
    const across = await myLoans(b.coordinator.cookie)[":loanId"].return.$post({ param: { slug: b.school.slug, loanId: a.loan.id } });
    expect(across.status).toBe(404);
    // A's path with B's cookie: the teacher guard's 404.
    expect(
      (await myLoans(b.coordinator.cookie)[":loanId"].return.$post({ param: { slug: a.school.slug, loanId: a.loan.id } })).status,
    ).toBe(404);
    expect((await myLoans(b.coordinator.cookie).$get({ param: { slug: a.school.slug } })).status).toBe(404);
    const plain = await myLoans(a.holder.cookie)[":loanId"].return.$post({ param: { slug: a.school.slug, loanId: a.loan.id } });
    expect(plain.status).toBe(403);
    expect(await errorOf(plain)).toBe("Only your school's coordinators can do this.");
    expect((await myLoans(a.holder.cookie).$get({ param: { slug: a.school.slug } })).status).toBe(403);
    expect((await myLoans(undefined).$get({ param: { slug: a.school.slug } })).status).toBe(401);
    expect(await (await schoolStub(a.school.id)).seatsHeld(a.school.id, a.loan.bookId)).toBe(1);
    expect(await auditEntriesOf("teacher", a.holder.teacher.id, "offline-loan.return")).toHaveLength(0);
  });
});

describe("the offline terms", () => {
  it("a new licence allows offline for 14 days; POST and PATCH take offlineAllowed and offlineDays (1 to 90)", async () => {
    const { admin, school, book, licence } = await loanSchool([]);
    expect(licence).toMatchObject({ offlineAllowed: true, offlineDays: 14 });
    const licences = client(admin).api.licences;
    for (const offlineDays of [0, 91, 2.5]) {
      const refused = await licences[":id"].$patch({ param: { id: String(licence.id) }, json: { offlineDays } });
      expect(refused.status).toBe(400);
      expect(await errorBody(refused)).toMatchObject({ error: OFFLINE_DAYS_RULE, field: "offlineDays" });
    }
    const changed = await okBody(
      licences[":id"].$patch({ param: { id: String(licence.id) }, json: { offlineAllowed: false, offlineDays: 90 } }),
    );
    expect(changed.licence).toMatchObject({ offlineAllowed: false, offlineDays: 90 });
    expect(await licenceOf(school.id, book.id)).toMatchObject({ offlineAllowed: false, offlineDays: 90 });
    const other = await createSchool({ slug: `terms-${crypto.randomUUID().slice(0, 8)}` });
    const made = await licences.$post({ json: { schoolId: other.id, bookId: book.id, startsOn: "2026-01-01", offlineDays: 7 } });
    expect(made.status).toBe(201);
    expect(await licenceOf(other.id, book.id)).toMatchObject({ offlineAllowed: true, offlineDays: 7 });
  });

  it("the assign screen's licence takes them from the form", async () => {
    const admin = await signedInAdmin();
    const { book } = await loanSchool([]);
    const school = await createSchool({ slug: `assign-${crypto.randomUUID().slice(0, 8)}` });
    const body = new URLSearchParams({
      intent: "assign",
      bookId: String(book.id),
      startsOn: "2026-08-01",
      endsOn: "",
      seats: "",
      offlineAllowed: "false",
      offlineDays: "30",
    });
    const post = await page(`/admin/assign-books/${school.id}`, { method: "POST", cookie: admin.cookie, body });
    expect(post.status).toBeLessThan(400);
    expect(await licenceOf(school.id, book.id)).toMatchObject({ offlineAllowed: false, offlineDays: 30 });
  });

  it("a school's offline books per teacher is 0 to 50", async () => {
    const admin = await signedInAdmin();
    const school = await createSchool({ slug: `cap-${crypto.randomUUID().slice(0, 8)}` });
    const put = (offlineBooksPerTeacher: number) =>
      client(admin).api.schools[":id"].$put({ param: { id: String(school.id) }, json: { offlineBooksPerTeacher } });
    const refused = await put(51);
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toBe(OFFLINE_BOOKS_RULE);
    expect((await put(0)).status).toBe(200);
    const html = await (await page(`/admin/school/${school.id}`, { cookie: admin.cookie })).text();
    expect(html).toContain("Offline books per teacher");
  });

  it("the licence CSV import takes offlineAllowed (yes/no) and offlineDays; an empty cell keeps the licence's own", async () => {
    const { admin, school, book, licence } = await loanSchool([]);
    await okBody(client(admin).api.licences[":id"].$patch({ param: { id: String(licence.id) }, json: { offlineDays: 30 } }));
    const imports = client(admin).api.licences.import;
    const row = { schoolId: String(school.id), bookId: String(book.id), startsOn: "2026-01-01" };
    const refused = await imports.$post({ json: { rows: [{ ...row, offlineAllowed: "maybe", offlineDays: "91" }] } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(OFFLINE_DAYS_RULE);
    await okBody(imports.$post({ json: { rows: [{ ...row, offlineAllowed: "no", offlineDays: "" }] } }));
    expect(await licenceOf(school.id, book.id)).toMatchObject({ offlineAllowed: false, offlineDays: 30 });
    await okBody(imports.$post({ json: { rows: [{ ...row, offlineAllowed: "Yes", offlineDays: "21" }] } }));
    expect(await licenceOf(school.id, book.id)).toMatchObject({ offlineAllowed: true, offlineDays: 21 });
    const other = await createSchool({ slug: `csv-${crypto.randomUUID().slice(0, 8)}` });
    await okBody(imports.$post({ json: { rows: [{ ...row, schoolId: String(other.id) }] } }));
    expect(await licenceOf(other.id, book.id)).toMatchObject({ offlineAllowed: true, offlineDays: 14 });
  });
});

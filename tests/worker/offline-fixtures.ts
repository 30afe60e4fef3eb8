// A school with a licence of a three-page book and teachers who read it, for the offline loan tests
// (docs/decisions/0050): every call is the request a script would send, through the whole Worker.
import { runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { OfflineLoanAnswerSchema } from "#shared/rules/offline-loan-schema.ts";
import { api, client, createSchool, jsonOf, okBody, schoolStub, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

export const tag = () => crypto.randomUUID().slice(0, 8);
export type Teacher = Awaited<ReturnType<typeof signedInTeacher>>;
export type Admin = Awaited<ReturnType<typeof signedInAdmin>>;

/** The licence terms a test gives: a seat limit and the offline terms (absent: the defaults). */
type Terms = { seats?: number | null; offlineAllowed?: boolean; offlineDays?: number; offlineBooksPerTeacher?: number };

export async function loanSchool(names: string[], terms: Terms = {}) {
  const admin = await signedInAdmin();
  const school = await createSchool({
    slug: `loans-${tag()}`,
    teacherLimit: 20,
    offlineBooksPerTeacher: terms.offlineBooksPerTeacher ?? 5,
  });
  const { book } = await preparedBook(`Loan Book ${tag()}`, [], ["One.", "Two.", "Three."]);
  const { offlineBooksPerTeacher: _cap, ...licenceTerms } = terms;
  const licence = await client(admin).api.licences.$post({
    json: { schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", ...licenceTerms },
  });
  expect(licence.status).toBe(201);
  const created = await okBody(licence);
  if (!("licence" in created)) throw new Error("One licence was asked for");
  const row = created.licence;
  const teachers: Teacher[] = [];
  for (const name of names) teachers.push(await signedInTeacher(school, name));
  return { admin, school, book, licence: row, teachers };
}

export const bookParam = (bookId: number) => ({ param: { id: String(bookId) } });
export const keep = (t: { cookie: string }, bookId: number) => client(t).api.books[":id"].offline.$post(bookParam(bookId));
/** A first keep of the book (201), answered with its loan. */
export async function kept(teacher: { cookie: string }, bookId: number) {
  const response = await keep(teacher, bookId);
  expect(response.status).toBe(201);
  return (await jsonOf(response, OfflineLoanAnswerSchema)).loan;
}
export const giveBack = (t: { cookie: string }, bookId: number) => client(t).api.books[":id"].offline.$delete(bookParam(bookId));
export const contact = (t: { cookie: string }) => client(t).api.teacher.offline.$get();
export const readPage = (t: { cookie: string }, bookId: number, n: number) =>
  client(t).api.books[":id"].pages[":n"].$get({ param: { id: String(bookId), n: String(n) } });
/** A page (or its text) downloaded for an offline copy: `offline=<loanId>` on the URL, as the browser (or a script) puts it. */
export const download = (t: { cookie: string }, bookId: number, n: number, loanId: string, what: "image" | "text" = "image") =>
  api(`/api/books/${bookId}/pages/${n}${what === "text" ? "/text" : ""}?offline=${encodeURIComponent(loanId)}`, { cookie: t.cookie });
export const reportReads = (t: { cookie: string }, bookId: number, loanId: string, reads: { n: number; at: number }[]) =>
  client(t).api.books[":id"].offline.reads.$post({ param: { id: String(bookId) }, json: { loanId, reads } });

/** A session's token hash, as the school's object keys it (the teacher's newest session). */
export async function tokenHashOf(schoolId: number, teacherId: number): Promise<string> {
  const stub = await schoolStub(schoolId);
  await stub.checkSession(schoolId, "none");
  return runInDurableObject(stub, (_instance, state) => {
    const [row] = state.storage.sql
      .exec<{ h: string }>("SELECT token_hash AS h FROM sessions WHERE teacher_id = ? ORDER BY created_at DESC LIMIT 1", teacherId)
      .toArray();
    return row!.h;
  });
}

/** A loan's row as the object stores it. */
export async function loanRow(schoolId: number, loanId: string) {
  const stub = await schoolStub(schoolId);
  return runInDurableObject(stub, (_instance, state) => {
    const [row] = state.storage.sql
      .exec<{ key: string | null; ended: string | null }>("SELECT key, ended FROM offline_loans WHERE id = ?", loanId)
      .toArray();
    return row ?? null;
  });
}

// A catalogue at once (issue 42, item 6; docs/decisions/0040), as a publisher's script sends it:
// the rows as JSON, checked with their row numbers, created all or none, then each book's PDF
// through its own upload routes, and the import's report following the platform's work.
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, bookImportRows, bookImports, books } from "../../workers/db/schema.ts";
import { PASSWORD_MESSAGE } from "../../workers/renderer/pdf-ranges.ts";
import { client, createBook, createSchool, db, errorBody, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { passwordPdf, readyBook, until, uploadThroughApi, wordsPdf } from "./page-job-fixtures.ts";

const unique = () => crypto.randomUUID().slice(0, 8);
/** A valid ISBN-13 no other test uses: 978 and nine random digits, with its check digit. */
function freshIsbn(): string {
  const stem = `978${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const sum = [...stem].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${stem}${(10 - (sum % 10)) % 10}`;
}
/** A row as the import page sends a CSV's row: every cell a string, keyed by the template's headers. */
const row = (title: string, extra: Record<string, string> = {}) => ({
  title,
  author1: "Ana Ruiz",
  author2: "",
  isbn: "",
  gradeLevel: "7",
  subject: "Geography",
  description: "",
  pdfFile: `${title.replace(/\W+/g, "-").toLowerCase()}.pdf`,
  coverFile: "",
  ...extra,
});

const bulk = (cookie: string) => client({ cookie }).api.books.bulk;
const countBooks = async () => (await db().select({ n: sql<number>`count(*)` }).from(books))[0]!.n;
const countImports = async () => (await db().select({ n: sql<number>`count(*)` }).from(bookImports))[0]!.n;
const report = (cookie: string, importId: string) => okBody(bulk(cookie)[":importId"].$get({ param: { importId } }));
const stateOf = async (cookie: string, importId: string, rowNumber: number) =>
  (await report(cookie, importId)).rows.find((r) => r.row === rowNumber)!;

const RefusalSchema = z.object({
  error: z.string(),
  rows: z.object({ rows: z.array(z.object({ row: z.number(), problems: z.array(z.object({ field: z.string(), message: z.string() })) })) }),
});
/** A refused import's sentence and each row's problems, checked to be there. */
const refusalOf = async (response: { json(): Promise<unknown> }) => RefusalSchema.parse(await response.json());
const problemsOf = (body: z.infer<typeof RefusalSchema>) =>
  body.rows.rows.flatMap((r) => r.problems.map((p) => [r.row, p.field, p.message]));

describe("POST /api/books/bulk: the rows checked, all or none", () => {
  it("names every problem with its row number and field, and creates nothing", async () => {
    const { cookie } = await signedInAdmin();
    const [books0, imports0] = [await countBooks(), await countImports()];
    const response = await bulk(cookie).$post({
      json: {
        rows: [
          row(`Fine ${unique()}`),
          row("", { author1: "", pdfFile: "" }),
          row(`Bad ISBN ${unique()}`, { isbn: "978-0-306-40615-8", gradeLevel: "13" }),
          row(`No PDF ${unique()}`, { pdfFile: "scans/book.docx", coverFile: "cover.gif" }),
        ],
        // A blank line in the file: the rows under it are one further down.
        rowNumbers: [2, 3, 5, 6],
      },
    });
    expect(response.status).toBe(400);
    const body = await refusalOf(response);
    expect(body.error).toBe("3 of 4 rows cannot be imported; nothing was saved.");
    expect(problemsOf(body)).toEqual([
      [3, "title", "Enter a title"],
      [3, "author1", "Enter the first author"],
      [3, "pdfFile", "Name the PDF file"],
      [5, "isbn", "This ISBN's check digit is wrong"],
      [5, "gradeLevel", "Grade must be 1 to 12"],
      [6, "pdfFile", "Give the file's name alone, without a folder"],
      [6, "pdfFile", "The PDF file must be a .pdf"],
      [6, "coverFile", "The cover file must be a .jpg, .png or .webp image"],
    ]);
    expect([await countBooks(), await countImports()]).toEqual([books0, imports0]);
  });

  it("refuses a PDF named twice and an ISBN twice in the file (400), and an ISBN the catalogue has (409)", async () => {
    const { cookie } = await signedInAdmin();
    const isbn = freshIsbn();
    const inFile = await bulk(cookie).$post({
      json: {
        rows: [
          row(`One ${unique()}`, { pdfFile: "Same.pdf", isbn }),
          row(`Two ${unique()}`, { pdfFile: "same.PDF" }),
          row(`Three ${unique()}`, { isbn: `${isbn.slice(0, 3)}-${isbn.slice(3)}` }),
        ],
      },
    });
    expect(inFile.status).toBe(400);
    expect(problemsOf(await refusalOf(inFile))).toEqual([
      [2, "pdfFile", "Row 2 has the same PDF file as row 3"],
      [2, "isbn", "Row 2 has the same ISBN as row 4"],
      [3, "pdfFile", "Row 3 has the same PDF file as row 2"],
      [4, "isbn", "Row 4 has the same ISBN as row 2"],
    ]);

    const existing = await createBook({ title: `Already Here ${unique()}`, isbn: `${isbn.slice(0, 3)}-${isbn.slice(3)}` });
    const clash = await bulk(cookie).$post({ json: { rows: [row(`New ${unique()}`), row(`Clash ${unique()}`, { isbn })] } });
    expect(clash.status).toBe(409);
    const body = await refusalOf(clash);
    expect(body.error).toBe("1 of 2 rows cannot be imported; nothing was saved.");
    expect(problemsOf(body)).toEqual([[3, "isbn", `A book with this ISBN exists: "${existing.title}" (book ${existing.id})`]]);
  });

  it("one bad row among many creates nothing; the check route says the same and saves nothing", async () => {
    const { cookie } = await signedInAdmin();
    const rows = [...Array.from({ length: 40 }, (_, i) => row(`Good ${i} ${unique()}`)), row(`Bad ${unique()}`, { gradeLevel: "Year 3" })];
    const before = await countBooks();
    const checked = await okBody(bulk(cookie).validate.$post({ json: { rows } }));
    expect(checked).toMatchObject({ invalid: 1, existing: 0 });
    expect(checked.rows[40]).toMatchObject({ row: 42, problems: [{ field: "gradeLevel", message: "Grade must be 1 to 12" }] });
    const response = await bulk(cookie).$post({ json: { rows } });
    expect(response.status).toBe(400);
    expect(await countBooks()).toBe(before);
  });

  it("takes the spreadsheet's own headers: Authors as 'A; B', Grade as 'Standard 4', PDF and Cover", async () => {
    const { cookie } = await signedInAdmin();
    const title = `Headers ${unique()}`;
    const created = await okBody(
      bulk(cookie).$post({
        json: {
          rows: [{ Title: title, Authors: "Kim Park; Sam Lee", Grade: "Standard 4", PDF: "h.pdf", Cover: "h.png", Extra: "ignored" }],
        },
      }),
    );
    const [book] = await db().select().from(books).where(eq(books.id, created.books[0]!.bookId));
    expect(book).toMatchObject({ title, author1: "Kim Park", author2: "Sam Lee", gradeLevel: 4, provisional: true, pdfKey: null });
    expect(created.books[0]).toMatchObject({ row: 2, pdfFile: "h.pdf", coverFile: "h.png" });
  });

  it("is for admins only: signed out and a teacher are refused and nothing is created", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const before = await countBooks();
    for (const cookie of [null, teacher.cookie]) {
      const asWho = client({ cookie }).api.books.bulk;
      const response = await asWho.$post({ json: { rows: [row(`Sneaky ${unique()}`)] } });
      expect(response.status).toBe(401);
      expect((await asWho[":importId"].$get({ param: { importId: "0123456789abcdef0123456789abcdef" } })).status).toBe(401);
    }
    expect(await countBooks()).toBe(before);
  });
});

describe("the import's books and report", () => {
  it("creates provisional books with their audit entries, answers their ids and files, and follows each one", async () => {
    const { cookie, admin } = await signedInAdmin();
    const titles = ["Ready", "Locked", "Waiting", "Uploading"].map((word) => `${word} ${unique()}`);
    const rows = titles.map((title, i) => row(title, i === 0 ? { coverFile: "ready.jpg", isbn: freshIsbn() } : {}));
    const created = await okBody(bulk(cookie).$post({ json: { rows } }));
    expect(created.books.map((b) => [b.row, b.title, b.pdfFile])).toEqual(rows.map((r, i) => [i + 2, r.title, r.pdfFile]));
    expect(created.books[0]!.coverFile).toBe("ready.jpg");
    const ids = created.books.map((b) => b.bookId);
    expect(ids).toEqual([ids[0]!, ids[0]! + 1, ids[0]! + 2, ids[0]! + 3]);
    const made = await db().select().from(books).where(inArray(books.id, ids)).orderBy(books.id);
    expect(made.map((b) => [b.id, b.title, b.provisional, b.gradeLevel])).toEqual(ids.map((id, i) => [id, titles[i], true, 7]));
    const audit = await db()
      .select()
      .from(auditLog)
      // Other tests' entities (schools, teachers) share these ids: only the books' creations.
      .where(and(eq(auditLog.entityType, "book"), eq(auditLog.action, "book.create"), inArray(auditLog.entityId, ids.map(String))));
    expect(audit).toHaveLength(4);
    expect(audit[0]).toMatchObject({ adminId: admin.id, action: "book.create", entityType: "book" });
    expect(audit[0]!.after).toMatchObject({ title: titles[0], id: ids[0], importId: created.importId });
    expect(await db().select().from(bookImportRows).where(eq(bookImportRows.importId, created.importId))).toHaveLength(4);

    const first = await report(cookie, created.importId);
    expect(first.rows.map((r) => [r.row, r.bookId, r.state])).toEqual(ids.map((id, i) => [i + 2, id, "waiting"]));
    expect(first.counts).toMatchObject({ waiting: 4, ready: 0 });

    // What a script does next: each book's PDF through its upload routes.
    await uploadThroughApi(cookie, ids[0]!, await wordsPdf(["One", "Two", "Three"]));
    await uploadThroughApi(cookie, ids[1]!, await passwordPdf());
    await okBody(client({ cookie }).api.books[":id"].upload.pdf.$post({ param: { id: String(ids[3]) }, json: { size: 1000 } }));

    await readyBook(ids[0]!);
    expect(await stateOf(cookie, created.importId, 2)).toMatchObject({ state: "ready", pageCount: 3, handled: 3, failed: 0 });
    const locked = await until("the locked row refused", async () => {
      const answer = await stateOf(cookie, created.importId, 3);
      return answer.state === "refused" ? answer : null;
    });
    expect(locked).toMatchObject({ reason: `${PASSWORD_MESSAGE} The book was not added either.`, title: titles[1] });
    expect(await db().select().from(books).where(eq(books.id, ids[1]!))).toEqual([]);
    const last = await report(cookie, created.importId);
    expect(last.rows.map((r) => r.state)).toEqual(["ready", "refused", "waiting", "uploading"]);
    expect(last.counts).toMatchObject({ ready: 1, refused: 1, waiting: 1, uploading: 1, preparing: 0 });
  });

  it("a report being prepared says how many pages are done of how many", async () => {
    const { cookie } = await signedInAdmin();
    const created = await okBody(bulk(cookie).$post({ json: { rows: [row(`Long ${unique()}`)] } }));
    const bookId = created.books[0]!.bookId;
    await uploadThroughApi(cookie, bookId, await wordsPdf(Array.from({ length: 12 }, (_, i) => `Page${i + 1}`)));
    const seen = new Set<string>();
    await until("the book ready", async () => {
      const answer = await stateOf(cookie, created.importId, 2);
      seen.add(answer.state);
      if (answer.state === "preparing") expect(answer.handled).toBeLessThanOrEqual(answer.pageCount ?? 12);
      return answer.state === "ready" ? answer : null;
    });
    expect(seen.has("preparing")).toBe(true);
    expect(await stateOf(cookie, created.importId, 2)).toMatchObject({ state: "ready", pageCount: 12, handled: 12 });
  });

  it("an unknown or malformed import id is 404", async () => {
    const { cookie } = await signedInAdmin();
    for (const id of ["0123456789abcdef0123456789abcdef", "nope"]) {
      const response = await bulk(cookie)[":importId"].$get({ param: { importId: id } });
      expect(response.status).toBe(404);
      expect((await errorBody(response)).error).toBe("Import not found");
    }
  });
});

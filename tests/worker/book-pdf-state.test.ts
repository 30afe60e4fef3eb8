// How a book's PDF shows on the pages that show it. A book's first PDF, uploaded through the API and
// assigned, before its pages exist, is a page set being prepared, not yet the book's
// (docs/decisions/0013): every page that shows the book's state says its pages are being
// prepared, never that it has no PDF.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { books } from "../../workers/db/schema.ts";
import { client, createBook, createSchool, db, jsonOf, ORIGIN, okBody, page, request, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook, twoPagePdf } from "./page-fixtures.ts";
import { holdPageJobs, releasePageJobs } from "./page-job-hold.ts";

const NO_PDF = "does not have a PDF file available";

/** The text a reader of the HTML sees: tags and React's text separators gone. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

let admin: string;
let teacher: string;
let slug: string;
let bookId: number;
let pdfSize: number;

/** The admin's upload, as the book page's uploader sends it: start, one part, complete. */
async function uploadPdf(id: number, bytes: Uint8Array<ArrayBuffer>, pageCount: number) {
  const upload = client({ cookie: admin }).api.books[":id"].upload.pdf;
  const started = await upload.$post({ param: { id: String(id) }, json: { size: bytes.length, pageCount } });
  expect(started.status).toBe(200);
  const { uploadId, partCount } = await okBody(started);
  expect(partCount).toBe(1);
  const part = await request(`${ORIGIN}/api/books/${id}/upload/pdf/${uploadId}/1`, {
    method: "PUT",
    headers: { Origin: ORIGIN, Cookie: admin, "Content-Type": "application/octet-stream" },
    body: bytes,
  });
  expect(part.status).toBe(200);
  // The part's route reads the raw bytes, so hc does not type its answer.
  const { etag } = await jsonOf(part, z.object({ etag: z.string() }));
  const done = await upload[":uploadId"].complete.$post({
    param: { id: String(id), uploadId },
    json: { parts: [{ partNumber: 1, etag }], pageCount },
  });
  expect(done.status).toBe(200);
}

// The book is looked at while its pages are being prepared: the renderer waits until the file is done.
afterAll(releasePageJobs);

beforeAll(async () => {
  holdPageJobs();
  admin = (await signedInAdmin()).cookie;
  const school = await createSchool();
  slug = school.slug;
  teacher = (await signedInTeacher(school)).cookie;
  const book = await createBook({ title: `Freshly Uploaded ${crypto.randomUUID().slice(0, 8)}` }, [school.id], { pdf: false });
  bookId = book.id;
  const bytes = await twoPagePdf(book.title, "A. Writer");
  pdfSize = bytes.length;
  await uploadPdf(book.id, bytes, 2);
});

describe("a book whose uploaded PDF's pages are being prepared", () => {
  it("teachers: the book says it is being prepared (page and API), and the reader says 'Almost ready'", async () => {
    const detail = await page(`/schools/${slug}/dashboard/book/${bookId}`, { cookie: teacher });
    expect(detail.status).toBe(200);
    const html = await detail.text();
    expect(html).toContain("This book is still being prepared. Please check back in a few minutes.");
    expect(html).not.toContain(NO_PDF);

    const answer = client({ cookie: teacher }).api.schools.slug[":slug"].books[":bookId"].$get({ param: { slug, bookId: String(bookId) } });
    const { book } = await okBody(answer);
    expect(book).toMatchObject({ hasPdf: true, readable: false });
    // The shelf's list says the same as the book's page.
    const listed = await okBody(client({ cookie: teacher }).api.schools.slug[":slug"].books.$get({ param: { slug }, query: {} }));
    expect(listed.books.find((b) => b.id === bookId)).toMatchObject({ hasPdf: true, readable: false });

    const reader = await page(`/schools/${slug}/dashboard/book/${bookId}/view`, { cookie: teacher });
    expect(reader.status).toBe(200);
    const readerHtml = await reader.text();
    expect(readerHtml).toContain("Almost ready");
    expect(readerHtml).not.toContain(NO_PDF);
  });

  it("admins: the book's page says 'Preparing pages' with the PDF's size and offers to replace it", async () => {
    const response = await page(`/admin/book/${bookId}`, { cookie: admin });
    expect(response.status).toBe(200);
    const text = textOf(await response.text());
    expect(text).toContain(`PDF: ${pdfSize < 1024 ? `${pdfSize} B` : `${Math.round(pdfSize / 1024)} KB`} · Preparing pages`);
    expect(text).not.toContain("PDF: none");
    expect(text).toContain("Replace PDF");
    expect(text).not.toContain("Add PDF");
    expect(text).toContain("Open in reader");

    const { book } = await okBody(client({ cookie: admin }).api.books[":id"].$get({ param: { id: String(bookId) } }));
    expect(book).toMatchObject({ pdfState: "preparing", pdfSize, pdfPath: null });
  });

  it("admins: the books list says 'Preparing pages' in its PDF column", async () => {
    const { title } = (await okBody(client({ cookie: admin }).api.books[":id"].$get({ param: { id: String(bookId) } }))).book;
    const text = textOf(await (await page(`/admin/books?query=${encodeURIComponent(title)}`, { cookie: admin })).text());
    expect(text).toContain(`${title}`);
    expect(text).toContain("Preparing pages");
    const listed = await okBody(client({ cookie: admin }).api.books.$get({ query: { query: title } }));
    expect(listed.books.find((b) => b.id === bookId)).toMatchObject({ pdfState: "preparing", pdfSize });
  });

  it("admins: the reader says 'Preparing pages' and leads to the book's page, not 'PDF not available'", async () => {
    const response = await page(`/admin/pdf/${bookId}`, { cookie: admin });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(textOf(html)).toContain("Preparing pages");
    expect(html).not.toContain("PDF not available");
    expect(html).toContain(`href="/admin/book/${bookId}"`);
  });
});

describe("the admin's book page", () => {
  it("gives the PDF's size in B, KB or MB: a 1 KB file is '1 KB', not '0.0 MB'", async () => {
    const { book } = await preparedBook(`Small File ${crypto.randomUUID().slice(0, 8)}`, [], ["One page.", "Two pages."]);
    for (const [size, shown] of [
      [1024, "1 KB"],
      [900, "900 B"],
      [3 * 1048576 + 300_000, "3.3 MB"],
    ] as const) {
      await db().update(books).set({ pdfSize: size }).where(eq(books.id, book.id));
      const text = textOf(await (await page(`/admin/book/${book.id}`, { cookie: admin })).text());
      expect(text).toContain(`PDF: ${shown}, 2 pages · Added`);
    }
  });
});

// The admin's reader (/admin/pdf/{id}) through the real route module: the prepared page images
// (what teachers read, unstamped for admins) with the PDF's download, the PDF itself in pdf.js on
// request or when the pages were never prepared, and the spec's failures.
import { beforeAll, describe, expect, it } from "vitest";
import { createBook, createSchool, page, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const LOADING_PDF = "Loading PDF viewer...";
/** The 'Back to Books' link of the toolbar and of the failure screens. */
const BACK_TO_BOOKS = /<a href="\/admin\/books"[^>]*>(?:<svg.*?<\/svg>)?(?:<span[^>]*>)?Back to Books</;
let cookie: string;

beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

async function html(path: string, status = 200) {
  const response = await page(path, { cookie });
  expect(response.status, path).toBe(status);
  return response.text();
}

describe("/admin/pdf/{id}", () => {
  it("shows a prepared book as its page images, with the download and a way to the PDF itself", async () => {
    const { book } = await preparedBook("Reader Pages", [], ["First page words.", "Second page words."]);
    const body = await html(`/admin/pdf/${book.id}`);
    // The first page is in the HTML as a plain image, as the teacher's reader has it: no pdf.js.
    expect(body).toMatch(new RegExp(`<img src="/api/books/${book.id}/pages/1\\?w=\\d+"`));
    expect(body).toContain('data-page-count="2"');
    expect(body).not.toContain(LOADING_PDF);
    expect(body).toContain(`href="/api/books/${book.id}/pdf" download=""`);
    expect(body).toContain(`href="/admin/pdf/${book.id}?view=pdf"`);
    expect(body).toMatch(BACK_TO_BOOKS);
  });

  it("?view=pdf opens the PDF in pdf.js instead", async () => {
    const { book } = await preparedBook("Reader PDF View", [], ["Only page."]);
    const body = await html(`/admin/pdf/${book.id}?view=pdf`);
    // Its toolbar (the way back to the pages, the download) comes once pdf.js has the file, in the browser.
    expect(body).toContain(LOADING_PDF);
    expect(body).not.toContain(`/api/books/${book.id}/pages/1?w=`);
  });

  it("opens a book whose pages were never prepared in pdf.js", async () => {
    const book = await createBook({ title: "Never Prepared" });
    const body = await html(`/admin/pdf/${book.id}`);
    expect(body).toContain(LOADING_PDF);
  });

  it("answers the spec's failures with 'Back to Books'", async () => {
    const none = await createBook({ title: "No File At All" }, [], { pdf: false });
    for (const [path, message] of [
      ["/admin/pdf/abc", "No book ID provided"],
      ["/admin/pdf/987654321", "Failed to load book details"],
      [`/admin/pdf/${none.id}`, "PDF not available"],
    ] as const) {
      const body = await html(path, 404);
      expect(body, path).toContain(message);
      expect(body, path).toMatch(BACK_TO_BOOKS);
    }
  });

  it("sends visitors and teachers to the admin login", async () => {
    const { book } = await preparedBook("Reader Guarded", [], ["A page."]);
    const teacher = await signedInTeacher(await createSchool());
    for (const who of [undefined, teacher.cookie]) {
      const response = await page(`/admin/pdf/${book.id}`, { cookie: who });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/admin\/login/);
    }
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { PDFDocument, PDFNumber, StandardFonts } from "pdf-lib";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { generateBookPdf } from "../../scripts/seed/book-pdf.ts";
import { baseURL, openPage, screenshot, setupBrowser } from "./browser.ts";
import { adminLogin, codeFromMail, execSql, uniqueEmail } from "./support.ts";

setupBrowser();

const stamp = Date.now().toString(36);
const NEW_SLUG = `maple-ridge-${stamp}`;
const BOOK_TITLE = `Maple Ridge Field Guide ${stamp}`;

const pagesPanel = (page: Page) => page.locator('section[aria-labelledby="pages-heading"]');

/** A PDF of small text pages made with pdf-lib; `breakPage` (0-based) is made impossible to open. */
async function smallPdf(pages: string[], breakPage?: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const words of pages) {
    const added = pdf.addPage([400, 300]);
    if (words) added.drawText(words, { x: 30, y: 250, size: 16, font });
  }
  // The page's dictionary becomes a number: that page cannot be opened, the others render.
  if (breakPage !== undefined) pdf.context.assign(pdf.getPage(breakPage).ref, PDFNumber.of(42));
  return pdf.save({ useObjectStreams: false });
}

async function addBookWithPdf(page: Page, title: string, bytes: Uint8Array) {
  const path = join(mkdtempSync(join(tmpdir(), "lectern-e2e-")), "book.pdf");
  writeFileSync(path, bytes);
  await page.goto(`${baseURL()}/admin/add-books`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Author", { exact: true }).fill("Test Author");
  await page.getByLabel("PDF").setInputFiles(path);
  await page
    .getByText(/\d+ pages?/)
    .first()
    .waitFor();
  await page.getByRole("button", { name: "Add Book" }).click();
  await page.waitForURL(/\/admin\/book\/\d+$/);
}

describe("the admin console", () => {
  it("sends visitors and teachers to the admin login, and works on admin.localhost", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/admin/books`);
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    await adminLogin(page, `http://admin.localhost:${inject("port")}`);
    expect(new URL(page.url()).host).toBe(`admin.localhost:${inject("port")}`);
    await screenshot(page, "admin-schools-1280");
  });

  it("imports schools, adds a book with its PDF, assigns it, raises the limit; a teacher registers and reads it", {
    timeout: 180_000,
  }, async () => {
    const page = await openPage({ allowStatus: [401, 404] });
    await adminLogin(page);

    // 1. Import two schools from a CSV file.
    const dir = mkdtempSync(join(tmpdir(), "lectern-e2e-"));
    const csv = join(dir, "schools.csv");
    writeFileSync(
      csv,
      [
        "schoolName,slug,address1,city,state,zipCode,email,principal,teacherLimit",
        `"Maple Ridge ${stamp}",${NEW_SLUG},"12 Maple Rd",Portland,OR,97201,office@maple.example.org,"Ana Lima",1`,
        `"Cedar Park ${stamp}",cedar-park-${stamp},"9 Cedar Ave",Austin,TX,78701,office@cedar.example.org,,10`,
      ].join("\n"),
    );
    await page.getByRole("link", { name: "Import Schools (CSV)" }).click();
    await page.getByLabel("CSV file").setInputFiles(csv);
    await page.getByText("Preview: 2 new, 0 already there, 0 with errors").waitFor();
    await screenshot(page, "admin-import-preview-1280");
    await page.getByRole("button", { name: "Save 2 new schools" }).click();
    await page.getByText("2 school(s) added.").waitFor();

    // 2. Add a book with a real PDF; the upload shows its progress.
    const pdfPath = join(dir, "field-guide.pdf");
    writeFileSync(
      pdfPath,
      await generateBookPdf({
        title: BOOK_TITLE,
        author1: "Rowan Ash",
        author2: null,
        subject: "Science",
        gradeLevel: 6,
        description: "Trees and birds.",
        isbn: null,
        publisher: "Lectern Press",
      }),
    );
    await page.getByRole("link", { name: "Add Books" }).click();
    await page.getByLabel("Title").fill(BOOK_TITLE);
    await page.getByLabel("Author", { exact: true }).fill("Rowan Ash");
    await page.getByLabel("Subject (optional)").fill("Science");
    await page.getByLabel("Grade level (optional)").selectOption("6");
    await page.getByLabel("PDF").setInputFiles(pdfPath);
    await page.getByText("24 pages").waitFor();
    // The bar can be up for a few milliseconds only (a small file on loopback): a watcher in the page
    // notes that it appeared, rather than a poll that may fall between two frames.
    await page.evaluate(() => {
      const seen = window as unknown as { uploadBarSeen: boolean };
      seen.uploadBarSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[role="progressbar"][aria-label="Upload progress"]')) seen.uploadBarSeen = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole("button", { name: "Add Book" }).click();
    await page.waitForURL(/\/admin\/book\/\d+$/);
    expect(await page.evaluate(() => (window as unknown as { uploadBarSeen: boolean }).uploadBarSeen)).toBe(true);
    await page.getByRole("heading", { name: BOOK_TITLE }).waitFor();
    // The platform prepares the pages (no browser needed): the book page follows their progress,
    // then says they are ready. A small book may be ready before the progress is ever seen.
    await page
      .getByRole("progressbar", { name: "Pages prepared" })
      .or(pagesPanel(page).getByText(/Ready: 24 pages/))
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshot(page, "admin-book-preparing-1280");
    await pagesPanel(page)
      .getByText(/Ready: 24 pages/)
      .waitFor({ timeout: 120_000 });
    await screenshot(page, "admin-book-1280");

    // 3. Assign it to the imported school.
    await page.getByLabel("Find schools").fill(NEW_SLUG);
    await page.getByRole("checkbox", { name: new RegExp(`Maple Ridge ${stamp}`) }).check();
    await page.getByRole("button", { name: /^Assign to selected/ }).click();
    await page.getByText("Assigned to 1 school(s).").waitFor();
    // The school's link in the assigned list (the seat table below names it too).
    const assigned = page.getByRole("listitem").getByRole("link", { name: `Maple Ridge ${stamp}` });
    await assigned.waitFor();

    // 4. The imported school has room for one teacher: raise it.
    await assigned.click();
    await page.getByRole("heading", { name: `Maple Ridge ${stamp}` }).waitFor();
    await page.getByLabel("Teachers allowed").fill("5");
    await page.getByRole("button", { name: "Save limit" }).click();
    await page.getByText("Teacher limit is now 5.").waitFor();
    await screenshot(page, "admin-school-1280");

    // 5. A teacher of the new school registers and reads the book.
    const teacher = await openPage({ allowStatus: [401, 404] });
    const email = uniqueEmail("maple");
    await teacher.goto(`${baseURL()}/${NEW_SLUG}`);
    await teacher.getByRole("button", { name: "Register here" }).click();
    const dialog = teacher.getByRole("dialog", { name: "Register as a Teacher" });
    await dialog.getByLabel("Full Name").fill("Iris Vale");
    await dialog.getByLabel("Mobile Number").fill("5551112222");
    await dialog.getByLabel("Email Address").fill(email);
    const sentAt = Date.now() - 1000;
    await dialog.getByRole("button", { name: "Send OTP" }).click();
    await dialog.getByPlaceholder("Enter 6-digit OTP").fill(await codeFromMail(email, sentAt));
    await dialog.getByRole("button", { name: "Verify OTP" }).click();
    await dialog.getByLabel("Password", { exact: true }).fill("willow branches sway");
    await dialog.getByLabel("Confirm Password").fill("willow branches sway");
    await dialog.getByRole("button", { name: "Complete Registration" }).click();
    await teacher.waitForURL(`${baseURL()}/schools/${NEW_SLUG}/dashboard`);
    const card = teacher.locator("main article").getByRole("link", { name: new RegExp(BOOK_TITLE) });
    const href = await card.getAttribute("href");
    await teacher.goto(`${baseURL()}${href}/view`);
    await teacher.locator('[data-page-number="1"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    expect(await teacher.locator("[data-reader]").getAttribute("data-page-count")).toBe("24");

    // 6. The teacher reads page 2 of the pages the platform prepared: its words are in the
    // page's accessible text, in Text view, and search inside the book finds them.
    await teacher.getByRole("button", { name: "Next page" }).click();
    await teacher.locator('[data-page-number="2"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    const pageTwo = teacher.getByRole("region", { name: "Page 2 of 24" });
    await expect.poll(async () => (await pageTwo.innerText()).length, { timeout: 15_000 }).toBeGreaterThan(100);
    const word = (await pageTwo.innerText()).split(/\s+/).find((w) => /^[A-Za-z]{7,}$/.test(w))!;
    expect(word).toBeTruthy();
    await teacher.getByRole("button", { name: "Text view" }).click();
    await teacher.getByRole("region", { name: "Text of page 2 of 24" }).getByText(word).first().waitFor();
    await teacher.getByRole("button", { name: "Text view" }).click();
    await teacher.getByRole("button", { name: "Search in book" }).click();
    await teacher.getByRole("searchbox", { name: "Search in book" }).fill(word);
    await teacher
      .getByRole("complementary", { name: "Search in book" })
      .getByRole("button", { name: /^Page \d+/ })
      .first()
      .waitFor();
    await screenshot(teacher, "admin-uploaded-book-read-1280");
  });

  it("names a page that cannot be rendered, and refuses a PDF whose every page is blank", { timeout: 120_000 }, async () => {
    const page = await openPage({ allowStatus: [401, 404, 422] });
    await adminLogin(page);
    await addBookWithPdf(page, `Partly Broken ${stamp}`, await smallPdf(["Page one words", "Page two words", "Page three words"], 1));
    const panel = pagesPanel(page);
    await panel.getByText(/Ready: \d+ pages, 1 could not be displayed/).waitFor({ timeout: 60_000 });
    await panel.getByText(/^Page 2: /).waitFor();
    await screenshot(page, "admin-book-failed-page-1280");

    await addBookWithPdf(page, `All Blank ${stamp}`, await smallPdf(["", ""]));
    await panel.getByText(/None of the 2 pages of this PDF could be rendered, so it was not added/).waitFor({ timeout: 60_000 });
    // A book added with that PDF is not kept: no empty record in the catalogue.
    await panel.getByText(/The book was not added either\./).waitFor();
    await screenshot(page, "admin-book-refused-pdf-1280");
    await panel.getByRole("link", { name: "Back to the books" }).click();
    await page.waitForURL(/\/admin\/books$/);
    const found = await page.evaluate(async (title) => {
      const answer = (await (await fetch(`/api/books?query=${encodeURIComponent(title)}`)).json()) as { books: { title: string }[] };
      return answer.books.map((book) => book.title);
    }, `All Blank ${stamp}`);
    expect(found).toEqual([]);
  });

  it("the Assign Book page gives one book to the schools picked, and assigning twice adds nothing", async () => {
    const school = `Assign Test ${stamp}`;
    await execSql(
      `INSERT INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit)
       VALUES ('assign-test-${stamp}', '${school}', '1 Test Road', 'Salem', 'OR', '97301', 'office@assign.example.org', 5)`,
    );
    const page = await openPage();
    await adminLogin(page);
    await page.getByRole("link", { name: "Assign Book" }).click();
    await page.getByRole("heading", { name: "Assign Book" }).waitFor();
    // No school list until a book is chosen.
    expect(await page.getByLabel("Find schools").count()).toBe(0);
    await page.getByPlaceholder("Title, author, ISBN...").fill("Counting Creatures");
    await expect.poll(() => page.getByRole("radio").count()).toBe(1);
    await page.getByRole("radio", { name: /Counting Creatures/ }).check();
    await page.getByLabel("Find schools").fill(`Assign Test ${stamp}`);
    // The schools' list only: the licence terms above it have their own "Offline reading allowed" box.
    const found = page.getByRole("group", { name: "Schools found" });
    await expect.poll(() => found.getByRole("checkbox").count()).toBe(1);
    await page.getByRole("checkbox", { name: new RegExp(school) }).check();
    await page.getByRole("button", { name: "Assign (1)" }).click();
    await page.getByText('"Counting Creatures" assigned to 1 school(s) (1 new).').waitFor();
    await screenshot(page, "admin-assign-book-1280");

    await page.getByRole("checkbox", { name: new RegExp(school) }).check();
    await page.getByRole("button", { name: "Assign (1)" }).click();
    await page.getByText('"Counting Creatures" assigned to 1 school(s) (0 new).').waitFor();
  });

  it("a school's page passes axe on a phone: links in text are underlined, the teachers' reading scrolls by keyboard", async () => {
    const page = await openPage({ width: 390, height: 844 });
    await adminLogin(page);
    const id = await page.evaluate(async () => {
      const answer = (await (await fetch("/api/schools?query=lincoln-high&pageSize=100")).json()) as {
        schools: { id: number; slug: string }[];
      };
      return answer.schools.find((s) => s.slug === "lincoln-high")!.id;
    });
    await page.goto(`${baseURL()}/admin/school/${id}`);
    await page.getByRole("heading", { name: "Assigned books" }).waitFor();
    // The demo's sample teachers have read: the table is there, wider than the phone, in a named region.
    const table = page.getByRole("region", { name: /Each teacher's reading/ });
    expect(await table.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await table.focus();
    expect(await table.evaluate((element) => element === document.activeElement)).toBe(true);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await screenshot(page, "admin-school-390");
  });

  it("the superadmin sees the figures, the accounts and the audit log", async () => {
    const page = await openPage();
    await page.goto(`${baseURL()}/superadmin/dashboard`);
    await page.waitForURL(/\/superadmin\/login/);
    await page.getByLabel("Email").fill(inject("demo").superadminEmail);
    await page.getByLabel("Password", { exact: true }).fill(inject("demo").superadminPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Superadmin Dashboard" }).waitFor();
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    // In the log's rows (the "what" filter lists the same actions as options).
    await page
      .getByRole("cell", { name: /create (school|book)/ })
      .first()
      .waitFor();
    await screenshot(page, "superadmin-1280");
  });
});

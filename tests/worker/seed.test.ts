import { env } from "cloudflare:test";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { COVER_WIDTHS } from "#shared/rules/book-category.ts";
import { generateBookPdf } from "../../scripts/seed/book-pdf.ts";
import { DEMO_BOOKS, demoBooksFor } from "../../scripts/seed/demo-books.ts";
import { DEMO_SCHOOLS } from "../../scripts/seed/demo-schools.ts";
import { type SeedAssets, seedDemo } from "../../scripts/seed/seed-demo.ts";
import { makeCoverRenditions } from "../../workers/books/cover-renditions.ts";

// A 1x1 PNG: covers are drawn with a Node-only canvas in `npm start`; the seed logic is what is tested here.
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);

const accounts = {
  adminEmail: "Admin@Lectern.test",
  adminPassword: "admin-password",
  superadminEmail: "super@lectern.test",
  superadminPassword: "super-password",
  teacherPassword: "teacher-password",
};

const assets: SeedAssets = {
  publisher: "Lectern Press",
  // Small PDFs keep the test quick; the full-size generator is checked on its own below.
  renderPdf: (book) => generateBookPdf(book, { pages: 2 }),
  renderCover: async () => ({ bytes: PNG, contentType: "image/png" }),
  makeCoverRenditions,
};

async function tableCounts() {
  const tables = ["schools", "books", "book_access", "teachers", "admins", "books_fts"];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? -1;
  }
  counts.objects = 0;
  let cursor: string | undefined;
  do {
    const listed = await env.BOOKS.list({ cursor });
    counts.objects += listed.objects.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return counts;
}

/** What the seed added: the worker's database and bucket hold other test files' rows too. */
function added(after: Record<string, number>, before: Record<string, number>) {
  return Object.fromEntries(Object.entries(after).map(([table, n]) => [table, n - (before[table] ?? 0)]));
}

/** The demo books' rows, by ISBN: `columns` of each. */
function demoBooksWhere(condition: string, columns = "title") {
  const isbns = DEMO_BOOKS.map((book) => `'${book.isbn}'`).join(", ");
  return env.DB.prepare(`SELECT ${columns} FROM books WHERE isbn IN (${isbns}) AND (${condition}) ORDER BY id`);
}

describe("seedDemo", () => {
  it("creates the demo world once, and a second run changes nothing", { timeout: 60_000 }, async () => {
    const before = await tableCounts();
    const first = await seedDemo(env, accounts, assets);
    const expectedAssignments = DEMO_SCHOOLS.reduce((n, s) => n + demoBooksFor(s).length, 0);
    expect(first).toEqual({
      schools: 5,
      books: DEMO_BOOKS.length,
      assignments: expectedAssignments,
      // Per book: a cover and its renditions, and a PDF but for one book.
      objects: (2 + COVER_WIDTHS.length) * DEMO_BOOKS.length - 1,
      accounts: 7,
    });
    const after = await tableCounts();

    const second = await seedDemo(env, accounts, assets);
    expect(second).toEqual({ schools: 0, books: 0, assignments: 0, objects: 0, accounts: 0 });
    expect(await tableCounts()).toEqual(after);

    expect(added(after, before)).toMatchObject({
      schools: 5,
      books: DEMO_BOOKS.length,
      books_fts: DEMO_BOOKS.length,
      teachers: 5,
      admins: 2,
      objects: first.objects,
    });
    const superadmin = await env.DB.prepare("SELECT role FROM admins WHERE email = 'super@lectern.test'").first<{ role: string }>();
    expect(superadmin?.role).toBe("superadmin");
    // Stored lower-cased, as every sign-in looks it up.
    expect(await env.DB.prepare("SELECT email, role FROM admins WHERE lower(email) = 'admin@lectern.test'").all()).toMatchObject({
      results: [{ email: "admin@lectern.test", role: "admin" }],
    });

    const withoutPdf = await demoBooksWhere("pdf_key IS NULL").all<{ title: string }>();
    expect(withoutPdf.results).toEqual([{ title: "World Atlas for Schools" }]);
    const missingFiles = await demoBooksWhere("cover_key IS NULL OR (pdf_key IS NOT NULL AND pdf_size IS NULL)").all();
    expect(missingFiles.results).toEqual([]);

    // A state seeded before covers had renditions gets them on the next run.
    const { cover_key: coverKey } = (await demoBooksWhere("1", "cover_key").first<{ cover_key: string }>())!;
    await env.BOOKS.delete(`${coverKey}.512.webp`);
    expect(await seedDemo(env, accounts, assets)).toMatchObject({ objects: COVER_WIDTHS.length });
    expect((await env.BOOKS.head(`${coverKey}.512.webp`))?.httpMetadata?.contentType).toBe("image/webp");
  });

  it("gives every school a different, overlapping set of books", () => {
    const sets = DEMO_SCHOOLS.map((s) => new Set(demoBooksFor(s).map((b) => b.isbn)));
    for (const [i, a] of sets.entries()) {
      expect(a.size).toBeGreaterThan(5);
      for (const b of sets.slice(i + 1)) {
        expect([...a].sort()).not.toEqual([...b].sort());
      }
    }
    const overlaps = sets.flatMap((a, i) => sets.slice(i + 1).map((b) => [...a].filter((x) => b.has(x)).length));
    expect(overlaps.filter((n) => n > 0).length).toBeGreaterThan(3);
  });

  it("has at least 24 books over several subjects and grades", () => {
    expect(DEMO_BOOKS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(DEMO_BOOKS.map((b) => b.subject)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(DEMO_BOOKS.map((b) => b.gradeLevel)).size).toBeGreaterThanOrEqual(12);
  });
});

describe("generateBookPdf", () => {
  it("writes a real multi-page PDF, the same bytes every time", async () => {
    const book = { ...DEMO_BOOKS[9]!, publisher: "Lectern Press" };
    const bytes = await generateBookPdf(book);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(20);
    expect(pdf.getTitle()).toBe(book.title);
    expect(await generateBookPdf(book)).toEqual(bytes);
  });
});

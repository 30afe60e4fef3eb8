import { and, eq, inArray } from "drizzle-orm";
import { chunks } from "#shared/chunks.ts";
import { dayOf, schoolYearOf } from "#shared/rules/licence.ts";
import { hashPassword } from "../../workers/auth/password.ts";
import { hasCoverRenditions, type MakeCoverRenditions, putCoverRenditions } from "../../workers/books/cover-store.ts";
import { getDb } from "../../workers/db/client.ts";
import { admins, bookAccess, books, schoolSignIn, schools, teachers } from "../../workers/db/schema.ts";
import type { DemoBookInfo } from "./book-pdf.ts";
import { DEMO_BOOKS, type DemoBook, demoBooksFor } from "./demo-books.ts";
import { DEMO_SCHOOLS, DEMO_TEACHER_NAME, demoSchoolDomain, demoTeacherEmail } from "./demo-schools.ts";

export const DEMO_PAGE_COUNT = 24;
/** The demo book each school has two seats of. */
const SHARED_BOOK = "Art Through the Ages";

export interface SeedAccounts {
  adminEmail: string;
  adminPassword: string;
  superadminEmail: string;
  superadminPassword: string;
  teacherPassword: string;
}

export interface SeedAssets {
  publisher: string;
  renderPdf(book: DemoBookInfo): Promise<Uint8Array>;
  renderCover(book: DemoBookInfo): Promise<{ bytes: Uint8Array; contentType: string }>;
  /** The Worker's own (workers/books/cover-renditions.ts), so the demo's covers are what an upload stores. */
  makeCoverRenditions: MakeCoverRenditions;
}

export interface SeedReport {
  schools: number;
  books: number;
  assignments: number;
  objects: number;
  accounts: number;
}

function objectKeys(book: DemoBook) {
  const id = book.isbn.replace(/-/g, "");
  return { pdfKey: book.hasPdf ? `demo/${id}/book.pdf` : null, coverKey: `demo/${id}/cover` };
}

function bookInfo(book: DemoBook, publisher: string): DemoBookInfo {
  return { ...book, publisher };
}

/** Makes the renditions of a stored demo cover that lacks them (states seeded before they existed too); how many were stored. */
async function ensureCoverRenditions(bucket: R2Bucket, coverKey: string, make: MakeCoverRenditions): Promise<number> {
  if (await hasCoverRenditions(bucket, coverKey)) return 0;
  const cover = await bucket.get(coverKey);
  if (!cover) throw new Error(`Demo cover ${coverKey} is missing`);
  const made = await make(new Uint8Array(await cover.arrayBuffer()), cover.httpMetadata?.contentType ?? "");
  if (!made.ok) throw new Error(`Demo cover ${coverKey}: ${made.failure.error}`);
  await putCoverRenditions(bucket, coverKey, made.value);
  return made.value.length;
}

/**
 * Puts the demo schools, books, files, assignments, sign-in settings and accounts in place.
 * Idempotent: every step looks for what is already there (by slug, ISBN, object key, school and
 * provider, e-mail), so a second run changes nothing and a run cut short is completed by the next.
 */
export async function seedDemo(env: { DB: D1Database; BOOKS: R2Bucket }, accounts: SeedAccounts, assets: SeedAssets): Promise<SeedReport> {
  const db = getDb(env.DB);
  const report: SeedReport = { schools: 0, books: 0, assignments: 0, objects: 0, accounts: 0 };

  // Files first: a book row never points at an object that is not there.
  const pdfSizes = new Map<string, number>();
  for (const book of DEMO_BOOKS) {
    const { pdfKey, coverKey } = objectKeys(book);
    const info = bookInfo(book, assets.publisher);
    if (!(await env.BOOKS.head(coverKey))) {
      const cover = await assets.renderCover(info);
      await env.BOOKS.put(coverKey, cover.bytes, { httpMetadata: { contentType: cover.contentType } });
      report.objects++;
    }
    report.objects += await ensureCoverRenditions(env.BOOKS, coverKey, assets.makeCoverRenditions);
    if (pdfKey) {
      let head = await env.BOOKS.head(pdfKey);
      if (!head) {
        const pdf = await assets.renderPdf(info);
        head = await env.BOOKS.put(pdfKey, pdf, { httpMetadata: { contentType: "application/pdf" } });
        report.objects++;
      }
      pdfSizes.set(book.isbn, head.size);
    }
  }

  const existingIsbns = new Set(
    (
      await db
        .select({ isbn: books.isbn })
        .from(books)
        .where(
          inArray(
            books.isbn,
            DEMO_BOOKS.map((b) => b.isbn),
          ),
        )
    ).map((r) => r.isbn),
  );
  const newBooks = DEMO_BOOKS.filter((book) => !existingIsbns.has(book.isbn));
  const schoolInsert = db
    .insert(schools)
    .values(DEMO_SCHOOLS.map(({ grades: _g, extraSubjects: _s, ...school }) => school))
    .onConflictDoNothing({ target: schools.slug })
    .returning({ id: schools.id });
  const bookInserts = newBooks.map((book) =>
    db
      .insert(books)
      .values({
        title: book.title,
        author1: book.author1,
        author2: book.author2,
        description: book.description,
        isbn: book.isbn,
        gradeLevel: book.gradeLevel,
        subject: book.subject,
        ...objectKeys(book),
        pdfSize: pdfSizes.get(book.isbn) ?? null,
        pageCount: book.hasPdf ? DEMO_PAGE_COUNT : null,
      })
      .returning({ id: books.id }),
  );
  const [createdSchools, ...createdBooks] = await db.batch([schoolInsert, ...bookInserts]);
  report.schools = createdSchools.length;
  report.books = createdBooks.reduce((n, rows) => n + rows.length, 0);

  // The demo's rows, new or from an earlier run, in one round trip.
  const demoSchools = inArray(
    schools.slug,
    DEMO_SCHOOLS.map((s) => s.slug),
  );
  const demoBooks = inArray(
    books.isbn,
    DEMO_BOOKS.map((b) => b.isbn),
  );
  const [schoolRows, bookRows] = await db.batch([
    db.select({ id: schools.id, slug: schools.slug }).from(schools).where(demoSchools),
    db.select({ id: books.id, isbn: books.isbn }).from(books).where(demoBooks),
  ]);
  const schoolIds = new Map(schoolRows.map((r) => [r.slug, r.id]));
  const bookIds = new Map(bookRows.map((r) => [r.isbn, r.id]));

  // Licences for this school year (docs/decisions/0028); one book a school shares by two seats, so
  // the seat reports have something to show.
  const year = schoolYearOf(dayOf(Date.now()));
  const licence = (schoolId: number, book: DemoBook) => ({
    schoolId,
    bookId: bookIds.get(book.isbn)!,
    ...year,
    seats: book.title === SHARED_BOOK ? 2 : null,
  });
  // 8 licences a statement: a licence row binds 11 values (the offline terms of decision 50 made
  // it 11), and D1 takes at most 100 in one statement.
  const assignmentInserts = DEMO_SCHOOLS.flatMap((school) =>
    chunks(demoBooksFor(school), 8).map((some) =>
      db
        .insert(bookAccess)
        .values(some.map((book) => licence(schoolIds.get(school.slug)!, book)))
        .onConflictDoNothing()
        .returning({ bookId: bookAccess.bookId }),
    ),
  );
  const created = await db.batch(assignmentInserts as [(typeof assignmentInserts)[number], ...typeof assignmentInserts]);
  report.assignments = created.reduce((n, rows) => n + rows.length, 0);

  // Sign-in with Google and Microsoft for addresses at the school's domain (docs/decisions/0029);
  // `npm start` runs local stand-ins for both. A school's settings an admin changed since stay.
  await db
    .insert(schoolSignIn)
    .values(
      DEMO_SCHOOLS.flatMap((school) =>
        (["google", "microsoft"] as const).map((provider) => ({
          schoolId: schoolIds.get(school.slug)!,
          provider,
          enabled: true,
          domains: [demoSchoolDomain(school.slug)],
          updatedAt: Date.now(),
        })),
      ),
    )
    .onConflictDoNothing();

  report.accounts += await ensureAdmin(db, accounts.adminEmail, "Demo Admin", accounts.adminPassword, "admin");
  report.accounts += await ensureAdmin(db, accounts.superadminEmail, "Demo Superadmin", accounts.superadminPassword, "superadmin");
  for (const school of DEMO_SCHOOLS) {
    const schoolId = schoolIds.get(school.slug)!;
    const email = demoTeacherEmail(school.slug);
    const [existing] = await db
      .select({ id: teachers.id })
      .from(teachers)
      .where(and(eq(teachers.schoolId, schoolId), eq(teachers.email, email)));
    if (existing) continue;
    const passwordHash = await hashPassword(accounts.teacherPassword);
    const rows = await db
      .insert(teachers)
      // Each school's demo teacher is its coordinator, so the demo shows "My school" (docs/decisions/0030).
      .values({ schoolId, name: DEMO_TEACHER_NAME, email, mobile: "5550100000", passwordHash, coordinator: true })
      .onConflictDoNothing()
      .returning({ id: teachers.id });
    report.accounts += rows.length;
  }
  return report;
}

async function ensureAdmin(db: ReturnType<typeof getDb>, email: string, name: string, password: string, role: "admin" | "superadmin") {
  const normalized = email.trim().toLowerCase();
  const [existing] = await db.select({ id: admins.id }).from(admins).where(eq(admins.email, normalized));
  if (existing) return 0;
  const rows = await db
    .insert(admins)
    .values({ email: normalized, name, role, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning({ id: admins.id });
  return rows.length;
}

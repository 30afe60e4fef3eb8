import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { isbn13FromStem } from "#shared/rules/isbn.ts";
import {
  admins,
  auditLog,
  bookAccess,
  books,
  loginEvents,
  otpCodes,
  readingProgress,
  schools,
  sessions,
  teachers,
  uploads,
} from "../../workers/db/schema.ts";
import { createSchool, db } from "./helpers.ts";

async function count(table: string, where: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).first<{ n: number }>();
  return row?.n ?? -1;
}

/** A school with a teacher who has done everything a teacher can leave rows behind for. */
async function populatedSchool() {
  const school = await createSchool();
  const [book] = await db().insert(books).values({ title: "Cascade Book", author1: "A. Author" }).returning();
  const [teacher] = await db()
    .insert(teachers)
    .values({ schoolId: school.id, name: "T", email: `t-${school.id}@x.test`, mobile: "5550000000", passwordHash: "x" })
    .returning();
  const now = Date.now();
  await db().batch([
    db().insert(bookAccess).values({ schoolId: school.id, bookId: book!.id }),
    db().insert(readingProgress).values({ teacherId: teacher!.id, bookId: book!.id, page: 3, updatedAt: now }),
    db()
      .insert(sessions)
      .values({
        tokenHash: crypto.randomUUID(),
        kind: "teacher",
        teacherId: teacher!.id,
        schoolId: school.id,
        lastSeenAt: now,
        expiresAt: now + 1e6,
      }),
    db()
      .insert(otpCodes)
      .values({ schoolId: school.id, email: "t@x.test", purpose: "register", codeHash: "h", expiresAt: now + 1e5 }),
    db().insert(loginEvents).values({ kind: "teacher", schoolId: school.id, teacherId: teacher!.id, at: now }),
    db().insert(uploads).values({ id: crypto.randomUUID(), bookId: book!.id, kind: "pdf", objectKey: "k", r2UploadId: "u" }),
  ]);
  return { school, book: book!, teacher: teacher! };
}

describe("foreign keys", () => {
  it("are enforced", async () => {
    await expect(db().insert(bookAccess).values({ schoolId: 999_999, bookId: 999_999 })).rejects.toThrow();
  });

  it("deleting a school removes its teachers, sessions, codes, assignments, progress and logins", async () => {
    const { school, book, teacher } = await populatedSchool();
    await db().delete(schools).where(eq(schools.id, school.id));
    expect(await count("teachers", `school_id = ${school.id}`)).toBe(0);
    expect(await count("sessions", `school_id = ${school.id} OR teacher_id = ${teacher.id}`)).toBe(0);
    expect(await count("otp_codes", `school_id = ${school.id}`)).toBe(0);
    expect(await count("book_access", `school_id = ${school.id}`)).toBe(0);
    expect(await count("reading_progress", `teacher_id = ${teacher.id}`)).toBe(0);
    expect(await count("login_events", `school_id = ${school.id}`)).toBe(0);
    // The book itself belongs to the catalogue, not the school.
    expect(await count("books", `id = ${book.id}`)).toBe(1);
  });

  it("deleting a book removes its assignments, progress and uploads", async () => {
    const { school, book, teacher } = await populatedSchool();
    await db().delete(books).where(eq(books.id, book.id));
    expect(await count("book_access", `book_id = ${book.id}`)).toBe(0);
    expect(await count("reading_progress", `book_id = ${book.id}`)).toBe(0);
    expect(await count("uploads", `book_id = ${book.id}`)).toBe(0);
    expect(await count("teachers", `id = ${teacher.id}`)).toBe(1);
    expect(await count("schools", `id = ${school.id}`)).toBe(1);
  });

  it("deleting an admin keeps the audit trail but drops their sessions", async () => {
    const [admin] = await db()
      .insert(admins)
      .values({ email: `gone-${Date.now()}@x.test`, name: "Gone", passwordHash: "x" })
      .returning();
    const now = Date.now();
    await db().batch([
      db().insert(auditLog).values({ adminId: admin!.id, adminEmail: admin!.email, action: "create", entityType: "school", at: now }),
      db()
        .insert(sessions)
        .values({ tokenHash: crypto.randomUUID(), kind: "admin", adminId: admin!.id, lastSeenAt: now, expiresAt: now + 1e6 }),
    ]);
    await db().delete(admins).where(eq(admins.id, admin!.id));
    expect(await count("sessions", `admin_id = ${admin!.id}`)).toBe(0);
    const [entry] = await db().select().from(auditLog).where(sql`${auditLog.adminEmail} = ${admin!.email}`);
    expect(entry).toMatchObject({ adminId: null, action: "create" });
  });
});

describe("books_fts", () => {
  async function search(query: string): Promise<number[]> {
    const { results } = await env.DB.prepare("SELECT rowid AS id FROM books_fts WHERE books_fts MATCH ?1 ORDER BY rank")
      .bind(query)
      .all<{ id: number }>();
    return results.map((r) => r.id);
  }

  it("follows every insert, update and delete of a book", async () => {
    // Words no other test's book has (the worker's database holds other files' books), and an ISBN of its own.
    const tag = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => String.fromCharCode(97 + (byte % 26))).join("");
    const isbn = isbn13FromStem(`978${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`);
    const [book] = await db()
      .insert(books)
      .values({
        title: `Zymurgy${tag} for Beginners`,
        author1: `Quintus${tag} Brewer`,
        subject: "Chemistry",
        isbn,
        description: "Fermentation.",
      })
      .returning();
    expect(await search(`zymurgy${tag}*`)).toEqual([book!.id]);
    expect(await search(`quintus${tag}`)).toEqual([book!.id]);
    expect(await search(isbn.replace(/-/g, ""))).toEqual([book!.id]);

    await db()
      .update(books)
      .set({ title: `Xylography${tag} Explained` })
      .where(eq(books.id, book!.id));
    expect(await search(`zymurgy${tag}*`)).toEqual([]);
    expect(await search(`xylography${tag}*`)).toEqual([book!.id]);

    await db().delete(books).where(eq(books.id, book!.id));
    expect(await search(`xylography${tag}*`)).toEqual([]);
  });
});

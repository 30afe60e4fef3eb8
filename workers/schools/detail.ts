import { eq, sql } from "drizzle-orm";
import { coverPath } from "#shared/rules/book-category.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, schools } from "../db/schema.ts";
import { schoolTeacherRows } from "../teachers/management.ts";
import { schoolRowColumns } from "./list.ts";

export async function findSchoolDetail(db: Db, schoolId: number) {
  const [[school], teacherRows] = await db.batch([
    db
      .select({ ...schoolRowColumns, sessionLimit: schools.sessionLimit, offlineBooksPerTeacher: schools.offlineBooksPerTeacher })
      .from(schools)
      .where(eq(schools.id, schoolId)),
    schoolTeacherRows(db, schoolId),
  ]);
  return school ? { ...school, teachers: teacherRows } : null;
}

export async function listSchoolBooksForAdmin(db: Db, schoolId: number) {
  const [[school], rows] = await db.batch([
    db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId)),
    db
      .select({
        id: books.id,
        title: books.title,
        author1: books.author1,
        author2: books.author2,
        isbn: books.isbn,
        gradeLevel: books.gradeLevel,
        subject: books.subject,
        coverKey: books.coverKey,
        version: sql<number>`coalesce(${books.updatedAt}, ${books.createdAt})`,
      })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(bookAccess.schoolId, schoolId))
      .orderBy(sql`${books.title} COLLATE NOCASE`, books.id),
  ]);
  if (!school) return null;
  return rows.map(({ coverKey, version, ...book }) => ({
    ...book,
    thumbnailPath: coverPath({ id: book.id, coverKey, createdAt: version }),
  }));
}

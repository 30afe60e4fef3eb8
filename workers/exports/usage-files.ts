/**
 * The reading usage of a data export (docs/decisions/0044): the per-teacher daily rollups
 * (reading_daily, the only usage rows that name a teacher) and the school's daily totals. The
 * caller flushes the school's object first, so what it still held is in D1.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { CsvValue } from "#shared/csv.ts";
import type { Db } from "../db/client.ts";
import { books, teachers } from "../db/schema.ts";
import { readingDaily, schoolUsageDaily } from "../db/usage-schema.ts";
import { liveEmail, liveName } from "../erasure/live-teachers.ts";
import type { Archive } from "./archive.ts";
import { PAGE_ROWS, type Progress, writeCsv } from "./tables.ts";

type UsageRow = {
  day: string;
  teacherId: number;
  /** Null for an erased teacher. */
  name: string | null;
  email: string | null;
  bookId: number;
  title: string;
  pages: number;
  seconds: number;
};

const USAGE_COLUMNS: [string, (r: UsageRow) => CsvValue][] = [
  ["day", (r) => r.day],
  ["teacher_id", (r) => r.teacherId],
  ["teacher_name", (r) => r.name],
  ["teacher_email", (r) => r.email],
  ["book_id", (r) => r.bookId],
  ["book_title", (r) => r.title],
  ["pages", (r) => r.pages],
  ["reading_seconds", (r) => r.seconds],
];

/**
 * Day by day, and in a day by (book, teacher): each page is one range of the primary key
 * (day, school_id, book_id, teacher_id), and the next day is found on (school_id, day); an
 * ORDER BY across days would sort every row of the school again for each page.
 */
export function readingUsageFile(archive: Archive, db: Db, scope: { schoolId: number; teacherId?: number }, progress?: Progress) {
  const { schoolId, teacherId } = scope;
  let day: string | null | undefined;
  const nextDay = async (after: string) => {
    const [row] = await db
      .select({ day: sql<string | null>`min(${readingDaily.day})` })
      .from(readingDaily)
      .where(
        and(
          eq(readingDaily.schoolId, schoolId),
          teacherId === undefined ? undefined : eq(readingDaily.teacherId, teacherId),
          gt(readingDaily.day, after),
        ),
      );
    return row?.day ?? null;
  };
  const pageOf = (on: string, after: { bookId: number; teacherId: number }) =>
    db
      .select({
        day: readingDaily.day,
        teacherId: readingDaily.teacherId,
        // An erased teacher's reading stays, with no name or address (decision 45).
        name: liveName,
        email: liveEmail,
        bookId: readingDaily.bookId,
        title: books.title,
        pages: readingDaily.pages,
        seconds: readingDaily.seconds,
      })
      .from(readingDaily)
      .innerJoin(teachers, eq(teachers.id, readingDaily.teacherId))
      .innerJoin(books, eq(books.id, readingDaily.bookId))
      .where(
        and(
          eq(readingDaily.day, on),
          eq(readingDaily.schoolId, schoolId),
          teacherId === undefined ? undefined : eq(readingDaily.teacherId, teacherId),
          sql`(${readingDaily.bookId}, ${readingDaily.teacherId}) > (${after.bookId}, ${after.teacherId})`,
        ),
      )
      .orderBy(asc(readingDaily.bookId), asc(readingDaily.teacherId))
      .limit(PAGE_ROWS);
  // writeCsv asks for a page after the last row; a short page means the day is done, so the next is read at once.
  const next = async (last: UsageRow | null): Promise<UsageRow[]> => {
    if (day === undefined) day = await nextDay("");
    let after = last && last.day === day ? { bookId: last.bookId, teacherId: last.teacherId } : { bookId: 0, teacherId: 0 };
    const rows: UsageRow[] = [];
    while (day !== null && rows.length < PAGE_ROWS) {
      const page = await pageOf(day, after);
      rows.push(...page);
      if (page.length === PAGE_ROWS) break;
      day = await nextDay(day);
      after = { bookId: 0, teacherId: 0 };
    }
    return rows;
  };
  return writeCsv(archive, "reading-usage.csv", USAGE_COLUMNS, next, progress);
}

/** The school's daily totals (no teacher named), oldest first. */
export function schoolUsageFile(archive: Archive, db: Db, schoolId: number, progress?: Progress) {
  const read = (last: { day: string } | null) =>
    db
      .select()
      .from(schoolUsageDaily)
      .where(and(eq(schoolUsageDaily.schoolId, schoolId), gt(schoolUsageDaily.day, last?.day ?? "")))
      .orderBy(asc(schoolUsageDaily.day))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (r: Row) => CsvValue][] = [
    ["day", (r) => r.day],
    ["active_teachers", (r) => r.activeTeachers],
    ["books_opened", (r) => r.booksOpened],
    ["pages", (r) => r.pages],
    ["reading_seconds", (r) => r.seconds],
  ];
  return writeCsv(archive, "school-usage-daily.csv", columns, read, progress);
}

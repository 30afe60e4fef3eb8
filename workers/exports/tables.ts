/**
 * The tabular files of a data export (docs/decisions/0044), each a CSV written a page of D1 rows
 * at a time (keyset pages on an index, never OFFSET), so a school of any size streams through.
 * Every query names the school (or the teacher) in its WHERE clause. No column holds a password
 * hash, a code, a token or a session: those are never selected.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type CsvValue, csvLines } from "#shared/csv.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, loginEvents, schools, teachers } from "../db/schema.ts";
import { liveEmail, liveTeacher } from "../erasure/live-teachers.ts";
import type { Archive } from "./archive.ts";

/** Rows per D1 read: small enough to keep an answer well under a megabyte. */
export const PAGE_ROWS = 500;

/** Called after every page written: the file and how many rows the export has written in all. */
export type Progress = (step: string, rows: number) => Promise<void>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A CSV file from pages that `next` reads after the last row of the previous page (null first). */
export async function writeCsv<Row>(
  archive: Archive,
  name: string,
  columns: ReadonlyArray<readonly [string, (row: Row) => CsvValue]>,
  next: (last: Row | null) => Promise<Row[]>,
  progress?: Progress,
): Promise<number> {
  const file = await archive.open(name);
  await file.write(`\uFEFF${csvLines([columns.map(([header]) => header)])}`);
  let last: Row | null = null;
  let count = 0;
  for (;;) {
    const rows = await next(last);
    if (rows.length) await file.write(csvLines(rows.map((row) => columns.map(([, cell]) => cell(row)))));
    count += rows.length;
    await progress?.(name, rows.length);
    if (rows.length < PAGE_ROWS) break;
    last = rows.at(-1)!;
  }
  await file.end();
  return count;
}

/** One page at most: for files of a single row or a bounded list. */
const once =
  <Row>(read: () => Promise<Row[]>) =>
  (last: Row | null) =>
    last ? Promise.resolve([]) : read();

export function schoolFile(archive: Archive, db: Db, schoolId: number) {
  type Row = typeof schools.$inferSelect;
  const columns: [string, (s: Row) => CsvValue][] = [
    ["id", (s) => s.id],
    ["slug", (s) => s.slug],
    ["name", (s) => s.name],
    ["address1", (s) => s.address1],
    ["address2", (s) => s.address2],
    ["address3", (s) => s.address3],
    ["city", (s) => s.city],
    ["state", (s) => s.state],
    ["zip_code", (s) => s.zipCode],
    ["email", (s) => s.email],
    ["principal", (s) => s.principal],
    ["teacher_limit", (s) => s.teacherLimit],
    ["session_limit", (s) => s.sessionLimit],
    ["total_logins", (s) => s.totalLogins],
    ["last_active_day", (s) => s.lastActiveDay],
    ["created_at", (s) => iso(s.createdAt)],
  ];
  return writeCsv(
    archive,
    "school.csv",
    columns,
    once(() => db.select().from(schools).where(eq(schools.id, schoolId))),
  );
}

export function licencesFile(archive: Archive, db: Db, schoolId: number, progress?: Progress) {
  const read = (last: { id: number } | null) =>
    db
      .select({
        id: bookAccess.id,
        bookId: bookAccess.bookId,
        title: books.title,
        isbn: books.isbn,
        startsOn: bookAccess.startsOn,
        endsOn: bookAccess.endsOn,
        seats: bookAccess.seats,
        note: bookAccess.note,
        createdAt: bookAccess.createdAt,
        updatedAt: bookAccess.updatedAt,
      })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(and(eq(bookAccess.schoolId, schoolId), gt(bookAccess.id, last?.id ?? 0)))
      .orderBy(asc(bookAccess.id))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (l: Row) => CsvValue][] = [
    ["licence_id", (l) => l.id],
    ["book_id", (l) => l.bookId],
    ["title", (l) => l.title],
    ["isbn", (l) => l.isbn],
    ["starts_on", (l) => l.startsOn],
    ["ends_on", (l) => l.endsOn],
    ["seats", (l) => l.seats],
    ["note", (l) => l.note],
    ["created_at", (l) => iso(l.createdAt)],
    ["updated_at", (l) => iso(l.updatedAt)],
  ];
  return writeCsv(archive, "licences.csv", columns, read, progress);
}

/** The school's teachers (or the one teacher): the columns a person would recognise, never the password hash. */
export function teachersFile(archive: Archive, db: Db, scope: { schoolId: number; teacherId?: number }, name: string, progress?: Progress) {
  const read = (last: { id: number } | null) =>
    db
      .select({
        id: teachers.id,
        name: teachers.name,
        email: teachers.email,
        mobile: teachers.mobile,
        coordinator: teachers.coordinator,
        disabled: teachers.disabled,
        lastActiveDay: teachers.lastActiveDay,
        readingSettings: teachers.readingSettings,
        createdAt: teachers.createdAt,
      })
      .from(teachers)
      .where(
        and(
          eq(teachers.schoolId, scope.schoolId),
          // An erased row is no person (decision 45): its reading stays in the usage files, unnamed.
          liveTeacher,
          scope.teacherId === undefined ? undefined : eq(teachers.id, scope.teacherId),
          gt(teachers.id, last?.id ?? 0),
        ),
      )
      .orderBy(asc(teachers.id))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (t: Row) => CsvValue][] = [
    ["teacher_id", (t) => t.id],
    ["name", (t) => t.name],
    ["email", (t) => t.email],
    ["mobile", (t) => t.mobile],
    ["coordinator", (t) => (t.coordinator ? "yes" : "no")],
    ["disabled", (t) => (t.disabled ? "yes" : "no")],
    ["last_active_day", (t) => t.lastActiveDay],
    ["reading_settings", (t) => (t.readingSettings === null ? null : JSON.stringify(t.readingSettings))],
    ["registered_at", (t) => iso(t.createdAt)],
  ];
  return writeCsv(archive, name, columns, read, progress);
}

/** Sign-ins of the school's teachers (or one teacher's), oldest first: the login history kept for them. */
export function signInsFile(archive: Archive, db: Db, scope: { schoolId: number; teacherId?: number }, progress?: Progress) {
  const read = (last: { id: number; at: number } | null) =>
    db
      .select({ id: loginEvents.id, at: loginEvents.at, teacherId: loginEvents.teacherId, email: liveEmail })
      .from(loginEvents)
      .leftJoin(teachers, eq(teachers.id, loginEvents.teacherId))
      .where(
        and(
          eq(loginEvents.schoolId, scope.schoolId),
          eq(loginEvents.kind, "teacher"),
          scope.teacherId === undefined ? undefined : eq(loginEvents.teacherId, scope.teacherId),
          last ? sql`(${loginEvents.at}, ${loginEvents.id}) > (${last.at}, ${last.id})` : undefined,
        ),
      )
      .orderBy(asc(loginEvents.at), asc(loginEvents.id))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (e: Row) => CsvValue][] = [
    ["signed_in_at", (e) => iso(e.at)],
    ["teacher_id", (e) => e.teacherId],
    ["teacher_email", (e) => e.email],
  ];
  return writeCsv(archive, "sign-ins.csv", columns, read, progress);
}

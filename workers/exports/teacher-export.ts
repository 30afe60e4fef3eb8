/**
 * "Download my data" (docs/decisions/0044): what Lectern holds about the signed-in teacher, as a
 * ZIP built while it is sent (a teacher's data is small: a few hundred rollup rows a year, their
 * notes). The same files as a school export, scoped to the one teacher, plus their devices,
 * favourites and reading progress. Every read takes the teacher from the checked session.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import type { CsvValue } from "#shared/csv.ts";
import type { TeacherSession } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { books, favourites, readingProgress } from "../db/schema.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { type Archive, openArchive, streamSink } from "./archive.ts";
import { writeNotes } from "./notes-files.ts";
import { teacherReadme } from "./readme.ts";
import { PAGE_ROWS, signInsFile, teachersFile, writeCsv } from "./tables.ts";
import { readingUsageFile } from "./usage-files.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/** The ZIP's bytes as they are made, and its file name. A failure part-way ends the stream with an error (the download fails, never a truncated file that looks whole). */
export async function teacherDataArchive(
  context: { db: Db; env: HotState },
  session: TeacherSession,
  now = Date.now(),
): Promise<{ body: ReadableStream<Uint8Array>; fileName: string }> {
  const { db, env } = context;
  const { school, teacher } = session;
  const scope = { schoolId: school.id, teacherId: teacher.id };
  // Usage and reading progress the school's object still holds go to D1 first.
  await schoolObject(env, school.id)
    .flush(school.id)
    .catch((error: unknown) => log.error("Usage not flushed for the teacher's export", { schoolId: school.id, error }));
  const { sink, readable } = streamSink();
  const archive = openArchive(sink, new Date(now));
  const build = async () => {
    await archive.add("README.md", teacherReadme({ name: teacher.name, school: school.name }, now));
    await teachersFile(archive, db, scope, "account.csv");
    await signInsFile(archive, db, scope);
    await devicesFile(archive, env, scope);
    await readingUsageFile(archive, db, scope);
    await favouritesFile(archive, db, teacher.id);
    await progressFile(archive, db, teacher.id);
    await writeNotes(archive, db, env, scope, false, now);
    await archive.finish();
  };
  build().catch(async (error: unknown) => {
    log.error("Teacher's data export failed", { teacherId: teacher.id, error });
    await sink.abort(error);
  });
  const day = new Date(now).toISOString().slice(0, 10);
  return { body: readable, fileName: `lectern-my-data-${day}.zip` };
}

/** The devices the teacher is signed in on, from their school's object: never the session's token or its hash. */
async function devicesFile(archive: Archive, env: HotState, scope: { schoolId: number; teacherId: number }) {
  const rows = await schoolObject(env, scope.schoolId).listSessions(scope.schoolId, scope.teacherId);
  const devices = rows.map((row) => ({ device: row.device, signedInAt: row.createdAt, lastSeenAt: row.lastSeenAt }));
  const columns: [string, (d: (typeof devices)[number]) => CsvValue][] = [
    ["device", (d) => d.device],
    ["signed_in_at", (d) => iso(d.signedInAt)],
    ["last_seen_at", (d) => iso(d.lastSeenAt)],
  ];
  return writeCsv(archive, "devices.csv", columns, async (last) => (last ? [] : devices));
}

function favouritesFile(archive: Archive, db: Db, teacherId: number) {
  const read = (last: { bookId: number } | null) =>
    db
      .select({ bookId: favourites.bookId, title: books.title, createdAt: favourites.createdAt })
      .from(favourites)
      .innerJoin(books, eq(books.id, favourites.bookId))
      .where(and(eq(favourites.teacherId, teacherId), last ? gt(favourites.bookId, last.bookId) : undefined))
      .orderBy(asc(favourites.bookId))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (r: Row) => CsvValue][] = [
    ["book_id", (r) => r.bookId],
    ["title", (r) => r.title],
    ["starred_at", (r) => iso(r.createdAt)],
  ];
  return writeCsv(archive, "favourites.csv", columns, read);
}

function progressFile(archive: Archive, db: Db, teacherId: number) {
  const read = (last: { bookId: number } | null) =>
    db
      .select({ bookId: readingProgress.bookId, title: books.title, page: readingProgress.page, updatedAt: readingProgress.updatedAt })
      .from(readingProgress)
      .innerJoin(books, eq(books.id, readingProgress.bookId))
      .where(and(eq(readingProgress.teacherId, teacherId), last ? gt(readingProgress.bookId, last.bookId) : undefined))
      .orderBy(asc(readingProgress.bookId))
      .limit(PAGE_ROWS);
  type Row = Awaited<ReturnType<typeof read>>[number];
  const columns: [string, (r: Row) => CsvValue][] = [
    ["book_id", (r) => r.bookId],
    ["title", (r) => r.title],
    ["page", (r) => r.page],
    ["updated_at", (r) => iso(r.updatedAt)],
  ];
  return writeCsv(archive, "reading-progress.csv", columns, read);
}

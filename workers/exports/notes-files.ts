/**
 * Each teacher's bookmarks, highlights and notes in a data export (docs/decisions/0044): one
 * Markdown file per teacher and book, written by the reader's own "Export notes" writer
 * (reading/notes-markdown.ts). They live in the school's object, read a page at a time in teacher,
 * book, page order, so one (teacher, book) group is held at a time. An annotation whose teacher is
 * not a teacher of this school in D1 (a teacher removed since) is left out.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client.ts";
import { books, teachers } from "../db/schema.ts";
import { annotationsMarkdown, fileSlug } from "../reading/notes-markdown.ts";
import type { Annotation, ExportCursor } from "../school-object/annotations.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import type { Archive } from "./archive.ts";
import type { Progress } from "./tables.ts";

/** Annotations per call to the school's object (a book holds at most 1,000 of one teacher's). */
const OBJECT_PAGE = 1_000;

type Group = { teacherId: number; bookId: number; annotations: Annotation[] };

/**
 * Writes the files; `folder` names a teacher's folder (the school export: `notes/12-ana-diaz/`),
 * or null for the teacher's own export (`notes/`). Returns how many files it wrote.
 */
export async function writeNotes(
  archive: Archive,
  db: Db,
  hot: HotState,
  scope: { schoolId: number; teacherId?: number },
  folder: boolean,
  now: number,
  progress?: Progress,
): Promise<number> {
  const object = schoolObject(hot, scope.schoolId);
  const names = new Map<number, string>();
  const titles = new Map<number, string>();
  let files = 0;
  let group: Group | null = null;

  const write = async (done: Group) => {
    const teacher = names.get(done.teacherId);
    if (teacher === undefined) return;
    const title = titles.get(done.bookId) ?? `Book ${done.bookId}`;
    const file = `${done.bookId}-${fileSlug(title, "book")}.md`;
    const path = folder ? `notes/${done.teacherId}-${fileSlug(teacher, "teacher")}/${file}` : `notes/${file}`;
    await archive.add(path, annotationsMarkdown(title, done.annotations, null, now));
    files++;
  };

  let after: ExportCursor | null = null;
  for (;;) {
    const page = await object.annotationsForExport(scope.schoolId, { after, teacherId: scope.teacherId, limit: OBJECT_PAGE });
    if (page.length === 0) break;
    await lookUp(db, scope.schoolId, page, names, titles);
    for (const { teacherId, bookId, ...annotation } of page) {
      if (group && (group.teacherId !== teacherId || group.bookId !== bookId)) {
        await write(group);
        group = null;
      }
      group ??= { teacherId, bookId, annotations: [] };
      group.annotations.push(annotation);
    }
    await progress?.("notes", page.length);
    const last = page.at(-1)!;
    after = { teacherId: last.teacherId, bookId: last.bookId, page: last.page, id: last.id };
    if (page.length < OBJECT_PAGE) break;
  }
  if (group) await write(group);
  return files;
}

/** The names of this page's teachers (of this school only) and its books' titles not yet known. */
async function lookUp(
  db: Db,
  schoolId: number,
  page: { teacherId: number; bookId: number }[],
  names: Map<number, string>,
  titles: Map<number, string>,
) {
  const teacherIds = [...new Set(page.map((a) => a.teacherId))].filter((id) => !names.has(id));
  const bookIds = [...new Set(page.map((a) => a.bookId))].filter((id) => !titles.has(id));
  const [people, titled] = await Promise.all([
    teacherIds.length
      ? db
          .select({ id: teachers.id, name: teachers.name })
          .from(teachers)
          .where(and(eq(teachers.schoolId, schoolId), among(teachers.id, teacherIds)))
      : [],
    bookIds.length ? db.select({ id: books.id, title: books.title }).from(books).where(among(books.id, bookIds)) : [],
  ]);
  for (const person of people) names.set(person.id, person.name);
  for (const book of titled) titles.set(book.id, book.title);
}

/** `column IN (ids)` with the ids as one JSON parameter: D1 binds at most 100 parameters a statement. */
const among = (column: SQLiteColumn, ids: number[]): SQL => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

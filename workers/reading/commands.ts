/**
 * A teacher's writes about their reading, as commands (docs/decisions/0027-commands.md): starring
 * a book of their school ('My books') and saving where they are in one. Each runs for the signed-in
 * teacher only; the book comes from the path (laid over the body by the API's adapter). A book of
 * another school is 404 exactly like a book that does not exist.
 */
import { z } from "zod";
import { editTimeRefusal } from "#shared/rules/offline-sync.ts";
import { teacherCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import { idFrom } from "../validation/schemas.ts";
import { starBook, unstarBook } from "./favourites.ts";
import { findSchoolBook } from "./library.ts";
import { saveProgress } from "./progress.ts";

const BOOK_NOT_FOUND = { kind: "not-found", error: "Book not found" } as const;

const BookInPath = z.object({ id: z.unknown() });

/** Stars the book for the teacher; idempotent. */
export const starBookCommand = teacherCommand(BookInPath, async ({ db, who }, input) => {
  const bookId = idFrom(input.id);
  if (!bookId || !(await starBook(db, who.teacherId, who.schoolId, bookId))) return failed(BOOK_NOT_FOUND);
  return done({ bookId, starred: true });
});

/** Unstars the book for the teacher; idempotent. */
export const unstarBookCommand = teacherCommand(BookInPath, async ({ db, who }, input) => {
  const bookId = idFrom(input.id);
  if (!bookId || !(await unstarBook(db, who.teacherId, who.schoolId, bookId))) return failed(BOOK_NOT_FOUND);
  return done({ bookId, starred: false });
});

export const ProgressSchema = z.object({
  bookId: z.unknown(),
  page: z.number().int().min(1).max(100_000),
  /** When the client settled on the page (ms), for a position saved offline and sent later (docs/decisions/0051). */
  editedAt: z.number("The edit time must be a number of milliseconds").optional(),
});

/**
 * Where the teacher is in a book of their school: the reader saves it on each settled page and
 * pings while the teacher is active (the page, and reading time, kept by the school's object). With
 * `editedAt`, the later position wins: `applied` false when a later one is kept.
 */
export const saveProgressCommand = teacherCommand(ProgressSchema, async ({ db, env, who }, { bookId: rawId, page, editedAt }) => {
  const bookId = idFrom(rawId);
  const book = bookId ? await findSchoolBook(db, who.schoolId, bookId) : null;
  if (!book) return failed(BOOK_NOT_FOUND);
  if (book.pageCount && page > book.pageCount)
    return failed({ kind: "invalid", error: `This book has ${book.pageCount} pages`, field: "page" });
  const refused = editedAt === undefined ? null : editTimeRefusal(editedAt, Date.now());
  if (refused) return failed({ kind: "invalid", error: refused, field: "editedAt" });
  const applied = await saveProgress(env, who, book.id, page, Date.now(), { editedAt, db });
  return done({ bookId: book.id, page, applied });
});

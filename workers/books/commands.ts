import { z } from "zod";
import { adminCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import { checkLicenceDays, LicenceTermsSchema } from "../licences/input.ts";
import { AssignBooksSchema } from "../schools/books.ts";
import { SchoolIdSchema } from "../schools/input.ts";
import { idFrom } from "../validation/schemas.ts";
import { assignToAllSchools, grantAccess, revokeAccess } from "./access.ts";
import { findBook } from "./detail.ts";
import { createBook, deleteBook, updateBook } from "./editing.ts";
import { AccessParamSchema, BookCreateSchema, BookFields, GrantAccessSchema, someBookField } from "./input.ts";

/**
 * The admins' writes to books and their assignments, each once (docs/decisions/0027-commands.md):
 * the API's /api/books routes and the console's Add Books, book, Assign Book and a school's
 * Assign Books pages run these.
 */

const BOOK_NOT_FOUND = { kind: "not-found", error: "Book not found" } as const;
const NOT_ASSIGNED = { kind: "not-found", error: "That school does not have that book" } as const;
/** A book's id as the URL or the form carries it: anything malformed is a book that does not exist (idFrom). */
const BookRef = z.unknown();

export const createBookCommand = adminCommand(BookCreateSchema, async ({ db, actor }, input) =>
  done({ book: await createBook(db, actor, input) }),
);

export const updateBookCommand = adminCommand(
  z.object({ id: BookRef, ...z.object(BookFields).partial().shape }).refine(...someBookField),
  async ({ db, actor }, { id, ...change }) => {
    const bookId = idFrom(id);
    const book = bookId ? await updateBook(db, actor, bookId, change) : null;
    return book ? done({ book }) : failed(BOOK_NOT_FOUND);
  },
);

export const deleteBookCommand = adminCommand(z.object({ id: BookRef }), async ({ db, env, actor }, { id }) => {
  const bookId = idFrom(id);
  return bookId && (await deleteBook(db, env.BOOKS, actor, bookId)) ? done({}) : failed(BOOK_NOT_FOUND);
});

/** Every (school, book) pair assigned; those assigned already change nothing. */
export const grantAccessCommand = adminCommand(GrantAccessSchema, async ({ db, env, actor }, input) => {
  const result = await grantAccess(db, env, actor, input);
  return result.ok ? done({ created: result.created }) : failed({ kind: "invalid", error: result.error });
});

/** Many books to one school (a school's Assign Books page). */
export const assignBooksCommand = adminCommand(
  z.object({ schoolId: SchoolIdSchema, ...AssignBooksSchema.shape, ...LicenceTermsSchema.shape }).superRefine(checkLicenceDays),
  async ({ db, env, actor }, { schoolId, bookIds, ...terms }) => {
    const result = await grantAccess(db, env, actor, { schoolIds: [schoolId], bookIds, ...terms });
    return result.ok
      ? done({ created: result.created, assigned: new Set(bookIds).size })
      : failed({ kind: "invalid", error: result.error });
  },
);

export const revokeAccessCommand = adminCommand(AccessParamSchema, async ({ db, env, actor }, { schoolId, bookId }) =>
  (await revokeAccess(db, env, actor, schoolId, bookId)) ? done({}) : failed(NOT_ASSIGNED),
);

export const assignToAllSchoolsCommand = adminCommand(z.object({ id: BookRef }), async ({ db, actor }, { id }) => {
  const bookId = idFrom(id);
  const book = bookId ? await findBook(db, bookId) : null;
  return book ? done({ assigned: await assignToAllSchools(db, actor, book.id) }) : failed(BOOK_NOT_FOUND);
});

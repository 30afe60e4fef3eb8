/** The books admins upload, and the catalogue's version that caches of it are checked against. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./timestamps.ts";

export const books = sqliteTable(
  "books",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    author1: text("author1").notNull().default(""),
    author2: text("author2"),
    description: text("description").notNull().default(""),
    isbn: text("isbn"),
    gradeLevel: integer("grade_level"),
    subject: text("subject"),
    coverKey: text("cover_key"),
    pdfKey: text("pdf_key"),
    pdfSize: integer("pdf_size"),
    pageCount: integer("page_count"),
    // The ready page set teachers read (page_sets.id); null until the book's first one is complete.
    pageSetId: text("page_set_id"),
    // Added together with its PDF (the Add Books page): until that PDF's pages are accepted, a
    // refusal removes the book too, so a refused add leaves no empty book (complete-set.ts).
    provisional: integer("provisional", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }),
  },
  (t) => [index("books_created_at_idx").on(t.createdAt), index("books_title_idx").on(t.title)],
);

/**
 * The catalogue's one version (one row, id 1): raised by triggers on every insert, change and delete
 * of a book (migration 0020), whoever writes it. What is kept per school that shows books (the
 * dashboard's shelf, workers/reading/shelf-cache.ts) is stale once it moves; licences have each
 * school's own version in its object.
 */
export const catalogueState = sqliteTable("catalogue_state", {
  id: integer("id").primaryKey(),
  booksVersion: integer("books_version").notNull().default(0),
});

/** The book a row belongs to, for the tables whose rows go when their book does. */
export const bookIdColumn = () =>
  integer("book_id")
    .notNull()
    .references(() => books.id, { onDelete: "cascade" });

export type Book = typeof books.$inferSelect;

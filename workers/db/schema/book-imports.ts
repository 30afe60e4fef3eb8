import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { admins } from "./people.ts";
import { createdAt } from "./timestamps.ts";

/**
 * A catalogue loaded at once (docs/decisions/0040): the CSV's rows became books together, and
 * their files follow one by one. `first_book_id` is the id the first row's book took: the batch
 * that creates the books gives row i the id first_book_id + i.
 */
export const bookImports = sqliteTable("book_imports", {
  id: text("id").primaryKey(),
  adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
  rowCount: integer("row_count").notNull(),
  firstBookId: integer("first_book_id").notNull(),
  createdAt: createdAt(),
});

/**
 * One row of an import: the book it made and the files it expects. The book id is not a foreign
 * key: a book whose PDF is refused is removed, and its row stays to say so.
 */
export const bookImportRows = sqliteTable(
  "book_import_rows",
  {
    importId: text("import_id")
      .notNull()
      .references(() => bookImports.id, { onDelete: "cascade" }),
    // The row's number in the file as a spreadsheet shows it (the header is row 1).
    row: integer("row").notNull(),
    bookId: integer("book_id").notNull(),
    title: text("title").notNull(),
    pdfFile: text("pdf_file").notNull(),
    coverFile: text("cover_file"),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);

/** What a teacher keeps of their reading: starred books and the page they were on. */
import { index, integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { books } from "./catalogue.ts";
import { teachers } from "./people.ts";
import { createdAt } from "./timestamps.ts";

/** Books a teacher starred ("My books"). */
export const favourites = sqliteTable(
  "favourites",
  {
    teacherId: integer("teacher_id")
      .notNull()
      .references(() => teachers.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teacherId, t.bookId] }), index("favourites_book_idx").on(t.bookId)],
);

export const readingProgress = sqliteTable(
  "reading_progress",
  {
    teacherId: integer("teacher_id")
      .notNull()
      .references(() => teachers.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teacherId, t.bookId] }),
    index("reading_progress_book_idx").on(t.bookId),
    index("reading_progress_teacher_updated_idx").on(t.teacherId, t.updatedAt),
  ],
);

/** What a teacher keeps of their reading: starred books and the page they were on. */
import { index, integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { bookIdColumn } from "./catalogue.ts";
import { teacherIdColumn } from "./people.ts";
import { createdAt } from "./timestamps.ts";

// Both tables hold one row per teacher and book (their primary key), gone with either.
const teacherAndBook = { teacherId: teacherIdColumn(), bookId: bookIdColumn() };

/** Books a teacher starred ("My books"). */
export const favourites = sqliteTable(
  "favourites",
  {
    ...teacherAndBook,
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teacherId, t.bookId] }), index("favourites_book_idx").on(t.bookId)],
);

export const readingProgress = sqliteTable(
  "reading_progress",
  {
    ...teacherAndBook,
    page: integer("page").notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teacherId, t.bookId] }),
    index("reading_progress_book_idx").on(t.bookId),
    index("reading_progress_teacher_updated_idx").on(t.teacherId, t.updatedAt),
  ],
);

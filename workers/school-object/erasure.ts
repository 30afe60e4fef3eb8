/**
 * Erasure in the school's object (docs/decisions/0045): everything it holds of these teachers goes
 * (their name and address, sessions, seats, page budgets, reading marks, unsent reading progress,
 * seat refusals, bookmarks, highlights and notes, offline loans and their reads), in the caller's transaction. Their unsent usage
 * (`pending`) stays: it names only the teacher's id, which D1 now holds as an erased row with no
 * person in it, and the next flush adds it to the school's figures as it would have.
 */

/** The tables that hold a teacher's rows, by their `teacher_id`. */
const BY_TEACHER = ["sessions", "seats", "budgets", "reading_days", "progress", "seat_refusals", "annotations", "offline_loans"] as const;

/** Erases what the object holds of `teacherIds`; how many of them it knew (its `teachers` rows). Repeating it is harmless. */
export function eraseTeachers(sql: SqlStorage, teacherIds: readonly number[]): number {
  if (teacherIds.length === 0) return 0;
  const ids = JSON.stringify(teacherIds);
  sql.exec(
    "DELETE FROM offline_reads WHERE loan_id IN (SELECT id FROM offline_loans WHERE teacher_id IN (SELECT value FROM json_each(?)))",
    ids,
  );
  for (const table of BY_TEACHER) sql.exec(`DELETE FROM ${table} WHERE teacher_id IN (SELECT value FROM json_each(?))`, ids);
  return sql.exec("DELETE FROM teachers WHERE id IN (SELECT value FROM json_each(?))", ids).rowsWritten;
}

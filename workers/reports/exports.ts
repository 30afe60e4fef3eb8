/** Each report as CSV: the columns of every export, and its file name. */
import type { CsvColumns } from "#shared/csv.ts";
import type { LicenceSeatDay } from "../licences/seat-use.ts";
import type { SchoolReading, StopBucket, TeacherUsage } from "./detail.ts";
import type { DayRange } from "./range.ts";
import type { InactiveSchool, Ranked } from "./rankings.ts";
import type { UsageDay } from "./usage.ts";

export const USAGE_COLUMNS: CsvColumns<UsageDay> = [
  ["date", (d) => d.date],
  ["activeTeachers", (d) => d.activeTeachers],
  ["booksOpened", (d) => d.booksOpened],
  ["pagesRead", (d) => d.pagesRead],
  ["readingMinutes", (d) => d.readingMinutes],
];

/** A ranked book's or school's row (top books, top schools, the schools reading a book). */
export const RANKED_COLUMNS = (idHeader: "bookId" | "schoolId", nameHeader: "title" | "school"): CsvColumns<Ranked | SchoolReading> => [
  [idHeader, (r) => r.id],
  [nameHeader, (r) => r.name],
  ["readers", (r) => r.readers],
  ["pagesRead", (r) => r.pagesRead],
  ["readingMinutes", (r) => r.readingMinutes],
];

export const TEACHER_COLUMNS: CsvColumns<TeacherUsage> = [
  ["teacherId", (t) => t.id],
  ["name", (t) => t.name],
  ["email", (t) => t.email],
  ["status", (t) => (t.disabled ? "disabled" : "active")],
  ["lastActive", (t) => t.lastActiveDay],
  ["booksOpened", (t) => t.booksOpened],
  ["pagesRead", (t) => t.pagesRead],
  ["readingMinutes", (t) => t.readingMinutes],
];

/** A licence's day (GET /api/reports/seats?format=csv): its peak readers at once and the teachers turned away. */
export const SEAT_DAY_COLUMNS: CsvColumns<LicenceSeatDay> = [
  ["date", (d) => d.day],
  ["licenceId", (d) => d.licenceId],
  ["schoolId", (d) => d.schoolId],
  ["school", (d) => d.school],
  ["bookId", (d) => d.bookId],
  ["title", (d) => d.title],
  ["seats", (d) => d.seats ?? ""],
  ["peakReaders", (d) => d.peakReaders],
  ["turnedAway", (d) => d.turnedAway],
];

export const INACTIVE_COLUMNS: CsvColumns<InactiveSchool> = [
  ["schoolId", (s) => s.id],
  ["school", (s) => s.name],
  ["slug", (s) => s.slug],
  ["teachers", (s) => s.teachers],
  ["lastActive", (s) => s.lastActiveDay ?? "never"],
];

export const STOP_COLUMNS: CsvColumns<StopBucket> = [
  ["fromPage", (b) => b.from],
  ["toPage", (b) => b.to],
  ["readers", (b) => b.readers],
];

/** `lectern-{what}-{from}-to-{to}.csv`, the subject's id in `what` when there is one. */
export function exportFileName(what: string, range?: DayRange): string {
  return `lectern-${what}${range ? `-${range.from}-to-${range.to}` : ""}.csv`;
}

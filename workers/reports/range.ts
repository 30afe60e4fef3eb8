/** Report ranges: whole UTC days, `from` and `to` included, at most MAX_RANGE_DAYS. */
import { z } from "zod";
import { dayOf, isDay } from "#shared/rules/licence.ts";
import { IdTextSchema } from "../validation/schemas.ts";

export const MAX_RANGE_DAYS = 366;
/** The overview's range choices, in days ending today. */
export const RANGE_CHOICES = [7, 30, 90, 365] as const;
export type RangeChoice = (typeof RANGE_CHOICES)[number];

const DAY_MS = 86_400_000;

export interface DayRange {
  from: string;
  to: string;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Every day of the range, oldest first. */
export function daysOf(range: DayRange): string[] {
  const first = dayNumber(range.from);
  return Array.from({ length: dayNumber(range.to) - first + 1 }, (_, i) => dayOf((first + i) * DAY_MS));
}

/** The `days` days ending today (UTC). */
export function lastDays(days: number, now = Date.now()): DayRange {
  return { from: dayOf(now - (days - 1) * DAY_MS), to: dayOf(now) };
}

/** The first and last millisecond of the range, for timestamps (epoch ms) stored outside the rollups. */
export function rangeMillis(range: DayRange): { start: number; end: number } {
  return { start: dayNumber(range.from) * DAY_MS, end: (dayNumber(range.to) + 1) * DAY_MS - 1 };
}

const DAY_MESSAGE = "Dates must be real days written YYYY-MM-DD";
const DaySchema = z
  .string({ error: "Give the range as from=YYYY-MM-DD&to=YYYY-MM-DD" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_MESSAGE)
  .refine(isDay, DAY_MESSAGE);

export const RangeQuerySchema = z
  .object({ from: DaySchema, to: DaySchema })
  .refine((range) => range.from <= range.to, { error: "The range ends before it starts: from must be on or before to", path: ["to"] })
  .refine((range) => dayNumber(range.to) - dayNumber(range.from) + 1 <= MAX_RANGE_DAYS, {
    error: `A report covers at most ${MAX_RANGE_DAYS} days`,
    path: ["to"],
  });

/** The range the console's pages show when none is chosen (rangeChoice's default): the last 30 days. */
export const DEFAULT_RANGE_DAYS = 30 satisfies RangeChoice;

const given = (value: unknown) => (value === undefined || value === "" ? undefined : value);

/**
 * A range query whose days may be left out, as the console's pages default them: no `to` is today,
 * no `from` the DEFAULT_RANGE_DAYS days ending on `to` (neither: the last 30 days). What is given
 * is checked as RangeQuerySchema checks it.
 */
export const DefaultedRangeQuerySchema = z.preprocess((query) => {
  if (typeof query !== "object" || query === null) return query;
  const { from, to } = query as { from?: unknown; to?: unknown };
  const end = given(to) ?? dayOf(Date.now());
  const start =
    given(from) ?? (typeof end === "string" && isDay(end) ? lastDays(DEFAULT_RANGE_DAYS, Date.parse(`${end}T00:00:00Z`)).from : undefined);
  return { ...query, from: start, to: end };
}, RangeQuerySchema);

const optionalId = (message: string) => z.preprocess((value) => (value === "" ? undefined : value), IdTextSchema(message).optional());

/** `GET /api/reports/...` query: a range, optionally narrowed to a school and/or a book, as JSON or CSV. */
export const ReportQuerySchema = z.intersection(
  RangeQuerySchema,
  z.object({
    schoolId: optionalId("The school id must be a whole number"),
    bookId: optionalId("The book id must be a whole number"),
    format: z.enum(["json", "csv"], { error: "The format must be json or csv" }).default("json"),
  }),
);
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

/** The overview's `?range=` (7, 30, 90 or 365), anything else the default 30. */
export function rangeChoice(value: string | null | undefined): RangeChoice {
  const days = Number(value);
  return (RANGE_CHOICES as readonly number[]).includes(days) ? (days as RangeChoice) : DEFAULT_RANGE_DAYS;
}

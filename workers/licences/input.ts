/** The zod pieces of a licence's input, for the commands and for the assign calls (workers/books/input.ts). */
import { z } from "zod";
import { isDay } from "../../app/lib/rules/licence.ts";

export const MAX_SEATS = 100_000;

/** A day in a request or a CSV: YYYY-MM-DD, a real date. */
export const DaySchema = z
  .string({ error: "Give the date as YYYY-MM-DD" })
  .trim()
  .refine(isDay, "Give the date as YYYY-MM-DD, a real date (for example 2026-08-01)");
export const END_BEFORE_START = "The licence must end on or after the day it starts";

export const SeatsSchema = z
  .number({ error: "Seats must be a whole number from 1, or null for no limit" })
  .int("Seats must be a whole number from 1, or null for no limit")
  .min(1, "A licence has at least 1 seat (null for no limit)")
  .max(MAX_SEATS, `A licence has at most ${MAX_SEATS.toLocaleString("en-US")} seats`);

/**
 * The licence terms an assignment may carry (the assign screens, /api/books/access): without them a
 * new licence starts today with no end and no seat limit, as assignments always did.
 */
export const LicenceTermsSchema = z.object({
  startsOn: DaySchema.optional(),
  endsOn: DaySchema.nullable().optional(),
  seats: SeatsSchema.nullable().optional(),
});
export const endNotBeforeStart: [(terms: { startsOn?: string; endsOn?: string | null }) => boolean, { path: string[]; message: string }] = [
  (terms) => !terms.endsOn || !terms.startsOn || terms.endsOn >= terms.startsOn,
  { path: ["endsOn"], message: "The licence must end on or after the day it starts" },
];

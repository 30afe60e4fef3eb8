/** The zod pieces of a licence's input, for the commands and for the assign calls (workers/books/input.ts). */
import { z } from "zod";
import { dayOf, isDay } from "#shared/rules/licence.ts";
import { isOfflineDays, OFFLINE_DAYS_DEFAULT, OFFLINE_DAYS_RULE } from "#shared/rules/offline.ts";

export const MAX_SEATS = 100_000;

/** A day in a request or a CSV: YYYY-MM-DD, a real date. */
export const DaySchema = z
  .string({ error: "Give the date as YYYY-MM-DD" })
  .trim()
  .refine(isDay, "Give the date as YYYY-MM-DD, a real date (for example 2026-08-01)");

export const END_BEFORE_START = "The licence must end on or after the day it starts";

/**
 * The one rule between a licence's days (docs/decisions/0028), for every writer: the assign calls,
 * the licences API's create and change, the CSV import. A licence ends on or after its first day
 * (no end: it runs on). Checked on the terms as they will be stored, defaults resolved, so a
 * missing start cannot hide an end in the past.
 */
export function endsBeforeStart(terms: { startsOn: string; endsOn: string | null }): boolean {
  return terms.endsOn !== null && terms.endsOn < terms.startsOn;
}

/** The rule as a schema's check: the one sentence, on `endsOn`. A missing start is its own field's problem. */
export function checkLicenceDays(terms: { startsOn?: string; endsOn?: string | null }, ctx: z.RefinementCtx) {
  // zod runs this even when a field failed, so either may not be text.
  const { startsOn, endsOn = null } = terms;
  if (typeof startsOn === "string" && (endsOn === null || typeof endsOn === "string") && endsBeforeStart({ startsOn, endsOn }))
    ctx.addIssue({ code: "custom", path: ["endsOn"], message: END_BEFORE_START });
}

/** Days a book may be kept offline under the licence (shared/rules/offline.ts). */
export const OfflineDaysSchema = z.number({ error: OFFLINE_DAYS_RULE }).refine(isOfflineDays, OFFLINE_DAYS_RULE);
export const OfflineAllowedSchema = z.boolean({ error: "Offline allowed is true or false" });

/** A CSV cell, trimmed; empty is absent (the licence keeps its own term, a new one takes the default). */
const cellOf = (value: unknown) => {
  const cell = typeof value === "number" ? String(value) : value;
  return typeof cell === "string" && cell.trim() === "" ? undefined : typeof cell === "string" ? cell.trim() : cell;
};
/** The import's offlineAllowed cell: yes/no (or true/false), any case. */
export const OfflineAllowedCellSchema = z.preprocess((value) => {
  const cell = cellOf(value);
  return typeof cell === "string" && /^(yes|no|true|false)$/i.test(cell) ? /^(yes|true)$/i.test(cell) : cell;
}, z.boolean({ error: "yes or no, or empty" }).optional());
/** The import's offlineDays cell: 1 to 90. */
export const OfflineDaysCellSchema = z.preprocess((value) => {
  const cell = cellOf(value);
  return typeof cell === "string" && /^\d{1,3}$/.test(cell) ? Number(cell) : cell;
}, OfflineDaysSchema.optional());

export const SeatsSchema = z
  .number({ error: "Seats must be a whole number from 1, or null for no limit" })
  .int("Seats must be a whole number from 1, or null for no limit")
  .min(1, "A licence has at least 1 seat (null for no limit)")
  .max(MAX_SEATS, `A licence has at most ${MAX_SEATS.toLocaleString("en-US")} seats`);

/**
 * The licence terms an assignment may carry (the assign screens, /api/books/access): without them a
 * new licence starts today (UTC) with no end and no seat limit, as assignments always did. The
 * start is filled in here, before checkLicenceDays, not by the database's default afterwards.
 */
export const LicenceTermsSchema = z.object({
  startsOn: DaySchema.default(() => dayOf(Date.now())),
  endsOn: DaySchema.nullable().default(null),
  seats: SeatsSchema.nullable().default(null),
  offlineAllowed: OfflineAllowedSchema.default(true),
  offlineDays: OfflineDaysSchema.default(OFFLINE_DAYS_DEFAULT),
});

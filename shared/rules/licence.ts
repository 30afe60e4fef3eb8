/**
 * A licence's days (docs/decisions/0028), the same rules for the Worker and the browser. Days are
 * UTC calendar days written YYYY-MM-DD (as the usage reports count them); a licence runs from its
 * first day to its last, both included, or on without an end.
 */
import { OFFLINE_DAYS_DEFAULT } from "./offline.ts";

export type LicenceState = "scheduled" | "active" | "expired";

/** The UTC day of a moment, YYYY-MM-DD: the one day formatter of the Worker and the browser (the usage reports, the school object, the stamp's mark, licences). */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether `day` is a real calendar day written YYYY-MM-DD (no 2027-02-30). */
export function isDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && dayOf(parsed.getTime()) === day;
}

/** The day `days` after (or before) `day`. */
export function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);
}

/** Scheduled before its first day, expired after its last, else active. */
export function licenceState(licence: { startsOn: string; endsOn: string | null }, today: string): LicenceState {
  if (licence.startsOn > today) return "scheduled";
  if (licence.endsOn !== null && licence.endsOn < today) return "expired";
  return "active";
}

/** The school year a day falls in: 1 August to 31 July (the default period of a new licence). */
export function schoolYearOf(day: string): { startsOn: string; endsOn: string } {
  const year = Number(day.slice(0, 4));
  const start = day.slice(5) >= "08-01" ? year : year - 1;
  return { startsOn: `${start}-08-01`, endsOn: `${start + 1}-07-31` };
}

/** A new licence's terms on the assign screens before the admin changes them: the school year of `today`, no seat limit, offline reading allowed for the default days. */
export function defaultLicenceTerms(today: string): {
  startsOn: string;
  endsOn: string;
  seats: string;
  offlineAllowed: boolean;
  offlineDays: string;
} {
  return { ...schoolYearOf(today), seats: "", offlineAllowed: true, offlineDays: String(OFFLINE_DAYS_DEFAULT) };
}

/**
 * A licence renewed for the next school year: one running on (active or scheduled) keeps its first
 * day and runs to the end of the school year after the one it ends in (31 July 2027 becomes 31 July
 * 2028; 15 March 2027 too, with the months between); an expired one runs for today's school year.
 * An open-ended licence has nothing to renew (null).
 */
export function renewed(licence: { startsOn: string; endsOn: string | null }, today: string): { startsOn: string; endsOn: string } | null {
  if (licence.endsOn === null) return null;
  if (licenceState(licence, today) === "expired") return schoolYearOf(today);
  const next = schoolYearOf(addDays(schoolYearOf(licence.endsOn).endsOn, 1));
  return { startsOn: licence.startsOn, endsOn: next.endsOn };
}

/** Days from `today` to the licence's last day (0 on it), or null when it has no end. */
export function daysLeft(licence: { endsOn: string | null }, today: string): number | null {
  if (licence.endsOn === null) return null;
  return Math.round((Date.parse(`${licence.endsOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** How many days before its end a teacher's card says "Available until ...". */
export const ENDING_SOON_DAYS = 14;

/** A day as people read it: "Jul 31, 2027". */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

/** What a teacher is told on the page and the reader when their school's licence for a book has ended. */
export function licenceEndedMessage(endsOn: string): string {
  return `Your school's licence for this book ended on ${formatDay(endsOn)}.`;
}

/** What the sixth teacher of a five-seat book is told. */
export function noSeatMessage(seats: number): string {
  return `All ${seats} ${seats === 1 ? "copy" : "copies"} of this book are in use at your school. Try again in a few minutes.`;
}

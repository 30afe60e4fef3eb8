/**
 * Work done offline, sent later (issue 45 item 4, docs/decisions/0051-offline-sync.md): the bounds on
 * the edit time a client gives and the sentences the teacher reads when an offline change lost to a
 * newer one. Shared by the Worker, which checks and refuses, and the reader, which shows; no zod and
 * no Worker or browser modules here (the reader's island imports it).
 */
import { OFFLINE_DAYS_MAX } from "./offline.ts";

/** How far ahead of the server's clock a client's edit time may be (clocks drift; a minute or two is normal). */
export const EDIT_TIME_SKEW_MS = 2 * 60_000;
/**
 * How old a client's edit time may be: as long as a book may be kept offline, plus a day of grace.
 * Older is refused: no offline session lasts longer, so it can only be a clock gone wrong or a script.
 */
export const EDIT_TIME_MAX_AGE_MS = (OFFLINE_DAYS_MAX + 1) * 24 * 3600_000;

/** Why an edit time is refused, or null: not a whole number of ms, in the future beyond the skew, or too old. */
export function editTimeRefusal(editedAt: number, now: number): string | null {
  if (!Number.isSafeInteger(editedAt)) return "The edit time must be a whole number of milliseconds.";
  if (editedAt > now + EDIT_TIME_SKEW_MS) return "The edit time is in the future: check this device's clock.";
  if (editedAt < now - EDIT_TIME_MAX_AGE_MS) return "This change is older than any offline copy can be, so it cannot be applied.";
  return null;
}

/** An offline change arrived after a newer one made elsewhere: 409 `edited-elsewhere`, the newer one kept. */
export const EDITED_ELSEWHERE = "This was changed on another device after your offline change; the newer change was kept.";
/** An offline deletion arrived after a newer change made elsewhere: 409 `edited-elsewhere`, nothing deleted. */
export const DELETE_EDITED_ELSEWHERE =
  "This was changed on another device after you deleted it offline, so it was kept with the newer change.";
/** The status an `edited-elsewhere` answer carries (beside `error` and `annotation`, the one kept). */
export const EDITED_ELSEWHERE_STATUS = "edited-elsewhere";
/** A client id already names one of the teacher's annotations in another book: 409. */
export const CLIENT_ID_TAKEN = "This change's id was already used for another annotation.";

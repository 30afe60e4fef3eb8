import { formatDay } from "#shared/rules/licence.ts";

import type { BatchTerms } from "../../../../workers/codes/batches.ts";

/** The licence's length: days counted from the redemption, or a fixed last day. */
export function lengthText({ days, endsOn }: Pick<BatchTerms, "days" | "endsOn">): string {
  if (days !== null) return `${days.toLocaleString("en-US")} ${days === 1 ? "day" : "days"} from redemption`;
  return endsOn ? `Until ${formatDay(endsOn)}` : "No end date";
}

export function seatsText(seats: number | null): string {
  return seats === null ? "Any number of readers" : `${seats.toLocaleString("en-US")} ${seats === 1 ? "reader" : "readers"} at once`;
}

export function offlineText({ offlineAllowed, offlineDays }: Pick<BatchTerms, "offlineAllowed" | "offlineDays">): string {
  return offlineAllowed ? `Offline reading for up to ${offlineDays} ${offlineDays === 1 ? "day" : "days"}` : "No offline reading";
}

/** The last day a code redeems (inclusive, UTC), or that it has none. */
export function redeemByText(redeemBy: string | null): string {
  return redeemBy ? `Redeem by ${formatDay(redeemBy)}` : "No redeem-by date";
}

/** The terms in one line, for tables and cards. */
export function termsLine(terms: BatchTerms): string {
  return [lengthText(terms), seatsText(terms.seats), offlineText(terms)].join(" · ");
}

/** A batch's state as the list shows it: withdrawn wins over expired. */
export function batchState(batch: { revokedAt: number | null; expired: boolean }): "Withdrawn" | "Expired" | "Open" {
  if (batch.revokedAt !== null) return "Withdrawn";
  return batch.expired ? "Expired" : "Open";
}

/** The books of a batch in a line: every title up to `shown`, then how many more. */
export function booksLine(books: { title: string }[], shown = 3): string {
  const titles = books.slice(0, shown).map((book) => book.title);
  const more = books.length - titles.length;
  return more > 0 ? `${titles.join(", ")} and ${more} more` : titles.join(", ");
}

/**
 * What a new batch of bookstore codes takes (docs/decisions/0053), checked once for the API and the
 * console's form: the label (the bookstore or channel), the books, the terms a redeemed code grants
 * (licence days from the redemption or a fixed last day, seats, the offline terms, as a licence has
 * them), how many codes, and the last day they may be redeemed.
 */
import { z } from "zod";
import { BATCH_MAX_CODES } from "#shared/rules/code-format.ts";
import { dayOf } from "#shared/rules/licence.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { DaySchema, OfflineAllowedSchema, OfflineDaysSchema, SeatsSchema } from "../licences/input.ts";
import { IdSchema, isPlainLine } from "../validation/schemas.ts";

export const LABEL_MAX = 80;
export const BATCH_MAX_BOOKS = 50;
export const BATCH_MAX_DAYS = 3650;

export const DAYS_AND_END = "Give the licence's days or its last day, not both";
export const DAYS_OR_END = "Give the licence's days or its last day";

/**
 * A label as it is kept and looked for: the label is the key the publisher's totals and the
 * invoices' CSV are grouped and filtered by, so labels that look the same must be the same. Composed
 * (NFC), without invisible format characters (a zero-width space pasted from an e-mail), each run of
 * spaces one space, trimmed. Line breaks and tabs stay, for the control check to refuse.
 */
export function normalizeLabel(label: string): string {
  return label
    .normalize("NFC")
    .replace(/\p{Cf}/gu, "")
    .replace(/\p{Zs}+/gu, " ")
    .trim();
}

/** The bookstore or channel a batch is sold through: one line of 1 to 80 characters. */
export const LabelSchema = z
  .string({ error: "Give the batch a label: the bookstore or channel that sells it" })
  .overwrite(normalizeLabel)
  .min(1, "Give the batch a label: the bookstore or channel that sells it")
  .max(LABEL_MAX, `A label has at most ${LABEL_MAX} characters`)
  .refine(isPlainLine, "Remove the control characters (such as NUL) from the label");

const BookIdsSchema = z
  .array(IdSchema, { error: "Choose the batch's books" })
  .min(1, "Choose at least one book")
  .max(BATCH_MAX_BOOKS, `A batch is for at most ${BATCH_MAX_BOOKS} books`)
  .refine((ids) => new Set(ids).size === ids.length, "Each book is given once");

const DaysSchema = z
  .number({ error: `The licence's days are a whole number from 1 to ${BATCH_MAX_DAYS.toLocaleString("en-US")}` })
  .int(`The licence's days are a whole number from 1 to ${BATCH_MAX_DAYS.toLocaleString("en-US")}`)
  .min(1, `The licence's days are a whole number from 1 to ${BATCH_MAX_DAYS.toLocaleString("en-US")}`)
  .max(BATCH_MAX_DAYS, `The licence's days are a whole number from 1 to ${BATCH_MAX_DAYS.toLocaleString("en-US")}`);

const CountSchema = z
  .number({ error: `Make from 1 to ${BATCH_MAX_CODES.toLocaleString("en-US")} codes` })
  .int(`Make from 1 to ${BATCH_MAX_CODES.toLocaleString("en-US")} codes`)
  .min(1, `Make from 1 to ${BATCH_MAX_CODES.toLocaleString("en-US")} codes`)
  .max(BATCH_MAX_CODES, `A batch has at most ${BATCH_MAX_CODES.toLocaleString("en-US")} codes`);

/** A day that is today or later (UTC), as the batch's last day of licence or of redeeming. */
const comingDay = (message: string) => DaySchema.refine((day) => day >= dayOf(Date.now()), message);

/**
 * A batch as the API and the form send it. `days` and `endsOn` are exclusive (null counts as not
 * given); seats null or absent is no limit. A last day to redeem after a fixed last day of licence
 * would sell codes that give nothing, so it is refused.
 */
export const BatchInputSchema = z
  .object({
    label: LabelSchema,
    bookIds: BookIdsSchema,
    days: DaysSchema.nullish(),
    endsOn: comingDay("The licence's last day cannot be in the past").nullish(),
    seats: SeatsSchema.nullable().default(null),
    offlineAllowed: OfflineAllowedSchema.default(true),
    offlineDays: OfflineDaysSchema.default(OFFLINE_DAYS_DEFAULT),
    count: CountSchema,
    redeemBy: comingDay("The last day to redeem cannot be in the past").nullish(),
  })
  .superRefine((input, ctx) => {
    const hasDays = input.days !== undefined && input.days !== null;
    const hasEnd = input.endsOn !== undefined && input.endsOn !== null;
    if (hasDays && hasEnd) ctx.addIssue({ code: "custom", path: ["days"], message: DAYS_AND_END });
    else if (!hasDays && !hasEnd) ctx.addIssue({ code: "custom", path: ["days"], message: DAYS_OR_END });
    if (hasEnd && typeof input.redeemBy === "string" && typeof input.endsOn === "string" && input.redeemBy > input.endsOn)
      ctx.addIssue({ code: "custom", path: ["redeemBy"], message: "The last day to redeem must be on or before the licence's last day" });
  })
  .transform((input) => ({ ...input, days: input.days ?? null, endsOn: input.endsOn ?? null, redeemBy: input.redeemBy ?? null }));

export type BatchInput = z.output<typeof BatchInputSchema>;

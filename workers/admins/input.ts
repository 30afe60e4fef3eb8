import { z } from "zod";
import { dayOf } from "#shared/rules/licence.ts";
import { blankToUndefined, EmailSchema, IdTextSchema, PasswordSchema, PersonNameSchema } from "../validation/schemas.ts";

// What the superadmin's account and audit-log calls take, for /api/superadmin and the dashboard's forms.

export const AdminCreateSchema = z.object({
  email: EmailSchema,
  name: PersonNameSchema,
  password: PasswordSchema,
  role: z.enum(["admin", "superadmin"]).default("admin"),
});

export const AdminUpdateSchema = z.object({ disabled: z.boolean().optional(), password: PasswordSchema.optional() });

export const AdminIdParamSchema = z.object({ id: IdTextSchema("Unknown admin") });

const DAY_MS = 86_400_000;

/** A calendar day as a date input sends it (YYYY-MM-DD), read as that day in UTC: its first millisecond. */
const DaySchema = (field: string) =>
  z.string().transform((text, ctx) => {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    const ms = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : Number.NaN;
    // Date.UTC rolls 2024-02-31 over to March: a real day reads back as itself.
    if (!day || dayOf(ms) !== text) {
      ctx.addIssue({ code: "custom", message: `Enter the ${field} date as YYYY-MM-DD` });
      return z.NEVER;
    }
    return ms;
  });

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/**
 * The audit log's filters, as the dashboard's URL and /api/superadmin/audit(.csv) carry them:
 * who (the actor's e-mail, exactly), what (the action, exactly), from and to (days in UTC, both
 * included), and the page.
 */
export const AuditQuerySchema = z
  .object({
    who: optional(z.string().trim().toLowerCase().max(254, "At most 254 characters")),
    what: optional(z.string().trim().max(100, "At most 100 characters")),
    from: optional(DaySchema("from")),
    to: optional(DaySchema("to")),
    page: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100_000).default(1)),
    pageSize: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100).default(50)),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "The from date is after the to date",
    path: ["from"],
  })
  .transform(({ from, to, ...rest }) => ({ ...rest, fromMs: from, toMs: to === undefined ? undefined : to + DAY_MS }));

export type AuditQuery = z.output<typeof AuditQuerySchema>;
/** The log's filters as the queries take them: e-mail and action exactly, from (included) and to (excluded) in ms. */
export type AuditFilter = { who?: string; what?: string; fromMs?: number; toMs?: number };

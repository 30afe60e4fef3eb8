/**
 * Bookstore codes, for admins (docs/decisions/0053): batches, their codes, withdrawing them, the
 * redemptions CSV. Each route is guarded on its own: /api/codes/redeem (code-redeem.ts) shares the prefix.
 *   POST /api/codes/batches { label, bookIds, days? | endsOn?, seats?, offlineAllowed?, offlineDays?, count, redeemBy? }
 *        201 { batch, codes }: the only answer that ever carries the codes
 *   GET  /api/codes/batches?label=   { batches, labels }: newest first, at most 500; every label's totals
 *   GET  /api/codes/batches/:id?status=&offset=&limit=   { batch, codes, total }
 *   POST /api/codes/batches/:id/revoke   { batch }: its unredeemed codes withdrawn
 *   POST /api/codes/revoke { code }   and   POST /api/codes/:codeId/revoke   { code }
 *   GET  /api/codes/redemptions.csv?label=&batchId=&from=&to=   one row per code redeemed and book
 */
import { Hono } from "hono";
import { z } from "zod";
import { toCsv } from "#shared/csv.ts";
import { dayOf } from "#shared/rules/licence.ts";
import { normalizeLabel } from "../codes/batch-input.ts";
import { BATCH_NOT_FOUND, batchCodes, CODE_STATUSES, listBatches } from "../codes/batches.ts";
import { createBatchCommand, revokeBatchCommand, revokeCodeByIdCommand, revokeCodeCommand } from "../codes/commands.ts";
import { listRedemptions, MAX_REDEMPTION_ROWS, REDEMPTION_COLUMNS } from "../codes/csv-redemptions.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { failureResponse, runJson } from "../http/run-command.ts";
import { validate } from "../kernel/validate.ts";
import { DaySchema } from "../licences/input.ts";
import { csvResponse } from "../reports/csv.ts";
import { blankToUndefined, IdTextSchema, parseId } from "../validation/schemas.ts";

/** A label in a query: the label as batches keep it (normalizeLabel); empty is every label. */
const LabelQuerySchema = z.preprocess(
  (value) => blankToUndefined(typeof value === "string" ? normalizeLabel(value) : value),
  z.string().max(80, "A label has at most 80 characters").optional(),
);

const ListQuerySchema = z.object({ label: LabelQuerySchema });

const CodesQuerySchema = z.object({
  status: z.enum(CODE_STATUSES, { error: "The status is unused, redeemed, revoked or expired" }).optional(),
  offset: z
    .string()
    .regex(/^\d{1,9}$/, "The offset is a whole number from 0")
    .transform(Number)
    .default(0),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, "The limit is a whole number from 1 to 500")
    .transform(Number)
    .refine((limit) => limit <= 500, "The limit is a whole number from 1 to 500")
    .default(100),
});

const CsvQuerySchema = z
  .object({
    label: LabelQuerySchema,
    batchId: IdTextSchema("The batch id must be a whole number from 1").optional(),
    from: DaySchema.optional(),
    to: DaySchema.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["to"],
    message: "The last day must be on or after the first",
  });

const notFound = { kind: "not-found", error: BATCH_NOT_FOUND } as const;

export const codesApi = new Hono<AdminApiEnv>()
  .post(
    "/batches",
    requireRole("admin"),
    runJson(createBatchCommand, (c, made) => c.json(made, 201)),
  )
  .get("/batches", requireRole("admin"), validate("query", ListQuerySchema), async (c) =>
    c.json(await listBatches(c.var.context.db, c.req.valid("query"), dayOf(Date.now()))),
  )
  .get("/batches/:id", requireRole("admin"), validate("query", CodesQuerySchema), async (c) => {
    const id = parseId(c.req.param("id"));
    const page = id === null ? null : await batchCodes(c.var.context.db, id, c.req.valid("query"), dayOf(Date.now()));
    return page ? c.json(page) : failureResponse(c, notFound);
  })
  .post(
    "/batches/:id/revoke",
    requireRole("admin"),
    runJson(revokeBatchCommand, (c, { batch }) => c.json({ batch }), { params: ["id"], body: false }),
  )
  .post(
    "/revoke",
    requireRole("admin"),
    runJson(revokeCodeCommand, (c, { code }) => c.json({ code })),
  )
  .post(
    "/:codeId/revoke",
    requireRole("admin"),
    runJson(revokeCodeByIdCommand, (c, { code }) => c.json({ code }), { params: ["codeId"], body: false }),
  )
  .get("/redemptions.csv", requireRole("admin"), validate("query", CsvQuerySchema), async (c) => {
    const rows = await listRedemptions(c.var.context.db, c.req.valid("query"), MAX_REDEMPTION_ROWS + 1);
    if (rows.length > MAX_REDEMPTION_ROWS)
      return failureResponse(c, {
        kind: "invalid",
        error: `More than ${MAX_REDEMPTION_ROWS.toLocaleString("en-US")} rows: narrow the days or the label`,
      });
    return csvResponse(toCsv(REDEMPTION_COLUMNS, rows), `redemptions-${dayOf(Date.now())}.csv`);
  });

/**
 * Licences, for admins (docs/decisions/0028); days are YYYY-MM-DD (UTC):
 *   GET    /api/licences?schoolId&bookId&state&endingWithinDays   { licences: [...] }, soonest end first
 *   GET    /api/licences/export?(the same filters)   the same as a CSV, for invoicing
 *   POST   /api/licences { schoolId, bookId, startsOn, endsOn?, seats?, note? }   201 { licence }
 *          (or { licences: [...] } for many, all or none: 201 { licences })
 *   PATCH  /api/licences/:id { startsOn?, endsOn?, seats?, note? }   { licence } (null clears an end or a limit)
 *   POST   /api/licences/renew { schoolId?, bookId?, state?, endingWithinDays?, ids? }   { renewed, openEnded }
 *   DELETE /api/licences/:id
 *   POST   /api/licences/import/validate { rows, rowNumbers? }   { rows, summary }: each CSV row checked (nothing saved)
 *   POST   /api/licences/import { rows, rowNumbers? }   { created, changed, unchanged }, all rows or none
 *          (400 { error, rows } naming every row's problems by its row number)
 * A pair that has a licence already is 409; an end before the start 400 on `endsOn`. The older
 * /api/books/access calls keep working: they make open-ended licences with no seat limit.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type CsvColumns, toCsv } from "#shared/csv.ts";
import { dayOf } from "#shared/rules/licence.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { type CommandBody, type JsonInput, runJson } from "../http/run-command.ts";
import { readJsonBody, validate } from "../kernel/validate.ts";
import {
  createLicenceCommand,
  createLicencesCommand,
  deleteLicenceCommand,
  EndingWithinSchema,
  importLicencesCommand,
  LicenceStateSchema,
  renewLicencesCommand,
  updateLicenceCommand,
  validateLicenceImportCommand,
} from "../licences/commands.ts";
import { type Licence, listLicences } from "../licences/list.ts";
import { type LicenceSeatUse, licenceSeatUse } from "../licences/seat-use.ts";
import { csvResponse } from "../reports/csv.ts";
import { lastDays } from "../reports/range.ts";
import { IdTextSchema } from "../validation/schemas.ts";

/** The licences' CSV for invoicing: one row per licence, as the list shows them. */
const LICENCE_COLUMNS: CsvColumns<Licence & { use: LicenceSeatUse | undefined }> = [
  ["licenceId", (l) => l.id],
  ["schoolId", (l) => l.schoolId],
  ["school", (l) => l.schoolName],
  ["slug", (l) => l.schoolSlug],
  ["bookId", (l) => l.bookId],
  ["title", (l) => l.title],
  ["startsOn", (l) => l.startsOn],
  ["endsOn", (l) => l.endsOn ?? ""],
  ["seats", (l) => l.seats ?? ""],
  ["state", (l) => l.state],
  ["note", (l) => l.note],
  // The offline terms (docs/decisions/0050), as the import reads them back.
  ["offlineAllowed", (l) => (l.offlineAllowed ? "yes" : "no")],
  ["offlineDays", (l) => l.offlineDays],
  // The last 30 days' seats: the most teachers at once, and the days (and teachers) turned away.
  ["peakReaders30Days", (l) => l.use?.peakReaders ?? 0],
  ["daysTurnedAway30Days", (l) => l.use?.daysTurnedAway ?? 0],
  ["turnedAway30Days", (l) => l.use?.turnedAway ?? 0],
];

const ListQuerySchema = z.object({
  schoolId: IdTextSchema("The school id must be a whole number from 1").optional(),
  bookId: IdTextSchema("The book id must be a whole number from 1").optional(),
  state: LicenceStateSchema.optional(),
  endingWithinDays: EndingWithinSchema.optional(),
});

const createOne = runJson(createLicenceCommand, (c: Context<AdminApiEnv>, { licence }) => c.json({ licence }, 201));
const createMany = runJson(createLicencesCommand, (c: Context<AdminApiEnv>, { licences }) => c.json({ licences }, 201));
/** What POST / takes, declared to Hono: one licence's fields, or `{ licences: [...] }`. */
type CreateBody = CommandBody<typeof createLicenceCommand.input> | CommandBody<typeof createLicencesCommand.input>;

export const licencesApi = new Hono<AdminApiEnv>()
  .use(requireRole("admin"))
  .get("/", validate("query", ListQuerySchema), async (c) => {
    const licences = await listLicences(c.var.context.db, c.req.valid("query"), dayOf(Date.now()));
    return c.json({ licences });
  })
  // The same list as a CSV, every licence the filters keep (for invoicing).
  .get("/export", validate("query", ListQuerySchema), async (c) => {
    const today = dayOf(Date.now());
    const { db } = c.var.context;
    const query = c.req.valid("query");
    const licences = await listLicences(db, query, today, 50_000);
    // The seat figures of exactly the licences exported (the filters' state and end included).
    const uses = await licenceSeatUse(db, { ids: licences.map((licence) => licence.id) }, lastDays(30), 50_000);
    const useById = new Map(uses.map((use) => [use.licenceId, use]));
    const rows = licences.map((licence) => ({ ...licence, use: useById.get(licence.id) }));
    return csvResponse(toCsv(LICENCE_COLUMNS, rows), `lectern-licences-${today}.csv`);
  })
  .post(
    "/import/validate",
    runJson(validateLicenceImportCommand, (c, validation) => c.json(validation)),
  )
  .post(
    "/import",
    runJson(importLicencesCommand, (c, counts) => c.json(counts)),
  )
  .post(
    "/renew",
    runJson(renewLicencesCommand, (c, result) => c.json(result)),
  )
  // One licence, or `{ licences: [...] }` for many: the body's shape picks the command.
  .post("/", async (c: Context<AdminApiEnv, "/", JsonInput<CreateBody>>) => {
    // Hono keeps the parsed body: the command's adapter reads this same parse.
    // Decoded strictly (bytes that are not UTF-8 are left for the command's own read to refuse).
    const read = await readJsonBody(c.req);
    const body: unknown = read.ok ? read.value : null;
    return body && typeof body === "object" && "licences" in body ? createMany(c) : createOne(c);
  })
  .patch(
    "/:id",
    runJson(updateLicenceCommand, (c, { licence }) => c.json({ licence }), { params: ["id"] }),
  )
  .delete(
    "/:id",
    runJson(deleteLicenceCommand, (c) => c.json({ ok: true }), { params: ["id"], body: false }),
  );

/**
 * The admins' writes to licences, each once (docs/decisions/0027-commands.md): /api/licences runs
 * these, and the console's licence screens will. Days are YYYY-MM-DD (UTC), checked real; an end
 * before the start is 400 on `endsOn` (checkLicenceDays, the one rule every writer applies).
 */
import { z } from "zod";
import { dayOf } from "#shared/rules/licence.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { adminCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import { IdListSchema, IdSchema, idFrom } from "../validation/schemas.ts";
import { importLicences, LicenceImportBodySchema, validateLicenceImport } from "./import.ts";
import { checkLicenceDays, DaySchema, OfflineAllowedSchema, OfflineDaysSchema, SeatsSchema } from "./input.ts";
import { changeLicences, createLicences, deleteLicence, MAX_RENEWED, renewLicences, updateLicence } from "./licences.ts";

const NoteSchema = z.string().trim().max(200, "A note has at most 200 characters");

export const LicenceInputSchema = z
  .object({
    schoolId: IdSchema,
    bookId: IdSchema,
    startsOn: DaySchema,
    endsOn: DaySchema.nullable().default(null),
    seats: SeatsSchema.nullable().default(null),
    note: NoteSchema.default(""),
    offlineAllowed: OfflineAllowedSchema.default(true),
    offlineDays: OfflineDaysSchema.default(OFFLINE_DAYS_DEFAULT),
  })
  .superRefine(checkLicenceDays);

export const LicenceStateSchema = z.enum(["scheduled", "active", "expired"], { error: "The state is scheduled, active or expired" });
export const EndingWithinSchema = z.coerce
  .number({ error: "Ending within is a whole number of days" })
  .int("Ending within is a whole number of days")
  .min(0, "Ending within is 0 days or more")
  .max(3650, "Ending within is at most 3,650 days");

/** Which licences a bulk action acts on: the list's filters, or the ones picked. At least one is needed. */
export const LicenceFilterSchema = z
  .object({
    schoolId: IdSchema.optional(),
    bookId: IdSchema.optional(),
    state: LicenceStateSchema.optional(),
    endingWithinDays: EndingWithinSchema.optional(),
    ids: IdListSchema("licence").optional(),
  })
  .refine(
    (filter) => Object.values(filter).some((value) => value !== undefined),
    "Say which licences: a school, a book, a state, an end, or their ids",
  );

export const createLicenceCommand = adminCommand(LicenceInputSchema, async ({ db, env, actor }, input) => {
  const outcome = await createLicences(db, env, actor, [input]);
  return outcome.ok ? done({ licence: outcome.value.licences[0]! }) : outcome;
});

export const createLicencesCommand = adminCommand(
  z.object({ licences: z.array(LicenceInputSchema).min(1, "Give at least one licence").max(500, "Give at most 500 licences at a time") }),
  async ({ db, env, actor }, { licences }) => createLicences(db, env, actor, licences),
);

/** A licence's id as the URL carries it: anything malformed is a licence that does not exist (idFrom). */
const LicenceRef = z.unknown();
const NOT_FOUND = { kind: "not-found", error: "Licence not found" } as const;

export const updateLicenceCommand = adminCommand(
  z
    .object({
      id: LicenceRef,
      startsOn: DaySchema.optional(),
      endsOn: DaySchema.nullable().optional(),
      seats: SeatsSchema.nullable().optional(),
      note: NoteSchema.optional(),
      offlineAllowed: OfflineAllowedSchema.optional(),
      offlineDays: OfflineDaysSchema.optional(),
    })
    .refine(
      ({ id: _id, ...change }) => Object.values(change).some((value) => value !== undefined),
      "Change at least one of startsOn, endsOn, seats, note, offlineAllowed or offlineDays",
    ),
  async ({ db, env, actor }, { id, ...change }) => {
    const licenceId = idFrom(id);
    if (!licenceId) return failed(NOT_FOUND);
    return updateLicence(db, env, actor, licenceId, change);
  },
);

export const renewLicencesCommand = adminCommand(LicenceFilterSchema, async ({ db, env, actor }, filter) => {
  const result = await renewLicences(db, env, actor, filter, dayOf(Date.now()));
  if (!result)
    return failed({ kind: "invalid", error: `Renew at most ${MAX_RENEWED.toLocaleString("en-US")} licences at a time: narrow the filter` });
  return done(result);
});

/** The Licences page's bulk change: a new seat limit, the offline terms, and/or "end now", for the licences picked. */
export const changeLicencesCommand = adminCommand(
  z
    .object({
      ids: IdListSchema("licence"),
      seats: SeatsSchema.nullable().optional(),
      offlineAllowed: OfflineAllowedSchema.optional(),
      offlineDays: OfflineDaysSchema.optional(),
      endNow: z.boolean().optional(),
    })
    .refine(
      (change) => change.seats !== undefined || change.offlineAllowed !== undefined || change.offlineDays !== undefined || change.endNow,
      "Say what to change: the seats, offline reading, or end now",
    ),
  async ({ db, env, actor }, { ids, ...change }) => done({ changed: await changeLicences(db, env, actor, ids, change, dayOf(Date.now())) }),
);

export const deleteLicenceCommand = adminCommand(z.object({ id: LicenceRef }), async ({ db, env, actor }, { id }) => {
  const licenceId = idFrom(id);
  return licenceId && (await deleteLicence(db, env, actor, licenceId)) ? done({}) : failed(NOT_FOUND);
});

/** A CSV file's rows checked, with what importing each would do (nothing is written). */
export const validateLicenceImportCommand = adminCommand(LicenceImportBodySchema, async ({ db }, { rows, rowNumbers }) =>
  done(await validateLicenceImport(db, rows, rowNumbers)),
);

/** Every row of a CSV file imported, or none (400 with every row's problems). */
export const importLicencesCommand = adminCommand(LicenceImportBodySchema, async ({ db, env, actor }, { rows, rowNumbers }) =>
  importLicences(db, env, actor, rows, rowNumbers),
);

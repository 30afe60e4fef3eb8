import { z } from "zod";
import { adminCommand } from "../kernel/command.ts";
import { done } from "../kernel/failure.ts";
import { createSchool, deleteSchool, updateSchool } from "./editing.ts";
import { importSchools, updateDuplicateSchools, validateImportRows } from "./import.ts";
import { ImportBodySchema } from "./import-rows.ts";
import { SchoolIdSchema, SchoolInputSchema, SchoolUpdateSchema } from "./input.ts";
import {
  IncreaseTotalLoginSchema,
  increaseTeacherLimit,
  increaseTotalLogins,
  LoginCountChangeShape,
  oneLoginCountChange,
} from "./logins.ts";

/**
 * The admins' writes to schools, each once (docs/decisions/0027-commands.md): the API's
 * /api/schools routes and the console's pages (Add School, the school's page, Delete School,
 * Increase Login Count, the CSV import) run these.
 */

export const createSchoolCommand = adminCommand(SchoolInputSchema, async ({ db, actor }, input) => createSchool(db, actor, input));

/** Every field optional: what is sent changes. The id comes first, so a bad one is the error shown. */
export const updateSchoolCommand = adminCommand(
  z.object({ id: SchoolIdSchema, ...SchoolUpdateSchema.shape }),
  async ({ db, env, actor }, input) => {
    const { id, ...change } = input;
    return updateSchool(db, env, actor, id, change);
  },
);

export const deleteSchoolCommand = adminCommand(z.object({ id: SchoolIdSchema }), async ({ db, env, actor }, { id }) =>
  deleteSchool(db, env, actor, id),
);

/** The teacher limit raised `by` some, or set to `limit`; never below the teachers registered. */
export const increaseTeacherLimitCommand = adminCommand(
  z.object({ id: SchoolIdSchema, ...LoginCountChangeShape }).refine(...oneLoginCountChange),
  async ({ db, actor }, { id, ...change }) => increaseTeacherLimit(db, actor, id, change),
);

export const increaseTotalLoginsCommand = adminCommand(
  z.object({ id: SchoolIdSchema, ...IncreaseTotalLoginSchema.shape }),
  async ({ db, actor }, { id, by }) => increaseTotalLogins(db, actor, id, by),
);

/** The import's check: what each row would do (new, duplicate, invalid), nothing written. */
export const validateImportCommand = adminCommand(ImportBodySchema, async ({ db }, { rows, rowNumbers }) =>
  done(await validateImportRows(db, rows, "validate", rowNumbers)),
);

/** Adds every row or none; with `generateSlugs`, rows without an address get a free one. */
const importCommand = (generateSlugs: boolean) =>
  adminCommand(ImportBodySchema, async ({ db, actor }, { rows, rowNumbers }) =>
    importSchools(db, actor, rows, { generateSlugs, rowNumbers }),
  );
export const importSchoolsCommand = importCommand(false);
export const saveGeneratedSchoolsCommand = importCommand(true);

/** Updates every row that names an existing school, or none. */
export const updateDuplicatesCommand = adminCommand(ImportBodySchema, async ({ db, actor }, { rows, rowNumbers }) =>
  updateDuplicateSchools(db, actor, rows, rowNumbers),
);

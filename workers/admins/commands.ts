import { z } from "zod";
import { adminCommand } from "../kernel/command.ts";
import { AdminCreateSchema, AdminIdParamSchema, AdminUpdateSchema } from "./input.ts";
import { createAdmin, deleteAdmin, updateAdmin } from "./superadmin.ts";

/**
 * The superadmins' writes to admin accounts, each once (docs/decisions/0027-commands.md): the
 * API's /api/superadmin/admins routes and the superadmin dashboard run these.
 */

export const createAdminCommand = adminCommand(
  AdminCreateSchema,
  async ({ db, actor }, input) => createAdmin(db, actor, input),
  "superadmin",
);

/** Disable, enable, or set a new password; the id first, so a bad one is the error shown. */
export const updateAdminCommand = adminCommand(
  z.object({ ...AdminIdParamSchema.shape, ...AdminUpdateSchema.shape }),
  async ({ db, actor }, { id, ...change }) => updateAdmin(db, actor, id, change),
  "superadmin",
);

export const deleteAdminCommand = adminCommand(
  AdminIdParamSchema,
  async ({ db, actor }, { id }) => deleteAdmin(db, actor, id),
  "superadmin",
);

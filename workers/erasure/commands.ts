/**
 * The erasures as commands (docs/decisions/0027-commands.md): POST /api/schools/:id/erase-personal-data
 * and the admin's school page run the school's; DELETE /api/teacher/account and the account page run
 * the teacher's own. Only an admin erases a school (a coordinator is refused by the command itself:
 * docs/decisions/0045 says why); a teacher only ever deletes the account of their own session.
 */
import { z } from "zod";
import { adminCommand, teacherCommand } from "../kernel/command.ts";
import { failure } from "../kernel/failure.ts";
import { idFrom } from "../validation/schemas.ts";
import { deleteOwnAccount, eraseSchoolPersonalData } from "./erase.ts";

export const eraseSchoolCommand = adminCommand(z.object({ id: z.unknown() }), async ({ db, env, actor }, { id }) => {
  const schoolId = idFrom(id);
  if (!schoolId) return failure("not-found", "School not found");
  return eraseSchoolPersonalData(db, env, actor, schoolId);
});

export const DeleteOwnAccountSchema = z.object({
  confirm: z.string({ error: "Type your e-mail address to confirm." }).max(320, "Type your e-mail address to confirm."),
});

export const deleteOwnAccountCommand = teacherCommand(DeleteOwnAccountSchema, async ({ db, env, who }, { confirm }) =>
  deleteOwnAccount(db, env, who, confirm),
);

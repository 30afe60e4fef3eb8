import { eraseSchoolCommand } from "../../workers/erasure/commands.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { findSchoolRow } from "../../workers/schools/list.ts";
import { reply, runCommand } from "./run-command.server.ts";

type ActionArgs = Parameters<typeof runCommand>[0];

/**
 * The admin's school page's "Erase personal data" (docs/decisions/0045): as POST
 * /api/schools/:id/erase-personal-data, once the posted `confirm` is the school's slug (the page's
 * confirmation, checked here too).
 */
export async function eraseSchoolAction(args: ActionArgs, schoolId: number, confirm: unknown) {
  const intent = "erase-personal-data";
  const school = await findSchoolRow(args.context.get(appContext).db, schoolId);
  if (!school) return reply(failure("not-found", "School not found"), { intent });
  if (confirm !== school.slug) return reply(failure("invalid", `Type ${school.slug} to confirm.`, "confirm"), { intent });
  const outcome = await runCommand(args, eraseSchoolCommand, { id: String(schoolId) });
  return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
}

/**
 * The page actions of offline loans (docs/decisions/0050) for the admin's school page and the
 * coordinator's My school: "Return now" and the school's offline books per teacher, each running
 * the command its API route runs.
 */
import { coordinatorReturnLoanCommand, returnLoanCommand } from "../../workers/loans/staff.ts";
import { updateSchoolCommand } from "../../workers/schools/commands.ts";
import { reply, runCommand } from "./run-command.server.ts";

type ActionArgs = Parameters<typeof runCommand>[0];

/** The admin's "Return now" (as POST /api/schools/:id/offline-loans/:loanId/return). */
export async function returnLoanAction(args: ActionArgs, intent: string, schoolId: string, form: FormData) {
  const outcome = await runCommand(args, returnLoanCommand, { id: schoolId, loanId: form.get("loanId") ?? "" });
  return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
}

/** The coordinator's "Return now": their own school's loan only (the command takes the school from the session). */
export async function coordinatorReturnLoanAction(args: ActionArgs, intent: string, form: FormData) {
  const outcome = await runCommand(args, coordinatorReturnLoanCommand, { loanId: form.get("loanId") ?? "" });
  return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
}

/** The school's offline books per teacher (as PUT /api/schools/:id with offlineBooksPerTeacher). */
export async function offlineBooksAction(args: ActionArgs, intent: string, schoolId: string, form: FormData) {
  const raw = String(form.get("offlineBooksPerTeacher") ?? "").trim();
  const offlineBooksPerTeacher = /^\d+$/.test(raw) ? Number(raw) : raw;
  const outcome = await runCommand(args, updateSchoolCommand, { id: schoolId, offlineBooksPerTeacher });
  return reply(outcome, { intent }, () => ({
    intent,
    message:
      offlineBooksPerTeacher === 0
        ? "Teachers of this school can no longer keep books for offline reading."
        : `Each teacher may now keep ${offlineBooksPerTeacher} book(s) for offline reading at once.`,
  }));
}

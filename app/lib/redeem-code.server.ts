import type { RouterContextProvider } from "react-router";
import { redeemForOwnSchoolCommand, redeemForSchoolCommand } from "../../workers/codes/redeem-commands.ts";
import { reply, runCommand } from "./run-command.server.ts";

type ActionArgs = { context: Readonly<RouterContextProvider>; request: Request };

const codeOf = (form: FormData) => {
  const code = form.get("code");
  return typeof code === "string" ? code : "";
};

/**
 * "Redeem a bookstore code" on My school (as POST /api/codes/redeem for a coordinator): the school
 * is the signed-in coordinator's own, never one the form names. Answers the redemption's sentence,
 * or the refusal with its status (429 with Retry-After when throttled), both under the card's `intent`.
 */
export async function redeemForOwnSchoolAction(args: ActionArgs, intent: string, form: FormData) {
  const outcome = await runCommand(args, redeemForOwnSchoolCommand, { code: codeOf(form) });
  return reply(outcome, { intent }, ({ redeemed }) => ({ intent, message: redeemed.message }));
}

/** The same on the admin's school page, for that school (as POST /api/codes/redeem with `schoolId`). */
export async function redeemForSchoolAction(args: ActionArgs, intent: string, schoolId: string | undefined, form: FormData) {
  const outcome = await runCommand(args, redeemForSchoolCommand, { code: codeOf(form), schoolId: schoolId ?? "" });
  return reply(outcome, { intent }, ({ redeemed }) => ({ intent, message: redeemed.message }));
}

/**
 * Redeeming a bookstore code for a school (docs/decisions/0053): a school's coordinator, or an admin naming the school.
 *   POST /api/codes/redeem { code, schoolId? }   { redeemed: { last4, schoolId, books, message } }
 * Mounted before the admins' /api/codes routes, which each carry their own admin guard. Who it is
 * for: an admin with `schoolId` redeems for that school (an admin without one is asked for it); a
 * signed-in teacher for their own school, if a coordinator (a plain teacher 403, another school's
 * id 403); a request with both sessions takes the admin's path only when it names a school. A
 * teacher of another school than the host names is refused as naming another school; nobody 401.
 * Refusals carry `status` (format, wrong, used, expired, revoked, unavailable, throttled).
 */
import { type Context, Hono } from "hono";
import { signedOut } from "../auth/signed-out.ts";
import { OWN_SCHOOL_ONLY, redeemForOwnSchoolCommand, redeemForSchoolCommand } from "../codes/redeem-commands.ts";
import { type CommandBody, failureResponse, type JsonInput, runJson } from "../http/run-command.ts";
import type { AppEnv } from "../kernel/context.ts";
import { readJsonBody } from "../kernel/validate.ts";

type RedeemBody = CommandBody<typeof redeemForSchoolCommand.input>;

const asAdmin = runJson(redeemForSchoolCommand, (c: Context<AppEnv>, value) => c.json(value));
const asCoordinator = runJson(redeemForOwnSchoolCommand, (c: Context<AppEnv>, value) => c.json(value));

/** Whether the body names a school (what decides the path of a request with both sessions). */
function namesSchool(body: unknown): boolean {
  if (!body || typeof body !== "object" || !("schoolId" in body)) return false;
  const { schoolId } = body;
  return schoolId !== undefined && schoolId !== null && schoolId !== "";
}

export const codeRedeemApi = new Hono<AppEnv>().post("/redeem", async (c: Context<AppEnv, "/redeem", JsonInput<RedeemBody>>) => {
  c.header("Cache-Control", "private, no-store");
  const { admin, teacher, teacherOfOtherSchool, teacherDisabled } = c.var.context;
  // Hono keeps the parsed body: the command's adapter reads this same parse.
  const read = await readJsonBody(c.req);
  if (admin && (!teacher || (read.ok && namesSchool(read.value)))) return asAdmin(c);
  if (teacher) return asCoordinator(c);
  if (teacherOfOtherSchool) return failureResponse(c, { kind: "refused", error: OWN_SCHOOL_ONLY });
  return failureResponse(c, signedOut(teacherDisabled ? "disabled" : "none"));
});

/**
 * The answer to a teacher whose session is not live: "Not signed in", or, while an admin has
 * disabled them, the sentence that says so (docs/decisions/0015: told only once the cookie or the
 * password was right, so a stranger learns nothing about the account).
 */
import type { ObjectFailure } from "../school-object/refusals.ts";

export const NOT_SIGNED_IN = "Not signed in";
export const ACCOUNT_DISABLED = "Your account has been disabled. Please contact your school administrator.";

/** What a teacher whose session is gone ("none") or whose account is disabled is told (401, `disabled: true` for the latter). */
export function signedOut(status: "none" | "disabled"): ObjectFailure {
  return status === "disabled"
    ? { kind: "unauthenticated", error: ACCOUNT_DISABLED, details: { disabled: true } }
    : { kind: "unauthenticated", error: NOT_SIGNED_IN };
}

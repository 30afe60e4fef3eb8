/**
 * The one way out of a page view (docs/decisions/0036). On the reader's hot path (a page image or
 * its text) the request context checks no session (workers/http/request-context.ts, PAGE_VIEW_PATH):
 * the cookie's session is checked by the school's object in the same call that spends the page. A
 * view that ends before that call (no such book, not the school's, a licence ended, a page out of
 * range, ...) must not answer until the session is checked, or a made-up cookie would learn which
 * books a school has. So the reading service builds its refusals without thinking of sessions, and
 * every view's answer, refusal or not, passes `throughGate`, which checks an unchecked session first.
 */

import type { Reader } from "../http/guards.ts";
import type { RequestContext } from "../kernel/context.ts";
import { schoolObject } from "../school-object/objects.ts";
import { ACCOUNT_DISABLED } from "../teachers/sign-up-and-login.ts";

/** A page view's request, parsed by the route: null where the path held something malformed. */
export interface PageAsk {
  context: RequestContext;
  reader: Reader;
  bookId: number | null;
}

/** Why a reader does not get what they asked for: the status, the sentence, and what else the answer carries. */
export class Refusal {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * Who reads: an admin, or a teacher of a school. `checked` says whether the teacher's session has
 * been checked in this request: by the request context (a signed-in teacher), or by the school's
 * object when the view spent a page (`sessionChecked`). A page viewer starts unchecked.
 */
export type PageReader = { kind: "admin" } | { kind: "teacher"; schoolId: number; tokenHash: string; checked: boolean };

/** The answer for a teacher whose session the school's object does not hold: 401, saying why. */
export function signedOut(status: "none" | "disabled"): Refusal {
  return status === "disabled" ? new Refusal(401, ACCOUNT_DISABLED, { disabled: true }) : new Refusal(401, "Not signed in");
}

/** The school's object answered a call that checks the session first (readPage): whatever it said, the session was looked at. */
export function sessionChecked(reader: PageReader): void {
  if (reader.kind === "teacher") reader.checked = true;
}

function pageReader(reader: Reader): PageReader {
  if (reader.kind === "admin") return { kind: "admin" };
  if (reader.kind === "teacher")
    return { kind: "teacher", schoolId: reader.teacher.school.id, tokenHash: reader.teacher.tokenHash, checked: true };
  return { kind: "teacher", ...reader.viewer, checked: false };
}

/**
 * Runs a view for the request's reader and lets its answer out: as it is once the reader's
 * session was checked (or for an admin); else only after checking it now, answering "Not signed
 * in" (or the disabled account's sentence) instead when it is not a live session.
 */
export async function throughGate<R>(ask: PageAsk, view: (reader: PageReader) => Promise<R | Refusal>): Promise<R | Refusal> {
  const reader = pageReader(ask.reader);
  const answer = await view(reader);
  if (reader.kind === "admin" || reader.checked) return answer;
  const check = await schoolObject(ask.context.env, reader.schoolId).checkSession(reader.schoolId, reader.tokenHash);
  return check.status === "ok" ? answer : signedOut(check.status);
}

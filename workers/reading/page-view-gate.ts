/**
 * The one way out of a page view (docs/decisions/0036). On the reader's hot path (a page image or
 * its text) the request context checks no session (workers/http/request-context.ts, PAGE_VIEW_PATH):
 * the cookie's session is checked by the school's object in the same call that spends the page. A
 * view that ends before that call (no such book, not the school's, a licence ended, a page out of
 * range, ...) must not answer until the session is checked, or a made-up cookie would learn which
 * books a school has. So the reading service builds its failures without thinking of sessions, and
 * every view's answer, failure or not, passes `throughGate`, which checks an unchecked session first.
 * A view answers an `Outcome` (workers/kernel/failure.ts); workers/api/refused.ts turns its failure
 * into the status, body and Retry-After the reader gets.
 */

import type { Reader } from "../http/guards.ts";
import type { RequestContext } from "../kernel/context.ts";
import type { Outcome } from "../kernel/failure.ts";
import { schoolObject } from "../school-object/objects.ts";

/** A page view's request, parsed by the route: null where the path held something malformed. */
export interface PageAsk {
  context: RequestContext;
  reader: Reader;
  bookId: number | null;
  /** `offline=<loanId>` on a page or its text: downloaded for the session's offline copy (docs/decisions/0050). */
  offlineLoanId?: string;
}

/**
 * Who reads: an admin, or a teacher of a school. `checked` says whether the teacher's session has
 * been checked in this request: by the request context (a signed-in teacher), or by the school's
 * object when the view spent a page (`sessionChecked`). A page viewer starts unchecked.
 */
export type PageReader = { kind: "admin" } | { kind: "teacher"; schoolId: number; tokenHash: string; checked: boolean };

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
export async function throughGate<R>(ask: PageAsk, view: (reader: PageReader) => Promise<Outcome<R>>): Promise<Outcome<R>> {
  const reader = pageReader(ask.reader);
  const answer = await view(reader);
  if (reader.kind === "admin" || reader.checked) return answer;
  const check = await schoolObject(ask.context.env, reader.schoolId).checkSession(reader.schoolId, reader.tokenHash);
  return check.ok ? answer : check;
}

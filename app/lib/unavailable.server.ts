import { data, type MiddlewareFunction } from "react-router";
import { failureBody, failureHeaders } from "../../workers/http/failure-status.ts";
import { appContext } from "../../workers/kernel/context.ts";
import type { Failure } from "../../workers/kernel/failure.ts";

/** What the boundary reads of a 503 (app/components/public/app-error-boundary.tsx): the failure's sentence. */
export type UnavailableData = { error: string };

function unavailableAnswer(failure: Failure) {
  return data<UnavailableData>({ error: failureBody(failure).error }, { status: 503, headers: failureHeaders(failure) });
}

/**
 * The root's middleware (docs/decisions/0047): a page whose context could not be resolved (the
 * pipeline noted the part that failed) answers 503 before any guard or loader runs, so nobody is
 * sent to sign in because D1 or their school's object did not answer; a page whose loader or action
 * hit a part that failed (noted by handleError, app/entry.server.tsx) is answered the same way, in
 * place of the 500 React Router would send. The root's boundary shows the sentence and Try Again.
 */
export const answerUnavailable: MiddlewareFunction<Response> = async ({ context }, next) => {
  const request = context.get(appContext);
  if (request.unavailable) throw unavailableAnswer(request.unavailable);
  const response = await next();
  if (request.unavailable && response.status >= 500) throw unavailableAnswer(request.unavailable);
  return response;
};

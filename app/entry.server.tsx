import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { appContext } from "../workers/kernel/context.ts";
import { log } from "../workers/kernel/log.ts";
import { platformFailure } from "../workers/kernel/platform-failure.ts";
import { NonceProvider } from "./lib/nonce.tsx";

export const streamTimeout = 5_000;

/**
 * Every error a loader, an action or the render threw. One that is a part of the platform away
 * (D1, R2, a school's object: workers/kernel/platform-failure.ts) is noted on the request's context,
 * and the root's middleware answers the page as a 503 with the failure's sentence (app/root.tsx,
 * docs/decisions/0047); any other is logged as React Router's default would.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const unavailable = platformFailure(error);
  if (unavailable) {
    const requestContext = context.get(appContext);
    requestContext.unavailable ??= unavailable;
    log.warn("A part of the platform is unavailable", { path: new URL(request.url).pathname, error });
    return;
  }
  // As React Router's default handler logs it: an error response's own error where it carries one.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const { nonce } = loadContext.get(appContext);
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  const body = await renderToReadableStream(
    <NonceProvider nonce={nonce ?? undefined}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce ?? undefined} />
    </NonceProvider>,
    {
      nonce: nonce ?? undefined,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;

  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

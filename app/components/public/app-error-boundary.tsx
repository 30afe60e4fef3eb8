import { isRouteErrorResponse, useParams, useRevalidator, useRouteError, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../../root.tsx";
import { SchoolErrorFrame, SchoolPageError, UNAVAILABLE_TITLE, unavailableText, useSchoolBasePath } from "../school/school-page-error.tsx";
import { Button } from "../ui/button.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { PublicHeader } from "./public-header.tsx";

/**
 * The root's boundary (app/root.tsx): 'Page Not Found', a part of the platform away (503: what
 * happened and Try Again), the spec's 'Unexpected Application Error!', or, on a signed-in teacher's school page (a page whose route list never arrived when the
 * connection dropped, say), the school's words and the way back to its dashboard.
 */
export function AppErrorBoundary() {
  const error = useRouteError();
  const school = useRouteLoaderData<typeof rootLoader>("root")?.school;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (school) {
    return (
      <SchoolErrorFrame basePath={school.basePath}>
        <SchoolPageError error={error} basePath={school.basePath} />
      </SchoolErrorFrame>
    );
  }

  const unavailable = unavailableText(error);
  if (unavailable) return <UnavailablePage text={unavailable} />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = isRouteErrorResponse(error) ? error.statusText : null;
  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : null;
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        <StatusPanel title="Unexpected Application Error!" tone="error" actions={<ButtonLink to="/">Go Home</ButtonLink>}>
          <p className="font-mono text-lg font-semibold text-red-700 dark:text-red-300">{status}</p>
          <p className="mt-2">{detail || "Something went wrong while loading this page. Please try again in a moment."}</p>
          {stack && <pre className="mt-4 max-h-64 overflow-auto rounded bg-slate-900 p-3 text-left text-xs text-slate-100">{stack}</pre>}
        </StatusPanel>
      </main>
    </div>
  );
}

/** A part of the platform was away (a 503, docs/decisions/0047): what happened, and Try Again. */
function UnavailablePage({ text }: { text: string }) {
  const revalidator = useRevalidator();
  const busy = revalidator.state !== "idle";
  // A school's page (its path names the school): the way back is its dashboard, not the publisher's landing page.
  const { slug } = useParams();
  const basePath = useSchoolBasePath();
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        <StatusPanel
          title={UNAVAILABLE_TITLE}
          tone="error"
          actions={
            <>
              <Button onClick={() => revalidator.revalidate()} disabled={busy} className="px-5">
                {busy ? "Trying again..." : "Try Again"}
              </Button>
              {slug ? (
                <ButtonLink to={`${basePath}/dashboard`} variant="secondary">
                  Back to Dashboard
                </ButtonLink>
              ) : (
                <ButtonLink to="/" variant="secondary">
                  Go Home
                </ButtonLink>
              )}
            </>
          }
        >
          <p role="alert">{text}</p>
        </StatusPanel>
      </main>
    </div>
  );
}

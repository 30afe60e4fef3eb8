import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../../root.tsx";
import { SchoolErrorFrame, SchoolPageError } from "../school/school-page-error.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { PublicHeader } from "./public-header.tsx";

/**
 * The root's boundary (app/root.tsx): 'Page Not Found', the spec's 'Unexpected Application Error!',
 * or, on a signed-in teacher's school page (a page whose route list never arrived when the
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

import { isRouteErrorResponse, useRouteError } from "react-router";
import { NotFoundPage } from "../public/not-found-page.tsx";
import { PublicHeader } from "../public/public-header.tsx";
import { SiteFooter } from "../public/site-footer.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";

/** Errors of a school page: the spec's 'School Not Found' and 'Error' panels. */
export function SchoolErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404 ? (error.data?.notFound ?? "page") : null;
  if (notFound === "page") return <NotFoundPage />;
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        {notFound === "school" ? (
          <StatusPanel title="School Not Found" actions={<ButtonLink to="/">Return to Home</ButtonLink>}>
            <p>The school you're looking for doesn't exist or has been removed.</p>
          </StatusPanel>
        ) : (
          <StatusPanel title="Error" tone="error" actions={<ButtonLink to="/">Return to Home</ButtonLink>}>
            <p>Failed to fetch school data</p>
          </StatusPanel>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}

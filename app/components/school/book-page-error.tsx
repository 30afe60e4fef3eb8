import type { ReactNode } from "react";
import { type ErrorResponse, isRouteErrorResponse, useRouteError } from "react-router";
import { LicenceEnded, licenceEndedOf } from "./licence-ended.tsx";
import { SchoolPageError, useSchoolBasePath } from "./school-page-error.tsx";

/**
 * A school book page's error boundary: a licence that ended says so, with whom to ask; a 404 is
 * the page's own `notFound` (each page words it as the spec has it for that page); anything else
 * (offline, a failure) is the school's own error page.
 */
export function BookPageError({ notFound }: { notFound: (error: ErrorResponse, basePath: string) => ReactNode }) {
  const error = useRouteError();
  const basePath = useSchoolBasePath();
  const ended = licenceEndedOf(error);
  if (ended) return <LicenceEnded ended={ended} backHref={`${basePath}/dashboard`} />;
  if (!isRouteErrorResponse(error) || error.status !== 404) return <SchoolPageError error={error} basePath={basePath} />;
  return notFound(error, basePath);
}

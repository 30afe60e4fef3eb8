import { isRouteErrorResponse, useRouteError } from "react-router";
import { BookDetails } from "../components/school/book-details.tsx";
import { SchoolPageError, useSchoolBasePath } from "../components/school/school-page-error.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { StatusPanel } from "../components/ui/status-panel.tsx";
import { loadSchoolBook } from "../lib/school-book.server.ts";
import type { Route } from "./+types/school-book";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.book.title ?? "Book Not Found"} · Lectern` }];

export function loader(args: Route.LoaderArgs) {
  return loadSchoolBook(args);
}

export default function SchoolBook({ loaderData }: Route.ComponentProps) {
  const { book, basePath } = loaderData;
  return <BookDetails book={book} readerHref={`${basePath}/dashboard/book/${book.id}/view`} backHref={`${basePath}/dashboard`} />;
}

/**
 * 'Book Not Found' for an id that is no book, 'This book is not available for your school' for a
 * book the school was not given; anything else (offline, a failure) in the school's words.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const basePath = useSchoolBasePath();
  if (!isRouteErrorResponse(error) || error.status !== 404) return <SchoolPageError error={error} basePath={basePath} />;
  const back = <ButtonLink to={`${basePath}/dashboard`}>Back to Books</ButtonLink>;
  if ((error.data as { reason?: string } | undefined)?.reason === "not-available") {
    return <StatusPanel title="This book is not available for your school" actions={back} />;
  }
  return (
    <StatusPanel title="Book Not Found" actions={back}>
      <p>The requested book could not be found.</p>
    </StatusPanel>
  );
}

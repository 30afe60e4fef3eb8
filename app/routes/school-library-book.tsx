import type { ErrorResponse } from "react-router";
import { BookDetails, Fact } from "../components/school/book-details.tsx";
import { BookPageError } from "../components/school/book-page-error.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { StatusPanel } from "../components/ui/status-panel.tsx";
import { loadSchoolBook } from "../lib/school-book.server.ts";
import type { Route } from "./+types/school-library-book";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.book.title ?? "Book not found"} · Lectern` }];

export function loader(args: Route.LoaderArgs) {
  return loadSchoolBook(args, { param: "id" });
}

export default function SchoolLibraryBook({ loaderData }: Route.ComponentProps) {
  const { book, basePath } = loaderData;
  const added = new Date(book.createdAt).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
  return (
    <BookDetails
      book={book}
      readerHref={`${basePath}/dashboard/book/${book.id}/view`}
      backHref={`${basePath}/dashboard`}
      extra={<Fact label="Added" value={added} />}
    />
  );
}

export function ErrorBoundary() {
  return <BookPageError notFound={(error, basePath) => <NotFound error={error} basePath={basePath} />} />;
}

/** This page tells a book the school was not given from one that does not exist. */
function NotFound({ error, basePath }: { error: ErrorResponse; basePath: string }) {
  const notAvailable = (error.data as { reason?: string } | undefined)?.reason === "not-available";
  return (
    <StatusPanel
      title={notAvailable ? "This book is not available for your school" : "Book not found"}
      actions={<ButtonLink to={`${basePath}/dashboard`}>Back to Dashboard</ButtonLink>}
    />
  );
}

import { BookDetails } from "../components/school/book-details.tsx";
import { BookPageError } from "../components/school/book-page-error.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { StatusPanel } from "../components/ui/status-panel.tsx";
import { loadSchoolBook } from "../lib/school-book.server.ts";
import type { Route } from "./+types/school-book";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.book.title ?? "Book Not Found"} · Lectern` }];

export function loader(args: Route.LoaderArgs) {
  return loadSchoolBook(args, { tellWhy: false });
}

export default function SchoolBook({ loaderData }: Route.ComponentProps) {
  const { book, basePath } = loaderData;
  return <BookDetails book={book} readerHref={`${basePath}/dashboard/book/${book.id}/view`} backHref={`${basePath}/dashboard`} />;
}

/**
 * 'Book Not Found' for any book the school cannot open here, as the spec has it for this page
 * (no such book, or one the school was not given); anything else (offline, a failure) in the
 * school's words.
 */
export function ErrorBoundary() {
  return (
    <BookPageError
      notFound={(_, basePath) => (
        <StatusPanel title="Book Not Found" actions={<ButtonLink to={`${basePath}/dashboard`}>Back to Books</ButtonLink>}>
          <p>The requested book could not be found.</p>
        </StatusPanel>
      )}
    />
  );
}

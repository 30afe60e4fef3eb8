import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from "react-router";
import { BookDetails } from "../components/school/book-details.tsx";
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

export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData("routes/school-app") as { basePath: string } | undefined;
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <StatusPanel title="Book Not Found" actions={<ButtonLink to={`${layout?.basePath ?? ""}/dashboard`}>Back to Books</ButtonLink>}>
      <p>The requested book could not be found.</p>
    </StatusPanel>
  );
}

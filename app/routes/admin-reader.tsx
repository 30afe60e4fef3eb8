import { data, isRouteErrorResponse, useRouteError } from "react-router";
import { findBook } from "../../workers/books/detail.ts";
import { appContext } from "../../workers/http/context.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { PdfReader } from "../components/reader/pdf-reader.tsx";
import { ReaderError } from "../components/reader/reader-error.tsx";
import { requireAdmin } from "../lib/guards/admin.server.ts";
import type { Route } from "./+types/admin-reader";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title ?? "Reader"} · Lectern Admin` }];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const bookId = parseId(args.params.id);
  if (!bookId) throw data({ message: "No book ID provided" }, { status: 404 });
  const book = await findBook(args.context.get(appContext).db, bookId);
  if (!book) throw data({ message: "Failed to load book details" }, { status: 404 });
  if (!book.pdfKey) throw data({ message: "PDF not available" }, { status: 404 });
  return { bookId: book.id, title: book.title };
}

export default function AdminReader({ loaderData }: Route.ComponentProps) {
  const { bookId, title } = loaderData;
  const pdfUrl = `/api/books/${bookId}/pdf`;
  return (
    <PdfReader
      pdfUrl={pdfUrl}
      title={title}
      backHref="/admin/books"
      backLabel="Back to Books"
      initialPage={1}
      toolbarExtra={
        <a
          href={pdfUrl}
          download
          className="inline-flex h-9 items-center gap-1 rounded-lg bg-indigo-500 px-3 font-medium text-white hover:bg-indigo-400"
        >
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M12 4v11M7 10l5 5 5-5M5 20h14" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="hidden sm:inline">Download</span>
        </a>
      }
    />
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.data as { message?: string } | undefined)?.message) {
    return <ReaderError message={(error.data as { message: string }).message} backHref="/admin/books" backLabel="Back to Books" />;
  }
  throw error;
}

import { lazy, Suspense } from "react";
import { data, isRouteErrorResponse, useRouteError } from "react-router";
import { findBook } from "../../workers/books/detail.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { listPages, readingState, readySet } from "../../workers/page-images/page-reading.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { AdminReaderLinks } from "../components/reader/admin-reader-links.tsx";
import { LoadingPdfViewer } from "../components/reader/loading-pdf-viewer.tsx";
import { PageReader } from "../components/reader/page-reader.tsx";
import { ReaderError, ReaderPreparing } from "../components/reader/reader-error.tsx";
import { requireRole } from "../lib/guards/role.server.ts";
import { IMAGE_WIDTHS } from "../lib/reader/image-width.ts";
import type { Route } from "./+types/admin-reader";

// pdf.js comes only with the PDF view: the prepared pages need none of it.
const PdfReader = lazy(() => import("../components/reader/pdf-reader.tsx").then((module) => ({ default: module.PdfReader })));

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title ?? "Reader"} · Lectern Admin` }];

const BACK = { backHref: "/admin/books", backLabel: "Back to Books" } as const;

/**
 * The book as teachers read it, from its prepared page images (the admin gets them unstamped),
 * with the PDF's download; `?view=pdf` (and a book whose pages were never prepared) shows the PDF
 * itself in pdf.js instead (docs/decisions/0022).
 */
export async function loader(args: Route.LoaderArgs) {
  requireRole("admin", args);
  const bookId = parseId(args.params.id);
  if (!bookId) throw data({ message: "No book ID provided" }, { status: 404 });
  const db = args.context.get(appContext).db;
  const book = await findBook(db, bookId);
  if (!book) throw data({ message: "Failed to load book details" }, { status: 404 });
  const [state, set] = await Promise.all([readingState(db, book), readySet(db, book)]);
  if (state === "no-pdf") throw data({ message: "PDF not available" }, { status: 404 });
  const pdfView = new URL(args.request.url).searchParams.get("view") === "pdf";
  return {
    bookId: book.id,
    title: book.title,
    // The book's own PDF: a first upload whose pages are still being prepared is not the book's yet.
    pdfUrl: book.pdfKey ? `/api/books/${book.id}/pdf` : null,
    hasPages: set !== null,
    list: set && !(pdfView && book.pdfKey) ? await listPages(db, set) : null,
  };
}

export default function AdminReader({ loaderData }: Route.ComponentProps) {
  const { bookId, title, pdfUrl, hasPages, list } = loaderData;
  const path = `/admin/pdf/${bookId}`;
  if (list) {
    return (
      <PageReader
        bookId={bookId}
        title={title}
        {...BACK}
        initialPage={1}
        list={list}
        firstImageWidth={IMAGE_WIDTHS[0]}
        toolbarExtra={<AdminReaderLinks pdfUrl={pdfUrl} otherView={pdfUrl ? { href: `${path}?view=pdf`, label: "PDF view" } : null} />}
      />
    );
  }
  if (pdfUrl) {
    return (
      <Suspense fallback={<LoadingPdfViewer />}>
        <PdfReader
          pdfUrl={pdfUrl}
          title={title}
          {...BACK}
          initialPage={1}
          toolbarExtra={<AdminReaderLinks pdfUrl={pdfUrl} otherView={hasPages ? { href: path, label: "Page view" } : null} />}
        />
      </Suspense>
    );
  }
  return (
    <ReaderPreparing
      title="Preparing pages"
      message="The PDF is uploaded and its pages are being prepared. The book's page prepares them in your browser."
      backHref={`/admin/book/${bookId}`}
      backLabel="Open the book's page"
    />
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.data as { message?: string } | undefined)?.message) {
    return <ReaderError message={(error.data as { message: string }).message} {...BACK} />;
  }
  throw error;
}

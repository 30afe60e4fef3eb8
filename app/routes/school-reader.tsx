import { useCallback, useEffect, useRef } from "react";
import { data, isRouteErrorResponse, useRouteError } from "react-router";
import { appContext } from "../../workers/context.ts";
import { getDb } from "../../workers/db/client.ts";
import { findSchoolBook, parseBookId } from "../../workers/library.ts";
import { findProgress } from "../../workers/reading-progress.ts";
import { PageReader } from "../components/reader/page-reader.tsx";
import { ReaderError, ReaderPreparing } from "../components/reader/reader-error.tsx";
import { requireTeacher } from "../lib/teacher.server.ts";
import type { Route } from "./+types/school-reader";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title ?? "Reader"} · Lectern` }];

type ReaderFailure = { message: string; backHref: string };

function fail(status: number, failure: ReaderFailure): never {
  throw data(failure, { status });
}

export async function loader(args: Route.LoaderArgs) {
  const { teacher, school, basePath } = await requireTeacher(args);
  const backHref = `${basePath}/dashboard`;
  const bookId = parseBookId(args.params.bookId);
  if (!bookId) fail(404, { message: "No book ID provided", backHref });
  const db = getDb(args.context.get(appContext).env.DB);
  const book = await findSchoolBook(db, school.id, bookId);
  if (!book) fail(404, { message: "Failed to load book details", backHref });
  if (!book.pdfKey) fail(404, { message: "This book does not have a PDF file available", backHref });
  const page = (await findProgress(db, teacher.id, book.id)) ?? 1;
  return {
    bookId: book.id,
    title: book.title,
    page: book.pageCount ? Math.min(page, book.pageCount) : page,
    backHref,
    // Until the server has made the book's page images there is nothing to show yet.
    preparing: book.pageSetId === null,
  };
}

export default function SchoolReader({ loaderData }: Route.ComponentProps) {
  const { bookId, title, page, backHref, preparing } = loaderData;
  const save = useProgressSaver(bookId);
  if (preparing) return <ReaderPreparing backHref={backHref} backLabel="Back to Dashboard" />;
  return (
    <PageReader bookId={bookId} title={title} backHref={backHref} backLabel="Back to Dashboard" initialPage={page} onPageChange={save} />
  );
}

const SAVE_DELAY_MS = 1500;

/** Saves the page being read once the teacher settles on it, and when they leave. */
function useProgressSaver(bookId: number) {
  const pending = useRef<number | null>(null);
  const saved = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const flush = useCallback(() => {
    const page = pending.current;
    if (page === null || page === saved.current) return;
    saved.current = page;
    void fetch(`/api/reading-progress/${bookId}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ page }),
      credentials: "same-origin",
      keepalive: true,
    }).catch(() => {});
  }, [bookId]);
  useEffect(() => {
    const onHide = () => document.visibilityState === "hidden" && flush();
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      clearTimeout(timer.current);
      flush();
    };
  }, [flush]);
  return useCallback(
    (page: number) => {
      if (saved.current === null) saved.current = page; // the page we opened at is already stored
      pending.current = page;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.data as ReaderFailure | undefined)?.message) {
    const failure = error.data as ReaderFailure;
    return <ReaderError message={failure.message} backHref={failure.backHref} backLabel="Back to Dashboard" />;
  }
  throw error;
}

import type { ReactNode } from "react";
import { Link } from "react-router";
import { bookCategory } from "#shared/rules/book-category.ts";
import { formatDay } from "#shared/rules/licence.ts";
import type { TeacherBook } from "../../../workers/reading/library.ts";
import { KeepForOffline } from "../offline/keep-for-offline.tsx";
import { BookCover } from "../ui/book-cover.tsx";
import { buttonClasses } from "../ui/button.tsx";

/** A book's page for teachers: cover, what it is, and the way into the reader. */
export function BookDetails({
  book,
  readerHref,
  backHref,
  extra,
}: {
  book: TeacherBook;
  readerHref: string;
  backHref: string;
  extra?: ReactNode;
}) {
  const authors = [book.author1, book.author2].filter(Boolean).join(", ");
  return (
    <div className="space-y-6">
      <Link
        to={backHref}
        className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        <span aria-hidden="true">←</span> Back to Books
      </Link>
      <article className="grid gap-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 md:grid-cols-[minmax(0,16rem)_1fr] dark:border-slate-800 dark:bg-slate-900">
        <BookCover src={book.thumbnailPath} title={book.title} className="mx-auto aspect-[2/3] w-full max-w-64 rounded-lg shadow-md" />
        <div className="min-w-0">
          <span className="rounded-full bg-indigo-50 px-2.5 py-1 text-xs font-semibold text-indigo-700 dark:bg-indigo-950/70 dark:text-indigo-200">
            {bookCategory(book)}
          </span>
          <h1 className="mt-3 text-2xl font-bold tracking-tight text-balance sm:text-3xl">{book.title}</h1>
          {authors && <p className="mt-1 text-slate-600 dark:text-slate-400">by {authors}</p>}
          <p className="mt-5 leading-relaxed text-slate-700 dark:text-slate-300">
            {book.description?.trim() || "No description available."}
          </p>
          <dl className="mt-6 grid grid-cols-1 gap-4 text-sm sm:grid-cols-2">
            <Fact label="Grade Level" value={book.gradeLevel !== null ? `Standard ${book.gradeLevel}` : "Not specified"} />
            <Fact label="ISBN" value={book.isbn || "Not available"} />
            {book.subject && <Fact label="Subject" value={book.subject} />}
            {book.pageCount ? <Fact label="Pages" value={String(book.pageCount)} /> : null}
            {book.availableUntil && <Fact label="Available until" value={formatDay(book.availableUntil)} />}
            {extra}
          </dl>
          <div className="mt-8 flex flex-wrap gap-3">
            {book.readable ? (
              <Link to={readerHref} className={buttonClasses("primary", "px-6")}>
                View Book
              </Link>
            ) : (
              <button
                type="button"
                disabled
                className={buttonClasses("primary", "px-6")}
                title={book.hasPdf ? PREPARING : "This book does not have a PDF file available"}
              >
                View Book
              </button>
            )}
          </div>
          {!book.readable && (
            <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
              {book.hasPdf ? PREPARING : "This book does not have a PDF file available yet."}
            </p>
          )}
          {book.readable && <KeepForOffline book={{ bookId: book.id, title: book.title, readerUrl: readerHref }} />}
        </div>
      </article>
    </div>
  );
}

const PREPARING = "This book is still being prepared. Please check back in a few minutes.";

export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 font-medium">{value}</dd>
    </div>
  );
}

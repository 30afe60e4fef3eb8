import { useEffect, useState } from "react";
import { formatDateTime } from "../../lib/format-date.ts";
import { eraseOfflineCopies, listOfflineCopies, onCopiesChanged } from "../../lib/offline/offline-books.ts";
import type { OfflineCopy } from "../../lib/offline/offline-db.ts";
import { returnLoan } from "../../lib/offline/offline-loan-api.ts";
import { isPartial } from "./keep-for-offline.tsx";
import { useOnline } from "./use-offline-contact.ts";

/**
 * The dashboard's "Kept for offline" row (issue 45): the books this device keeps for the school at
 * `basePath`, each until when; offline it is the list of books that can be opened. Nothing shows
 * on a device that keeps none (and on the server, which cannot know).
 */
export function KeptBooks({ basePath }: { basePath: string }) {
  const [copies, setCopies] = useState<OfflineCopy[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [returning, setReturning] = useState<number | null>(null);
  const online = useOnline();

  useEffect(() => {
    let live = true;
    const read = () =>
      listOfflineCopies().then(
        (found) => live && setCopies(found.filter((copy) => copy.readerUrl.startsWith(`${basePath}/dashboard/book/`))),
        () => {},
      );
    void read();
    const stop = onCopiesChanged(read);
    return () => {
      live = false;
      stop();
    };
  }, [basePath]);

  if (copies.length === 0) return null;
  const giveBack = (bookId: number) => {
    setReturning(bookId);
    setError(null);
    returnLoan(bookId)
      .then(() => eraseOfflineCopies([bookId]))
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
      .finally(() => setReturning(null));
  };
  const heading = online ? "Kept for offline on this device" : "You are offline: these books can be opened";
  return (
    <section
      aria-labelledby="kept-books-heading"
      className="rounded-2xl border border-indigo-200 bg-indigo-50/60 p-4 dark:border-indigo-900 dark:bg-indigo-950/30"
    >
      <h2 id="kept-books-heading" className="text-lg font-semibold">
        {heading}
      </h2>
      <ul className="mt-3 divide-y divide-indigo-100 dark:divide-indigo-900/60">
        {copies.map((copy) => (
          <li key={copy.bookId} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
            <a href={copy.readerUrl} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              {copy.title}
            </a>
            <span className="text-sm text-slate-600 dark:text-slate-400">
              {isPartial(copy) ? `${copy.saved} of ${copy.pageCount} pages, until ` : "Until "}
              {formatDateTime(copy.until)}
            </span>
            {online && (
              <button
                type="button"
                className="ml-auto text-sm font-medium text-slate-700 underline hover:text-slate-900 disabled:opacity-60 dark:text-slate-300"
                onClick={() => giveBack(copy.bookId)}
                disabled={returning === copy.bookId}
                aria-label={`Return ${copy.title} now`}
              >
                {returning === copy.bookId ? "Returning…" : "Return now"}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
    </section>
  );
}

import { Link } from "react-router";
import { BookCover } from "../ui/book-cover.tsx";

export type ReadingEntry = { bookId: number; title: string; thumbnailPath: string | null; page: number; pageCount: number | null };

/** The books a teacher was in the middle of, newest first, each opening at the saved page. */
export function ContinueReading({ entries, basePath }: { entries: ReadingEntry[]; basePath: string }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="continue-reading" className="space-y-3">
      <h2 id="continue-reading" className="text-lg font-semibold">
        Continue reading
      </h2>
      <ul className="flex snap-x gap-4 overflow-x-auto pb-2">
        {entries.map((entry) => {
          const percent = entry.pageCount ? Math.min(100, Math.round((entry.page / entry.pageCount) * 100)) : null;
          return (
            <li key={entry.bookId} className="w-72 shrink-0 snap-start">
              <Link
                to={`${basePath}/dashboard/book/${entry.bookId}/view`}
                className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
              >
                <BookCover src={entry.thumbnailPath} title={entry.title} className="aspect-[2/3] w-14 shrink-0 rounded" />
                <div className="min-w-0 flex-1">
                  <p className="line-clamp-2 text-sm font-semibold">{entry.title}</p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                    Page {entry.page}
                    {entry.pageCount ? ` of ${entry.pageCount}` : ""}
                  </p>
                  {percent !== null && (
                    <div className="mt-2 h-1.5 rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
                      <div className="h-full rounded-full bg-indigo-600 dark:bg-indigo-400" style={{ width: `${percent}%` }} />
                    </div>
                  )}
                </div>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

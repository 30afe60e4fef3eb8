import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses } from "../admin-page.tsx";
import { CancelPreparation } from "./cancel-preparation.tsx";
import { FailedPages } from "./failed-pages.tsx";
import { BOARD_KEY, cancelPreparation, fetchBoard, type PreparationBoard, type PreparingBook } from "./preparation-calls.ts";
import { PreparationNotices } from "./preparation-notices.tsx";
import { PreparingProgress } from "./progress-bar.tsx";

/** While a book is being prepared the list moves every few seconds; else a new upload shows within half a minute. */
export const BOARD_POLL_MS = { busy: 3_000, idle: 30_000 };

/** The Preparation page: every book being prepared, live, and the outcomes of the last 30 days. */
export function PreparationBoardView({ initial }: { initial: PreparationBoard }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: BOARD_KEY,
    queryFn: fetchBoard,
    initialData: initial,
    staleTime: BOARD_POLL_MS.busy,
    refetchInterval: (q) => (q.state.data?.preparing.length ? BOARD_POLL_MS.busy : BOARD_POLL_MS.idle),
  });
  const { preparing, notices } = query.data;
  return (
    <div className="space-y-6">
      <section className={cardClasses} aria-labelledby="preparing-title">
        <h2 id="preparing-title" className="mb-3 font-semibold">
          Being prepared {preparing.length > 0 && <span className="font-normal text-slate-500">({preparing.length})</span>}
        </h2>
        {query.isError && (
          <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
            {(query.error as Error).message}. Trying again...
          </p>
        )}
        {preparing.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No book is being prepared. A PDF's pages are prepared here as soon as it is uploaded.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {preparing.map((book) => (
              <PreparingRow
                key={book.setId}
                book={book}
                onCancel={async () => {
                  await cancelPreparation(book.bookId, book.setId);
                  await queryClient.invalidateQueries({ queryKey: BOARD_KEY });
                }}
              />
            ))}
          </ul>
        )}
      </section>
      <section className={cardClasses} aria-labelledby="notices-title">
        <h2 id="notices-title" className="mb-3 font-semibold">
          Recent outcomes
        </h2>
        <PreparationNotices notices={notices} />
      </section>
    </div>
  );
}

function PreparingRow({ book, onCancel }: { book: PreparingBook; onCancel: () => Promise<void> }) {
  return (
    <li className="space-y-2 py-3 text-sm first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Link to={`/admin/book/${book.bookId}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            {book.title}
          </Link>
          <p className="text-slate-600 dark:text-slate-400">
            Started <LocalDateTime value={book.startedAt} />
            {book.startedBy ? ` by ${book.startedBy}` : ""}
          </p>
        </div>
        <CancelPreparation
          id={`cancel-${book.setId}`}
          label={`Cancel preparing ${book.title}`}
          title={book.title}
          newPdf={book.newPdf}
          hasReadyPages={book.hasReadyPages}
          onConfirm={onCancel}
        />
      </div>
      <PreparingProgress handled={book.done + book.failedCount} total={book.pageCount} label={`Pages of ${book.title} prepared`} />
      <FailedPages failed={book.failures} total={book.failedCount} />
    </li>
  );
}

import type { ReactNode } from "react";
import { useId } from "react";
import { Link } from "react-router";
import { bookCategory } from "#shared/rules/book-category.ts";
import { formatDay } from "#shared/rules/licence.ts";
import type { TeacherBook } from "../../../workers/reading/library.ts";
import { BookCover } from "../ui/book-cover.tsx";
import { InfoTooltip } from "./info-tooltip.tsx";

export function authorLine(book: Pick<TeacherBook, "author1" | "author2">): string {
  return [book.author1, book.author2].filter(Boolean).join(", ");
}

/** Cards painted in the first screen on a phone or a laptop: their covers load eagerly. */
export const FIRST_SCREEN_CARDS = 4;

/**
 * One book in the grid: the cover and the book's title and authors (one link), then a row with its
 * category, the (i) description and the star. The buttons sit in that row, never over the cover,
 * whose corners carry the publisher's name and the cover's own text. The description shows in a
 * tooltip (InfoTooltip): on hover (closing 300 ms after the pointer leaves, so it can be reached),
 * on keyboard focus, or toggled by a tap.
 */
export function BookCard({
  book,
  href,
  priority = false,
  star,
}: {
  book: TeacherBook;
  href: string;
  priority?: boolean;
  /** A control at the end of the card's bottom row: the dashboard's 'My books' star. */
  star?: ReactNode;
}) {
  const tooltipId = useId();

  return (
    <article className="group relative flex flex-col overflow-visible rounded-xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <Link to={href} className="flex flex-1 flex-col rounded-xl" aria-describedby={book.description ? tooltipId : undefined}>
        <BookCover
          src={book.thumbnailPath}
          title={book.title}
          priority={priority}
          sizes={BOOK_GRID_COVER_SIZES}
          className="aspect-[2/3] w-full rounded-t-xl"
        />
        <div className="flex flex-1 flex-col gap-1 px-3 pt-3">
          <span className="self-start rounded-full bg-indigo-50 px-2 py-0.5 text-[11px] font-semibold text-indigo-700 dark:bg-indigo-950/70 dark:text-indigo-200">
            {bookCategory(book)}
          </span>
          <h3 className="line-clamp-2 text-sm font-semibold leading-snug">{book.title}</h3>
          <p className="line-clamp-1 text-xs text-slate-500 dark:text-slate-400">{authorLine(book)}</p>
          {book.availableUntil && (
            <p className="text-xs font-medium text-amber-800 dark:text-amber-300">{`Available until ${formatDay(book.availableUntil)}`}</p>
          )}
        </div>
      </Link>
      <div className="flex items-center gap-1 px-3 pt-2 pb-3">
        <span className="mr-auto min-w-0 truncate text-xs text-slate-500 dark:text-slate-400">
          {book.pageCount ? `${book.pageCount} pages` : ""}
        </span>
        {book.description && (
          <InfoTooltip
            id={tooltipId}
            label={`About ${book.title}`}
            buttonClassName="flex size-8 shrink-0 items-center justify-center rounded-full text-slate-600 ring-1 ring-slate-900/10 hover:bg-slate-100 dark:text-slate-300 dark:ring-white/10 dark:hover:bg-slate-800"
            tooltipClassName="absolute right-2 bottom-14 left-2 z-20 rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-white shadow-xl dark:bg-slate-700"
          >
            {book.description}
          </InfoTooltip>
        )}
        {star}
      </div>
    </article>
  );
}

export function BookCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="aspect-[2/3] w-full bg-slate-200 dark:bg-slate-800" />
      <div className="space-y-2 p-3">
        <div className="h-3 w-5/6 rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-3 w-1/2 rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-3 w-16 rounded-full bg-slate-200 dark:bg-slate-800" />
      </div>
    </div>
  );
}

export const BOOK_GRID_CLASSES = "grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6";

/**
 * How wide a card's cover is drawn, for `<img sizes>`: the grid's column at each breakpoint (its
 * columns and 16 px gaps, in the school shell's main area: padding 16, 24 from sm, 32 and a 256 px
 * sidebar from lg), less the card's 1 px borders. Measured in Chromium against these classes:
 * 169 px at 390, 177 at 1280, 251 at 1920 (decision 0023).
 */
export const BOOK_GRID_COVER_SIZES = [
  "(min-width: 1536px) calc((100vw - 400px) / 6 - 2px)",
  "(min-width: 1280px) calc((100vw - 384px) / 5 - 2px)",
  "(min-width: 1024px) calc((100vw - 368px) / 4 - 2px)",
  "(min-width: 768px) calc((100vw - 96px) / 4 - 2px)",
  "(min-width: 640px) calc((100vw - 80px) / 3 - 2px)",
  "calc((100vw - 48px) / 2 - 2px)",
].join(", ");

export function BookGridSkeleton() {
  return (
    <div className={BOOK_GRID_CLASSES} role="status" aria-label="Loading books">
      {Array.from({ length: 8 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with no identity
        <BookCardSkeleton key={i} />
      ))}
    </div>
  );
}

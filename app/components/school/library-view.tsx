import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigation, useSearchParams } from "react-router";
import { matchesFilterText, readShelfQuery, type ShelfQuery, shelfFacets, writeShelfQuery } from "#shared/rules/shelf-query.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { Button } from "../ui/button.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { BOOK_GRID_CLASSES, BookCard, BookGridSkeleton, FIRST_SCREEN_CARDS } from "./book-card.tsx";
import { FavouriteStar } from "./favourite-star.tsx";
import { type LibraryData, useMore, useStars } from "./library-data.ts";
import { LibraryFilters } from "./library-filters.tsx";

/** The text box waits this long after the last key before the URL (and the server) follow. */
export const FILTER_DEBOUNCE_MS = 300;

/**
 * The teacher's library: heading and count, the filters, and the grid. The filters live in the URL
 * (`?subject=&grade=&sort=&q=&mine=1`): a change replaces the URL (React Router's search params),
 * the loader answers with the first page of that list, and Back or a shared link shows the same.
 * The text box narrows the loaded books at once while the server's answer is on its way. Stars
 * change at once and roll back when the server refuses.
 */
export function LibraryView({ data, continueReading }: { data: LibraryData; continueReading?: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const [, setSearchParams] = useSearchParams();
  // While a filter change is loading, the controls already show where it is going.
  const going = navigation.state === "loading" && navigation.location.pathname === location.pathname ? navigation.location : null;
  const wanted = readShelfQuery(new URLSearchParams((going ?? location).search));
  const wantedRef = useRef(wanted);
  wantedRef.current = wanted;

  const leaving = useRef(false);
  leaving.current = navigation.state !== "idle" && navigation.location.pathname !== location.pathname;
  const update = useCallback(
    (change: Partial<ShelfQuery>) => {
      // A filter that settles after the teacher opened a book must not pull them back to the list.
      if (leaving.current) return;
      const next = writeShelfQuery({ ...wantedRef.current, ...change }, new URLSearchParams(location.search));
      setSearchParams(next, { replace: true, preventScrollReset: true });
    },
    [location.search, setSearchParams],
  );

  const [text, setText] = useText(wanted.q, update);
  const stars = useStars(data);
  const more = useMore(data);

  // Counts come from the loader's per-(subject, grade) numbers, so they cost nothing to recompute.
  const groups = stars.adjust(data.groups);
  const facets = shelfFacets(groups, wanted);
  const shown = shelfFacets(groups, data.query).shown;
  const loadedAll = data.firstBooks.length + more.books.length >= shelfFacets(data.groups, data.query).shown;

  const narrowing = text.trim() !== data.query.q.trim();
  const books = [...data.firstBooks, ...more.books].filter(
    (book) => (!data.query.mine || stars.starred(book)) && (!narrowing || matchesFilterText(book, text)),
  );
  // Typing past what is loaded: the server's answer decides, not the first page.
  const waiting = narrowing && !loadedAll && books.length === 0;

  if (data.total === 0) {
    return (
      <div className="space-y-6">
        <DashboardHeading count={0} />
        <StatusPanel title="No Books Available">
          <p>There are no books assigned to this school yet. Books will appear here once they've been assigned by an administrator.</p>
        </StatusPanel>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <DashboardHeading count={shown} />
      {continueReading}
      <LibraryFilters query={wanted} facets={facets} text={text} onText={setText} onChange={update} />
      {stars.error && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
        >
          {stars.error}
        </p>
      )}
      <div aria-busy={going !== null} className={`space-y-6 transition-opacity ${going ? "opacity-60" : ""}`}>
        {waiting ? (
          <BookGridSkeleton />
        ) : books.length === 0 ? (
          <NothingFound mine={data.query.mine} filtered={data.query.subject !== null || data.query.grade !== null || text.trim() !== ""} />
        ) : (
          <>
            {/* Cards title their books with h3: this keeps the outline h1 > h2 > h3 for screen readers. */}
            <h2 className="sr-only">Books</h2>
            <div className={BOOK_GRID_CLASSES}>
              {books.map((book, i) => (
                <BookCard
                  key={book.id}
                  book={book}
                  href={`${data.basePath}/dashboard/book/${book.id}`}
                  priority={i < FIRST_SCREEN_CARDS}
                  star={<FavouriteStar title={book.title} starred={stars.starred(book)} onToggle={() => stars.toggle(book)} />}
                />
              ))}
            </div>
          </>
        )}
        {more.error && (
          <p role="alert" className="text-center text-sm text-red-700 dark:text-red-300">
            Unable to load books. {more.error}
          </p>
        )}
        {!loadedAll && !narrowing && !going && (
          <ShowMore onMore={() => more.load(data.firstBooks.length + more.books.length)} loading={more.loading} />
        )}
      </div>
    </div>
  );
}

/**
 * The text box's value, ahead of the URL: the URL's `q` follows FILTER_DEBOUNCE_MS after the last
 * key, and the box follows the URL when it changes from outside (Back, a link).
 */
function useText(q: string, update: (change: Partial<ShelfQuery>) => void) {
  const [text, setText] = useState(q);
  const committed = useRef(q);
  useEffect(() => {
    if (q.trim() === committed.current.trim()) return;
    committed.current = q;
    setText(q);
  }, [q]);
  const settled = useDebounced(text, FILTER_DEBOUNCE_MS);
  const latestUpdate = useRef(update);
  latestUpdate.current = update;
  useEffect(() => {
    if (settled.trim() === committed.current.trim()) return;
    committed.current = settled;
    latestUpdate.current({ q: settled });
  }, [settled]);
  return [text, setText] as const;
}

function NothingFound({ mine, filtered }: { mine: boolean; filtered: boolean }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
      <p>No books found</p>
      {mine && !filtered && <p className="mt-1 text-sm">Tap the star on a book to add it to My books.</p>}
    </div>
  );
}

export function DashboardHeading({ count }: { count: number }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Books Library</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">Browse and access all books available for your school</p>
      </div>
      <span
        className="rounded-full bg-indigo-100 px-3 py-1 text-sm font-semibold text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200"
        aria-live="polite"
      >
        {`${count} book(s) available`}
      </span>
    </div>
  );
}

/** Loads the next page when it scrolls into view; the button is there for keyboards and old browsers. */
function ShowMore({ onMore, loading }: { onMore: () => void; loading: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onMore);
  latest.current = onMore;
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && latest.current(), {
      rootMargin: "600px",
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="flex justify-center">
      <Button variant="secondary" onClick={onMore} disabled={loading}>
        {loading ? "Loading..." : "Show more books"}
      </Button>
    </div>
  );
}

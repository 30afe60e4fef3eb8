import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { coverPath } from "../../workers/books/category.ts";
import { appContext } from "../../workers/http/context.ts";
import { summariseShelf, toTeacherBook } from "../../workers/reading/library.ts";
import { BOOK_GRID_CLASSES, BookCard, BookGridSkeleton, FIRST_SCREEN_CARDS } from "../components/school/book-card.tsx";
import { CategoryChips } from "../components/school/category-chips.tsx";
import { ContinueReading } from "../components/school/continue-reading.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { StatusPanel } from "../components/ui/status-panel.tsx";
import { api, call } from "../lib/api-client.ts";
import { categoryChips, chipCount, inCategory, matchesText } from "../lib/book-category.ts";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import type { Route } from "./+types/school-dashboard";

/** Books painted by the server and added per scroll: the page stays light whatever the shelf's size. */
const PAGE = 48;

export const meta: Route.MetaFunction = () => [{ title: "Books Library · Lectern" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { school, teacher, basePath } = context.get(teacherContext);
  const db = context.get(appContext).db;
  const shelf = await summariseShelf(db, school.id, PAGE, teacher.id);
  const continueReading = shelf.reading.map((r) => ({
    bookId: r.bookId,
    title: r.title,
    page: r.page,
    pageCount: r.pageCount,
    thumbnailPath: coverPath({ id: r.bookId, coverKey: r.coverKey, updatedAt: r.updatedAt, createdAt: r.createdAt }),
  }));
  return {
    firstBooks: shelf.firstBooks.map(toTeacherBook),
    total: shelf.total,
    groups: shelf.groups,
    continueReading,
    slug: school.slug,
    basePath,
  };
}

export default function SchoolDashboard({ loaderData }: Route.ComponentProps) {
  const { firstBooks, total, groups, continueReading, slug, basePath } = loaderData;
  const [text, setText] = useState("");
  const [category, setCategory] = useState<string>("all");
  const [limit, setLimit] = useState(PAGE);
  const complete = firstBooks.length >= total;
  const filtering = text.trim() !== "" || category !== "all";
  // The whole shelf is fetched only when the first page is not enough: a filter, a search, or scrolling on.
  const all = useQuery({
    queryKey: ["school-books", slug],
    enabled: !complete && (filtering || limit > PAGE),
    staleTime: 5 * 60_000,
    queryFn: async () =>
      (await call(() => api.api.schools.slug[":slug"].books.$get({ param: { slug }, query: {} }), "Failed to fetch books")).books,
  });
  const books = complete ? firstBooks : (all.data ?? firstBooks);
  const known = complete || all.data !== undefined;
  const chips = useMemo(() => categoryChips(groups), [groups]);
  const matching = useMemo(
    () => books.filter((book) => (category === "all" || inCategory(book, category)) && matchesText(book, text)),
    [books, category, text],
  );
  const count = known ? matching.length : category !== "all" && !text.trim() ? chipCount(groups, category) : total;
  const waiting = !known && filtering;
  const hasMore = known ? matching.length > limit : total > limit;

  if (total === 0) {
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
      <DashboardHeading count={count} />
      <ContinueReading entries={continueReading} basePath={basePath} />
      <div className="space-y-3">
        <label htmlFor="dashboard-search" className="sr-only">
          Search books
        </label>
        <input
          id="dashboard-search"
          type="search"
          placeholder="Search books..."
          className={`${inputClasses} max-w-md`}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <CategoryChips chips={chips} selected={category} onSelect={setCategory} />
      </div>
      {all.isError ? (
        <LoadError />
      ) : waiting ? (
        <BookGridSkeleton />
      ) : matching.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No books found
        </p>
      ) : (
        <>
          {/* Cards title their books with h3: this keeps the outline h1 > h2 > h3 for screen readers. */}
          <h2 className="sr-only">Books</h2>
          <div className={BOOK_GRID_CLASSES}>
            {matching.slice(0, limit).map((book, i) => (
              <BookCard key={book.id} book={book} href={`${basePath}/dashboard/book/${book.id}`} priority={i < FIRST_SCREEN_CARDS} />
            ))}
          </div>
          {hasMore && <ShowMore onMore={() => setLimit((n) => n + PAGE)} loading={all.isFetching} />}
        </>
      )}
    </div>
  );
}

function DashboardHeading({ count }: { count: number }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
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

function LoadError({ detail = "" }: { detail?: string }) {
  return (
    <StatusPanel
      title="Unable to load books"
      tone="error"
      actions={
        <Button onClick={() => window.location.reload()} className="px-5">
          Try Again
        </Button>
      }
    >
      <p>Something went wrong while loading your school's books.{detail}</p>
    </StatusPanel>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <LoadError detail={isRouteErrorResponse(error) ? ` (${error.status} ${error.statusText})` : ""} />;
}

import { useMemo, useState } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { appContext } from "../../workers/context.ts";
import { getDb } from "../../workers/db/client.ts";
import { listSchoolBooks, toTeacherBook } from "../../workers/library.ts";
import { BOOK_GRID_CLASSES, BookCard } from "../components/book-card.tsx";
import { Button } from "../components/button.tsx";
import { CategoryChips } from "../components/category-chips.tsx";
import { inputClasses } from "../components/field.tsx";
import { StatusPanel } from "../components/status-panel.tsx";
import { categoryChips, inCategory, matchesText } from "../lib/book-category.ts";
import { teacherContext } from "../lib/teacher.server.ts";
import type { Route } from "./+types/school-dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Books Library · Lectern" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { school, basePath } = context.get(teacherContext);
  const books = await listSchoolBooks(getDb(context.get(appContext).env.DB), school.id);
  return { books: books.map(toTeacherBook), basePath };
}

export default function SchoolDashboard({ loaderData }: Route.ComponentProps) {
  const { books, basePath } = loaderData;
  const [text, setText] = useState("");
  const [category, setCategory] = useState<string>("all");
  const chips = useMemo(() => categoryChips(books), [books]);
  const visible = useMemo(
    () => books.filter((book) => (category === "all" || inCategory(book, category)) && matchesText(book, text)),
    [books, category, text],
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Books Library</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">Browse and access all books available for your school</p>
        </div>
        <span
          className="rounded-full bg-indigo-100 px-3 py-1 text-sm font-semibold text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200"
          aria-live="polite"
        >
          {visible.length} book(s) available
        </span>
      </div>

      {books.length === 0 ? (
        <StatusPanel title="No Books Available">
          <p>There are no books assigned to this school yet. Books will appear here once they've been assigned by an administrator.</p>
        </StatusPanel>
      ) : (
        <>
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
          {visible.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
              No books found
            </p>
          ) : (
            <div className={BOOK_GRID_CLASSES}>
              {visible.map((book) => (
                <BookCard key={book.id} book={book} href={`${basePath}/dashboard/book/${book.id}`} />
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A teacher whose session ended mid-visit is sent to the login by the layout; anything else is a failure to load.
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
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
      <p>Something went wrong while loading your school's books.{detail ? ` (${detail})` : ""}</p>
    </StatusPanel>
  );
}

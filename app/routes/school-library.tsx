import { Form, useNavigation, useRouteError } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { listSchoolBooks, toTeacherBook } from "../../workers/reading/library.ts";
import { BOOK_GRID_CLASSES, BookCard, FIRST_SCREEN_CARDS } from "../components/school/book-card.tsx";
import { SchoolPageError, useSchoolBasePath } from "../components/school/school-page-error.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { Spinner } from "../components/ui/spinner.tsx";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import type { Route } from "./+types/school-library";

export const meta: Route.MetaFunction = () => [{ title: "Library · Lectern" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { school, basePath } = context.get(teacherContext);
  const search = new URL(request.url).searchParams.get("search")?.trim().slice(0, 200) ?? "";
  const books = await listSchoolBooks(context.get(appContext).db, school.id, search || undefined);
  return { books: books.map(toTeacherBook), search, basePath };
}

export default function SchoolLibrary({ loaderData }: Route.ComponentProps) {
  const { books, search, basePath } = loaderData;
  const navigation = useNavigation();
  const searching = navigation.state !== "idle" && navigation.location?.pathname === `${basePath}/books`;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Library</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">Browse all books available to your school</p>
      </div>
      <Form method="get" role="search" className="flex max-w-xl gap-2">
        <label htmlFor="library-search" className="sr-only">
          Search the library
        </label>
        <input
          id="library-search"
          name="search"
          type="search"
          defaultValue={search}
          placeholder="Search books..."
          className={inputClasses}
          maxLength={200}
        />
        <Button type="submit" disabled={searching}>
          Search
        </Button>
      </Form>
      {searching ? (
        <div className="flex justify-center py-16 text-indigo-600">
          <Spinner label="Searching" className="h-8 w-8" />
        </div>
      ) : books.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {search ? "No books found matching your search query" : "Your school doesn't have any books assigned yet"}
        </p>
      ) : (
        <>
          <h2 className="sr-only">Books</h2>
          <div className={BOOK_GRID_CLASSES}>
            {books.map((book, i) => (
              <BookCard key={book.id} book={book} href={`${basePath}/books/${book.id}`} priority={i < FIRST_SCREEN_CARDS} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

/** 'Unable to load books', saying when the teacher is offline, with 'Try Again' and the way back to the dashboard. */
export function ErrorBoundary() {
  const error = useRouteError();
  return <SchoolPageError error={error} basePath={useSchoolBasePath()} title="Unable to load books" />;
}

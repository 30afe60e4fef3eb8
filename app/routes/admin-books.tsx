import { useEffect, useRef, useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import { BookListQuerySchema } from "../../workers/books/input.ts";
import { listAdminBooks } from "../../workers/books/list.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { AdminPageHeader, cardClasses, Pager, rowClasses, TableHead, TableState, tableClasses } from "../components/admin/admin-page.tsx";
import { BookCover } from "../components/ui/book-cover.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { Options } from "../components/ui/options.tsx";
import type { Route } from "./+types/admin-books";

export const meta: Route.MetaFunction = () => [{ title: "Books · Lectern Admin" }];

const PAGE_SIZE = 25;
const SORTS = { title: "Title", createdAt: "Newest", grade: "Grade" } as const;
type Sort = keyof typeof SORTS;

/** One page of the catalogue: `?query=` (a search), `?sort=` (title, createdAt: newest first, grade) and `?page=`. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url).searchParams;
  const parsed = parseInput(BookListQuerySchema, {
    query: url.get("query")?.trim() ?? undefined,
    page: url.get("page") ?? undefined,
    sort: url.get("sort") ?? undefined,
  });
  // A URL the page did not make (a page number too far, an unknown sort) shows the first page by title.
  const { query = "", page, sort = "title" } = parsed.ok ? parsed.data : { page: 1 };
  const dir = sort === "createdAt" ? "desc" : "asc";
  const list = await listAdminBooks(context.get(appContext).db, { query, page, pageSize: PAGE_SIZE, sort, dir });
  return { books: list.books, total: list.total, page, query, sort };
}

/** The list's URL for a search, a sort and a page; what is the default stays out of it. */
function listParams(query: string, sort: Sort, page: number) {
  const params = new URLSearchParams();
  if (query) params.set("query", query);
  if (sort !== "title") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  return params;
}

export default function AdminBooks({ loaderData }: Route.ComponentProps) {
  const { books, total, page, query, sort } = loaderData;
  const [, setSearchParams] = useSearchParams();
  const [input, setInput] = useState(query);
  // The search follows the typing (a new search starts at its first page), 300 ms after it stops.
  const typing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const shown = useRef({ query, sort });
  shown.current = { query, sort };
  useEffect(() => () => clearTimeout(typing.current ?? undefined), []);
  function type(value: string) {
    setInput(value);
    clearTimeout(typing.current ?? undefined);
    typing.current = setTimeout(() => {
      typing.current = null;
      const next = value.trim();
      if (next !== shown.current.query)
        setSearchParams(listParams(next, shown.current.sort, 1), { replace: true, preventScrollReset: true });
    }, 300);
  }
  // Back and forward change the search under the box: the box follows, unless the admin is typing.
  useEffect(() => {
    if (!typing.current) setInput((current) => (current.trim() === query ? current : query));
  }, [query]);
  const go = (nextSort: Sort, nextPage: number) => setSearchParams(listParams(query, nextSort, nextPage), { preventScrollReset: true });
  return (
    <div>
      <AdminPageHeader
        title="Books"
        description="The whole catalogue, and where each book is assigned."
        actions={
          <>
            <ButtonLink variant="secondary" to="/admin/books/import">
              Import a catalogue
            </ButtonLink>
            <ButtonLink to="/admin/add-books">Add Book</ButtonLink>
          </>
        }
      />
      <div className={cardClasses}>
        <Form method="get" role="search" className="mb-4 flex flex-wrap gap-3">
          <label htmlFor="books-search" className="sr-only">
            Search books
          </label>
          <input
            id="books-search"
            name="query"
            type="search"
            placeholder="Search title, author, subject, ISBN..."
            className={`${inputClasses} max-w-md`}
            value={input}
            maxLength={200}
            onChange={(e) => type(e.target.value)}
          />
          <label htmlFor="books-sort" className="sr-only">
            Sort by
          </label>
          <select
            id="books-sort"
            name="sort"
            className={`${inputClasses} w-auto`}
            value={sort}
            onChange={(e) => go(e.target.value as Sort, page)}
          >
            <Options labels={SORTS} />
          </select>
        </Form>
        <TableState loading={false} error={null} empty={books.length === 0} />
        {books.length > 0 && (
          <table className={tableClasses}>
            <TableHead columns={["Book", "Grade / subject", "ISBN", "PDF", "Schools"]} />
            <tbody>
              {books.map((book) => (
                <tr key={book.id} className={rowClasses}>
                  <td className="py-2 pr-4">
                    <div className="flex items-center gap-3">
                      <BookCover src={book.thumbnailPath} title={book.title} className="aspect-[2/3] w-9 shrink-0 rounded" />
                      <div>
                        <Link to={`/admin/book/${book.id}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                          {book.title}
                        </Link>
                        <span className="block text-xs text-slate-500">{[book.author1, book.author2].filter(Boolean).join(", ")}</span>
                      </div>
                    </div>
                  </td>
                  <td className="py-2 pr-4">
                    {[book.gradeLevel ? `Standard ${book.gradeLevel}` : null, book.subject].filter(Boolean).join(" · ")}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs">{book.isbn ?? "—"}</td>
                  <td className="py-2 pr-4">
                    {book.pdfState === "ready" ? (
                      <Link to={`/admin/pdf/${book.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                        Open{book.pageCount ? ` (${book.pageCount} p.)` : ""}
                      </Link>
                    ) : book.pdfState === "preparing" ? (
                      <span className="text-amber-700 dark:text-amber-300">Preparing pages</span>
                    ) : (
                      <span className="text-slate-500">None</span>
                    )}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">{book.schoolCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={(next) => go(sort, next)} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <p className="py-8 text-center text-red-700 dark:text-red-300">Failed to fetch books</p>;
}

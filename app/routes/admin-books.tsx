import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import {
  AdminPageHeader,
  cardClasses,
  Pager,
  rowClasses,
  TableState,
  tableClasses,
  theadClasses,
} from "../components/admin/admin-page.tsx";
import { BookCover } from "../components/ui/book-cover.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { requestJson } from "../lib/api-client.ts";
import { useDebounced } from "../lib/use-debounced.ts";
import type { Route } from "./+types/admin-books";

export const meta: Route.MetaFunction = () => [{ title: "Books · Lectern Admin" }];

type AdminBook = {
  id: number;
  title: string;
  author1: string;
  author2: string | null;
  isbn: string | null;
  gradeLevel: number | null;
  subject: string | null;
  thumbnailPath: string | null;
  pdfPath: string | null;
  pageCount: number | null;
  schoolCount: number;
};

const PAGE_SIZE = 25;
const SORTS = { title: "Title", createdAt: "Newest", grade: "Grade" } as const;

export default function AdminBooks() {
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), 300);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<keyof typeof SORTS>("title");
  // A new search starts at its first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes
  useEffect(() => setPage(1), [query]);
  const books = useQuery({
    queryKey: ["admin-books", query, page, sort],
    placeholderData: keepPreviousData,
    queryFn: () =>
      requestJson<{ books: AdminBook[]; total: number }>(
        `/api/books?query=${encodeURIComponent(query)}&page=${page}&pageSize=${PAGE_SIZE}&sort=${sort}&dir=${sort === "createdAt" ? "desc" : "asc"}`,
        { fallback: "Failed to fetch books" },
      ),
  });
  return (
    <div>
      <AdminPageHeader
        title="Books"
        description="The whole catalogue, and where each book is assigned."
        actions={<ButtonLink to="/admin/add-books">Add Book</ButtonLink>}
      />
      <div className={cardClasses}>
        <div className="mb-4 flex flex-wrap gap-3">
          <label htmlFor="books-search" className="sr-only">
            Search books
          </label>
          <input
            id="books-search"
            type="search"
            placeholder="Search title, author, subject, ISBN..."
            className={`${inputClasses} max-w-md`}
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
          <label htmlFor="books-sort" className="sr-only">
            Sort by
          </label>
          <select
            id="books-sort"
            className={`${inputClasses} w-auto`}
            value={sort}
            onChange={(e) => setSort(e.target.value as keyof typeof SORTS)}
          >
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <TableState loading={books.isPending} error={books.error} empty={books.data?.books.length === 0} />
        {books.data && books.data.books.length > 0 && (
          <table className={tableClasses}>
            <thead className={theadClasses}>
              <tr>
                <th className="py-2 pr-4">Book</th>
                <th className="py-2 pr-4">Grade / subject</th>
                <th className="py-2 pr-4">ISBN</th>
                <th className="py-2 pr-4">PDF</th>
                <th className="py-2 pr-4">Schools</th>
              </tr>
            </thead>
            <tbody>
              {books.data.books.map((book) => (
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
                    {book.pdfPath ? (
                      <Link to={`/admin/pdf/${book.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                        Open{book.pageCount ? ` (${book.pageCount} p.)` : ""}
                      </Link>
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
        {books.data && <Pager page={page} pageSize={PAGE_SIZE} total={books.data.total} onPage={setPage} />}
      </div>
    </div>
  );
}

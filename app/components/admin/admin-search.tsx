import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api, call } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";

const FAILED = "Failed to fetch search data";

/** Searches books and schools together; a failure empties the list with the spec's message. */
export function AdminSearch() {
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), 300);
  const result = useQuery({
    queryKey: ["admin-search", query],
    enabled: query.length >= 2,
    queryFn: async () => {
      const [books, schools] = await Promise.all([
        call(() => api.api.books.search.$get({ query: { query } }), FAILED),
        call(() => api.api.schools.search.$get({ query: { query } }), FAILED),
      ]);
      // Schools first, then books: each a link to its page (which also keys it).
      return [
        ...schools.schools.map((s) => ({
          to: `/admin/school/${s.id}`,
          name: s.name || "Unnamed School",
          detail: `School · ${s.description}`,
        })),
        ...books.books.map((b) => ({ to: `/admin/book/${b.id}`, name: b.title || "Untitled Book", detail: `Book · ${b.authors}` })),
      ];
    },
  });
  const open = query.length >= 2 && input.trim().length >= 2;
  return (
    <div className="relative w-full max-w-md">
      <label htmlFor="admin-search" className="sr-only">
        Search books and schools
      </label>
      <input
        id="admin-search"
        type="search"
        placeholder="Search books and schools..."
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setInput("")}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900"
      />
      {open && (
        <div className="absolute z-40 mt-1 max-h-80 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-xl dark:border-slate-700 dark:bg-slate-900">
          {result.isError ? (
            <p className="px-3 py-2 text-red-700 dark:text-red-300">{FAILED}</p>
          ) : !result.data ? (
            <p className="px-3 py-2 text-slate-500">Searching...</p>
          ) : result.data.length === 0 ? (
            <p className="px-3 py-2 text-slate-500">Nothing found</p>
          ) : (
            result.data.map((found) => <Found key={found.to} {...found} onOpen={() => setInput("")} />)
          )}
        </div>
      )}
    </div>
  );
}

/** One school or book found, a link to its page; opening it empties the search. */
function Found({ to, name, detail, onOpen }: { to: string; name: string; detail: string; onOpen: () => void }) {
  return (
    <Link to={to} onClick={onOpen} className="block px-3 py-2 hover:bg-slate-100 dark:hover:bg-slate-800">
      <span className="font-medium">{name}</span>
      <span className="block text-xs text-slate-500">{detail}</span>
    </Link>
  );
}

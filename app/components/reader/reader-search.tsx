import { splitHighlights } from "../../lib/reader/highlight.ts";
import { searchBook } from "../../lib/reader/reader-api.ts";
import { useFetched } from "../../lib/use-fetched.ts";
import { Spinner } from "../ui/spinner.tsx";
import { panelCoversPages, ReaderPanel } from "./reader-panel.tsx";
import type { SearchDraft } from "./search-draft.ts";

const MAX_QUERY = 100;

/**
 * Search inside the book: the pages that hold a word, with the words highlighted; a result opens
 * its page, where the reader marks them too. `onHide` lets the pages show (narrow screens) and
 * keeps the search; `onClose` ends it.
 */
export function ReaderSearch({
  bookId,
  search: { draft, setDraft, query },
  onGoTo,
  onHide,
  onClose,
}: {
  bookId: number;
  search: SearchDraft;
  onGoTo: (page: number) => void;
  onHide: () => void;
  onClose: () => void;
}) {
  const search = useFetched(query ? `${bookId}:${query}` : null, (signal) => searchBook(bookId, query, signal));
  const jump = (page: number) => {
    onGoTo(page);
    if (panelCoversPages()) onHide();
  };
  const results = query && search.data?.query === query ? search.data : null;
  const waiting = draft.trim() !== "" && (draft.trim() !== query || search.fetching);

  return (
    <ReaderPanel title="Search in book" side="right" onClose={onClose}>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is unknown to Safari before 17 and to happy-dom; a form with the role is the same landmark */}
      <form
        role="search"
        className="p-3"
        onSubmit={(event) => {
          event.preventDefault();
          const first = results?.results[0];
          if (first) jump(first.n);
        }}
      >
        <label htmlFor="reader-search" className="sr-only">
          Search in book
        </label>
        <input
          id="reader-search"
          type="search"
          value={draft}
          maxLength={MAX_QUERY}
          placeholder="Find a word in this book"
          autoComplete="off"
          onChange={(event) => setDraft(event.target.value)}
          className="h-10 w-full rounded-lg border border-white/20 bg-slate-800 px-3 text-slate-100 placeholder:text-slate-400 focus:border-indigo-400 focus:outline-none"
        />
      </form>
      <div aria-live="polite" className="px-3 pb-3 text-sm">
        {waiting && (
          <p className="flex items-center gap-2 pb-2 text-slate-300">
            <Spinner label="Searching" className="h-4 w-4" /> <span aria-hidden="true">Searching...</span>
          </p>
        )}
        {search.error && query === draft.trim() ? (
          <p role="alert" className="text-red-300">
            {search.error.message}
          </p>
        ) : !results ? null : results.results.length === 0 ? (
          <p className="text-slate-300">No matches in this book</p>
        ) : (
          <>
            <p className="pb-2 text-slate-400">
              {results.total > results.results.length
                ? `The first ${results.results.length} of ${results.total} pages with a match`
                : `${results.total} ${results.total === 1 ? "page" : "pages"} with a match`}
            </p>
            <ul className="space-y-1">
              {results.results.map((result) => (
                <li key={result.n}>
                  <button
                    type="button"
                    onClick={() => jump(result.n)}
                    className="block w-full rounded-md px-3 py-2 text-left hover:bg-white/10 focus-visible:bg-white/10"
                  >
                    <span className="block text-xs font-semibold text-indigo-300">Page {result.n}</span>
                    <span className="block break-words text-slate-200">
                      {splitHighlights(result.snippet, result.highlights).map((part, i) =>
                        part.match ? (
                          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
                          <mark key={i} className="rounded-sm bg-amber-300 px-0.5 text-slate-950">
                            {part.text}
                          </mark>
                        ) : (
                          // biome-ignore lint/suspicious/noArrayIndexKey: as above
                          <span key={i}>{part.text}</span>
                        ),
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </ReaderPanel>
  );
}

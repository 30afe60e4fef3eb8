import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { bookCategory } from "#shared/rules/book-category.ts";
import { SEARCH_MIN_CHARS } from "#shared/rules/shelf-query.ts";
import { api, call, type Ok } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { Icon } from "../ui/icon.tsx";

export const SEARCH_DEBOUNCE_MS = 300;

const searchBooks = api.api.schools.slug[":slug"]["search-books"].$get;
type Hit = Ok<Awaited<ReturnType<typeof searchBooks>>>["books"][number];

/**
 * The header's book search: a combobox that stays closed until 3 typed characters have an
 * answer, searches 300 ms after typing stops, and is driven by arrows, Enter and Escape.
 * A failed search shows nothing (the dashboard grid is still there).
 *
 * Results belong to the text in the box: as soon as the text changes, the previous query's
 * results are dropped (the list closes and the box says 'Searching...' until the new answer),
 * and arrows and Enter act only on results for the current text, so a fast Enter never opens a
 * stale hit. Enter opens the highlighted result, else the first; pressed before the answer for
 * the current text, it opens the first result when that answer arrives, unless the text changed.
 */
export function BookSearch({ slug, basePath }: { slug: string; basePath: string }) {
  const navigate = useNavigate();
  const [input, setInput] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  // The text for which Enter was pressed before its answer came in.
  const pendingEnter = useRef<string | null>(null);
  const listId = useId();
  const query = useDebounced(input.trim(), SEARCH_DEBOUNCE_MS);
  const enabled = query.length >= SEARCH_MIN_CHARS;

  const { data, isError } = useQuery({
    queryKey: ["search-books", slug, query],
    enabled,
    staleTime: 30_000,
    queryFn: async ({ signal }) =>
      (await call(() => searchBooks({ param: { slug }, query: { query } }, { init: { signal } }), "Search failed. Please try again."))
        .books,
  });
  const current = input.trim();
  // Only an answer for the text now in the box counts; during the debounce `query` is still the old text.
  const answered = enabled && query === current;
  const hits = answered ? data : undefined;
  const searching = current.length >= SEARCH_MIN_CHARS && hits === undefined && !(answered && isError);
  const expanded = open && hits !== undefined;

  // Only a new answer acts (then `current` is its text); `choose` is the same each render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!hits) return;
    const first = pendingEnter.current === current ? hits[0] : undefined;
    pendingEnter.current = null;
    if (first) {
      choose(first);
      return;
    }
    setOpen(true);
    setActive(-1);
  }, [hits]);

  useEffect(() => {
    if (answered && isError) pendingEnter.current = null;
  }, [answered, isError]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current?.contains(event.target as Node)) return;
      setOpen(false);
      pendingEnter.current = null;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);

  function choose(hit: Hit) {
    setInput("");
    setOpen(false);
    navigate(`${basePath}/dashboard/book/${hit.id}`);
  }

  return (
    <div ref={rootRef} className="relative w-full max-w-md">
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search books
      </label>
      <Icon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400">
        <circle cx="11" cy="11" r="7" />
        <path d="M20 20l-3.5-3.5" strokeLinecap="round" />
      </Icon>
      <input
        id={`${listId}-input`}
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder="Search books..."
        value={input}
        onChange={(e) => {
          setInput(e.target.value);
          setActive(-1);
          pendingEnter.current = null;
          if (e.target.value.trim().length < SEARCH_MIN_CHARS) setOpen(false);
        }}
        onFocus={() => hits && setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            setOpen(false);
            pendingEnter.current = null;
            return;
          }
          if (event.key === "Enter") {
            event.preventDefault();
            if (hits) {
              const hit = (expanded && hits[active]) || hits[0];
              if (hit) choose(hit);
              else setOpen(true);
            } else if (searching) {
              pendingEnter.current = current;
            }
            return;
          }
          if (!hits?.length) return;
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
            const step = event.key === "ArrowDown" ? 1 : -1;
            setActive((i) => (i + step + hits.length) % hits.length);
          }
        }}
        className="block w-full rounded-lg border border-slate-300 bg-white py-2 pr-9 pl-9 text-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900"
      />
      <span role="status" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2">
        {searching && (
          <>
            <span
              className="block h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-500 motion-reduce:animate-none dark:border-slate-600"
              aria-hidden="true"
            />
            <span className="sr-only">Searching...</span>
          </>
        )}
      </span>
      {expanded && (
        <div
          id={listId}
          role="listbox"
          aria-label="Books found"
          className="absolute z-40 mt-1 max-h-[15rem] w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          {hits.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-500 dark:text-slate-400">No books found</p>
          ) : (
            hits.map((hit, index) => (
              <div
                key={hit.id}
                id={`${listId}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => choose(hit)}
                onKeyDown={() => {}}
                onPointerEnter={() => setActive(index)}
                className={`cursor-pointer px-3 py-2 text-sm ${index === active ? "bg-indigo-50 dark:bg-indigo-950/60" : ""}`}
              >
                <span className="block font-medium">{hit.title}</span>
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  {[hit.author1, hit.author2].filter(Boolean).join(", ")} · {bookCategory(hit)}
                </span>
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}

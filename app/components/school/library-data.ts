/**
 * The library list's data on the client: what the dashboard's loader sends (LibraryData), the
 * teacher's stars ahead of the server (useStars) and the books past the first page (useMore).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type ShelfGroup, type ShelfQuery, writeShelfQuery } from "#shared/rules/shelf-query.ts";
import type { LibraryBook } from "../../../workers/reading/library.ts";
import { ApiError, api, call } from "../../lib/api-client.ts";

/** What the dashboard's loader sends: the first page of the list its URL asks for, and the counts behind the filters. */
export interface LibraryData {
  firstBooks: LibraryBook[];
  /** Every book of the school, whatever the filters (0: the empty state). */
  total: number;
  groups: ShelfGroup[];
  /** The query the loader answered (read from the URL). */
  query: ShelfQuery;
  slug: string;
  basePath: string;
}

type StarChange = { starred: boolean; book: LibraryBook };

/**
 * The teacher's stars as the page shows them: the server's, changed at once by a tap and sent in
 * order per book (PUT or DELETE, both idempotent). When the last request for a book fails, the star
 * goes back to what the server last confirmed and a message says so. A new answer from the loader
 * replaces every settled change.
 */
export function useStars(data: LibraryData) {
  const [changes, setChanges] = useState<ReadonlyMap<number, StarChange>>(new Map());
  const [error, setError] = useState("");
  const inFlight = useRef(new Map<number, { chain: Promise<void>; latest: number; confirmed?: boolean }>());

  useEffect(() => {
    // The loader's answer already holds every settled change.
    void data;
    setChanges((current) => new Map([...current].filter(([id]) => inFlight.current.has(id))));
  }, [data]);

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(""), 8000);
    return () => clearTimeout(timer);
  }, [error]);

  const starred = useCallback((book: LibraryBook) => changes.get(book.id)?.starred ?? book.starred, [changes]);

  const toggle = useCallback(
    (book: LibraryBook) => {
      const next = !(changes.get(book.id)?.starred ?? book.starred);
      setChanges((current) => new Map(current).set(book.id, { starred: next, book }));
      setError("");
      const entry = inFlight.current.get(book.id) ?? { chain: Promise.resolve(), latest: 0 };
      const request = entry.latest + 1;
      entry.latest = request;
      const param = { id: String(book.id) };
      entry.chain = entry.chain
        .then(() =>
          call(
            () => (next ? api.api.books[":id"].favourite.$put({ param }) : api.api.books[":id"].favourite.$delete({ param })),
            "Could not update My books",
          ),
        )
        .then(
          () => {
            entry.confirmed = next;
          },
          (failure: unknown) => {
            if (entry.latest !== request) return;
            const back = entry.confirmed ?? book.starred;
            setChanges((current) => new Map(current).set(book.id, { starred: back, book }));
            const reason =
              failure instanceof ApiError && failure.status === 0 ? " Check your connection and try again." : " Please try again.";
            setError(`${next ? `Could not add ${book.title} to My books.` : `Could not remove ${book.title} from My books.`}${reason}`);
          },
        )
        .finally(() => {
          if (entry.latest === request) inFlight.current.delete(book.id);
        });
      inFlight.current.set(book.id, entry);
    },
    [changes],
  );

  /** The loader's counts with the unsettled stars in them, so 'My books (n)' follows each tap. */
  const adjust = useCallback(
    (groups: ShelfGroup[]) => {
      const moved = [...changes.values()].filter((change) => change.starred !== change.book.starred);
      if (moved.length === 0) return groups;
      return groups.map((group) => {
        const delta = moved
          .filter((change) => change.book.subject === group.subject && change.book.gradeLevel === group.gradeLevel)
          .reduce((n, change) => n + (change.starred ? 1 : -1), 0);
        return delta ? { ...group, starred: Math.max(0, group.starred + delta) } : group;
      });
    },
    [changes],
  );

  return useMemo(() => ({ starred, toggle, adjust, error }), [starred, toggle, adjust, error]);
}

/** The list past its first page ('Show more books'), for the loader's answer it extends. */
export function useMore(data: LibraryData) {
  const [state, setState] = useState<{ for: LibraryData; books: LibraryBook[] } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState("");
  const busy = useRef(false);
  const books = state?.for === data ? state.books : [];

  useEffect(() => {
    void data;
    setError("");
  }, [data]);

  const load = useCallback(
    async (from: number) => {
      if (busy.current) return;
      busy.current = true;
      setLoading(true);
      setError("");
      try {
        const query = Object.fromEntries(writeShelfQuery(data.query));
        const page = await call(
          () => api.api.schools.slug[":slug"].shelf.$get({ param: { slug: data.slug }, query: { ...query, from: String(from) } }),
          "Failed to fetch books",
        );
        setState((current) => {
          const before = current?.for === data ? current.books : [];
          const known = new Set([...data.firstBooks, ...before].map((book) => book.id));
          return { for: data, books: [...before, ...page.books.filter((book) => !known.has(book.id))] };
        });
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : "Failed to fetch books");
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [data],
  );

  return { books, load, loading, error };
}

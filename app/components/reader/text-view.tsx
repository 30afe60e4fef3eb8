import { useEffect, useMemo, useRef, useState } from "react";
import { splitHighlights } from "../../lib/reader/highlight.ts";
import type { PageStore } from "../../lib/reader/page-store.ts";
import type { PageText } from "../../lib/reader/reader-api.ts";
import { reflowPageText } from "../../lib/reader/text-lines.ts";
import { matchRanges, normaliseQuery } from "../../lib/reader/text-match.ts";
import { Spinner } from "../ui/spinner.tsx";

const pageButton = "rounded-lg px-3 py-2 font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-white/10";

type State = { status: "loading" } | { status: "ready"; text: PageText } | { status: "error"; message: string };

/**
 * The current page's text as plain paragraphs that reflow to any width: readable zoomed to 400 %
 * on a phone without scrolling sideways, and by the browser's read-aloud.
 */
export function TextView({
  store,
  page,
  pageCount,
  failed,
  highlight = "",
  onGoTo,
}: {
  store: PageStore;
  page: number;
  pageCount: number;
  failed: boolean;
  /** The search's query while a search is on: its matches are marked in the text. */
  highlight?: string;
  onGoTo: (page: number) => void;
}) {
  const [state, setState] = useState<State>({ status: "loading" });
  const scroller = useRef<HTMLElement>(null);

  useEffect(() => {
    if (failed) return;
    let cancelled = false;
    setState({ status: "loading" });
    store.loadText(page).then(
      (text) => !cancelled && setState({ status: "ready", text }),
      (error: Error) => !cancelled && setState({ status: "error", message: error.message }),
    );
    scroller.current?.scrollTo({ top: 0 });
    return () => {
      cancelled = true;
    };
  }, [store, page, failed]);

  const paragraphs = useMemo(() => (state.status === "ready" ? reflowPageText(state.text.runs) : []), [state]);

  return (
    <section
      ref={scroller}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      aria-label={`Text of page ${page} of ${pageCount}`}
      data-text-view
      className="min-h-0 flex-1 overflow-y-auto bg-white text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-400 dark:bg-slate-950 dark:text-slate-100"
    >
      <article className="mx-auto max-w-prose px-4 py-6 text-lg leading-relaxed break-words sm:px-6">
        <h2 className="mb-4 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          Page {page} of {pageCount}
        </h2>
        {failed ? (
          <p>This page could not be displayed.</p>
        ) : state.status === "loading" ? (
          <p className="flex items-center gap-2 text-slate-500">
            <Spinner label="Loading the page's text" /> <span aria-hidden="true">Loading the page's text...</span>
          </p>
        ) : state.status === "error" ? (
          <p role="alert" className="text-red-700 dark:text-red-300">
            {state.message}
          </p>
        ) : paragraphs.length === 0 ? (
          <p className="text-slate-500 dark:text-slate-400">There is no text on this page.</p>
        ) : (
          paragraphs.map((paragraph, i) =>
            paragraph.heading ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a page's paragraphs never move
              <h3 key={i} className="mt-6 mb-3 text-2xl leading-snug font-bold">
                <Marked text={paragraph.text} query={highlight} />
              </h3>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <p key={i} className="mb-4">
                <Marked text={paragraph.text} query={highlight} />
              </p>
            ),
          )
        )}
        <nav aria-label="Pages" className="mt-8 flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          {page > 1 ? (
            <button type="button" onClick={() => onGoTo(page - 1)} className={pageButton}>
              <span aria-hidden="true">←</span> Page {page - 1}
            </button>
          ) : (
            <span />
          )}
          {page < pageCount && (
            <button type="button" onClick={() => onGoTo(page + 1)} className={pageButton}>
              Page {page + 1} <span aria-hidden="true">→</span>
            </button>
          )}
        </nav>
      </article>
    </section>
  );
}

/** A paragraph with the search's matches in <mark>, found as the search finds them. */
function Marked({ text, query }: { text: string; query: string }) {
  const needle = normaliseQuery(query);
  if (!needle) return text;
  return splitHighlights(text, matchRanges(text, needle)).map((part, i) =>
    part.match ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one paragraph never move
      <mark key={i} className="rounded-sm bg-amber-200 text-inherit dark:bg-amber-300/40">
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}

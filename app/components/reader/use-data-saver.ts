import { useEffect, useMemo } from "react";
import { dataSaverOn, useConnectionHints } from "../../lib/reader/data-saver.ts";
import { saverImageWidth } from "../../lib/reader/image-width.ts";
import { type PageStore, PREFETCH_AHEAD } from "../../lib/reader/page-store.ts";
import type { PageInfo } from "../../lib/reader/reader-api.ts";
import { useDataSaverChoice } from "../../lib/reader/reading-settings.ts";

/**
 * The page view's data saver (docs/decisions/0048): whether it is on (the teacher's choice, else
 * the connection), the width each page is asked for (`sharpWidths` where it is off or the teacher
 * zoomed in), and, while it is on, the next PREFETCH_AHEAD pages loaded once the page being read
 * is in, one after another, so a page turn finds its page there; the pages around the one being
 * read wait for it (`focus`), as on a slow line they would share its speed. Prefetched pages spend the
 * reading budget as reading does; the server's 429 stops the store, and with it the prefetch.
 */
export function useDataSaver(
  store: PageStore,
  pages: readonly PageInfo[],
  page: number,
  sharpWidths: readonly number[],
  zoomedIn: boolean,
) {
  const saver = dataSaverOn(useDataSaverChoice(), useConnectionHints());
  const widths = useMemo(() => sharpWidths.map((width) => saverImageWidth(width, saver, zoomedIn)), [sharpWidths, saver, zoomedIn]);

  useEffect(() => {
    if (!saver) {
      store.focus(null);
      return;
    }
    let cancelled = false;
    const readable = (info: PageInfo | undefined): info is PageInfo => Boolean(info && !info.failed && !info.preparing);
    const ahead = pages
      .slice(page, page + PREFETCH_AHEAD)
      .filter(readable)
      .map((info) => ({ n: info.n, width: widths[info.n - 1] ?? 0 }));
    const current = pages[page - 1];
    // The page being read first: on a slow line the pages around it, or a prefetch, would share its speed.
    store.focus(readable(current) ? { n: page, width: widths[page - 1] ?? 0 } : null);
    const first = readable(current) ? store.loadImage(page, widths[page - 1] ?? 0) : Promise.resolve();
    first.then(
      () => store.prefetch(ahead, () => cancelled),
      () => {}, // the page on screen says what went wrong
    );
    return () => {
      cancelled = true;
    };
  }, [saver, store, pages, page, widths]);

  return { saver, widths };
}

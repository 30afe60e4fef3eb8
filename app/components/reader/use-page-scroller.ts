import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { PAGE_PADDING, type PageSize, pageAt, pagesBetween, pageTops } from "../../lib/reader/page-layout.ts";

/**
 * The scrolling list of pages: which page is being read (the one across the upper third of the
 * view), which pages are near enough to show (a screen above and below), and jumping to a page.
 * Page positions are computed from the page sizes, never read back from the DOM.
 */
export function usePageScroller(pages: readonly PageSize[], scale: number, initialPage: number) {
  const pageCount = pages.length;
  const clampPage = useCallback((n: number) => Math.min(Math.max(1, Math.round(n) || 1), pageCount), [pageCount]);
  const scroller = useRef<HTMLElement>(null);
  const [viewport, setViewport] = useState({ width: 0, height: 0 });
  const [page, setPage] = useState(() => clampPage(initialPage));
  const [near, setNear] = useState({ from: page, to: page });
  // Where we scrolled to ourselves: the scroll event that follows must not pick another page.
  const pinned = useRef<number | null>(null);
  const tops = useMemo(() => pageTops(pages, scale), [pages, scale]);

  const measure = useCallback(
    (followScroll: boolean) => {
      const element = scroller.current;
      if (!element?.clientHeight) return;
      const { scrollTop: top, clientHeight: height, scrollHeight } = element;
      const found = pagesBetween(tops, pages, scale, top - height, top + 2 * height);
      const from = found[0] ?? 1;
      const to = found[found.length - 1] ?? from;
      setNear((current) => (current.from === from && current.to === to ? current : { from, to }));
      if (!followScroll) return;
      if (pinned.current !== null && Math.abs(top - pinned.current) < 2) return;
      pinned.current = null;
      const atEnd = top > 0 && top + height >= scrollHeight - 2;
      setPage(atEnd ? pageCount : pageAt(tops, top + height / 3));
    },
    [tops, pages, scale, pageCount],
  );

  const scrollTo = useCallback(
    (n: number) => {
      const element = scroller.current;
      if (!element) return;
      element.scrollTop = Math.max(0, (tops[n - 1] ?? 0) - PAGE_PADDING);
      pinned.current = element.scrollTop;
      measure(false);
    },
    [tops, measure],
  );

  const goTo = useCallback(
    (target: number) => {
      const n = clampPage(target);
      setPage(n);
      scrollTo(n);
    },
    [clampPage, scrollTo],
  );

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // A hidden list (the Text view is shown) measures 0: keep the last real size.
    const observer = new ResizeObserver(
      () => element.clientWidth && setViewport({ width: element.clientWidth, height: element.clientHeight }),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback(() => measure(true), [measure]);
  return { scroller, viewport, page, near, goTo, scrollTo, onScroll };
}

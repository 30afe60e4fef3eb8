import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { PREVIEW_WIDTH } from "#shared/rules/page-format.ts";
import { chooseImageWidth } from "../../lib/reader/image-width.ts";
import { displaySize, type FitMode, fitScale, zoomStep } from "../../lib/reader/page-layout.ts";
import { type PageList, pageImageUrl } from "../../lib/reader/reader-api.ts";
import { chooseDataSaver } from "../../lib/reader/reading-settings.ts";
import { HighlightBar } from "./highlight-bar.tsx";
import { PageImage } from "./page-image.tsx";
import type { PageReaderProps } from "./page-reader-props.ts";
import { ReaderSignedOut } from "./reader-error.tsx";
import { LateContentsPanel, LateNotesPanel, LatePresentation, LateReaderSearch, LateTextView } from "./reader-parts.tsx";
import { ReaderToolbar } from "./reader-toolbar.tsx";
import { ReaderTools } from "./reader-tools.tsx";
import { ReadingLimit } from "./reading-limit.tsx";
import { useSearchDraft } from "./search-draft.ts";
import { useAnnotations } from "./use-annotations.ts";
import { useDataSaver } from "./use-data-saver.ts";
import { usePageScroller } from "./use-page-scroller.ts";
import { usePageStore } from "./use-page-store.ts";
import { useReaderKeys } from "./use-reader-keys.ts";
import { useSelectedRange } from "./use-selected-range.ts";

/** How long a reader turned away for lack of seats waits before it asks again by itself. */
export const SEAT_RETRY_MS = 30_000;

type Panel = "contents" | "search" | "notes" | null;
const NO_SAVING = "Saving and printing are turned off for this book.";

export function PageReaderView({
  bookId,
  title,
  backHref,
  backLabel,
  initialPage,
  onPageChange,
  list,
  loginHref,
  toolbarExtra,
  firstImageWidth = PREVIEW_WIDTH,
  holdsSeat = false,
  seatRetryMs = SEAT_RETRY_MS,
  desk = false,
  serverRendered,
}: PageReaderProps & { list: PageList; serverRendered: boolean }) {
  const root = useRef<HTMLDivElement>(null);
  const { store, attempt, stopped, limit, askAgain } = usePageStore(bookId, holdsSeat, seatRetryMs);

  const pages = list.pages;
  const pageCount = pages.length;
  const [fit, setFit] = useState<FitMode>("width");
  const [customScale, setCustomScale] = useState(1);
  const [textView, setTextView] = useState(false);
  const [panel, setPanel] = useState<Panel>(null);
  // The search outlives its panel (its matches stay marked on the pages) until the panel is closed.
  const search = useSearchDraft();
  const [reveal, setReveal] = useState<number | null>(null);
  const onRevealed = useCallback(() => setReveal(null), []);
  const [notice, setNotice] = useState<string | null>(null);
  // The teacher's desk: their annotations, highlighting a selection, presenting.
  const notes = useAnnotations(bookId, desk);
  const [highlighting, setHighlighting] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [presenting, setPresenting] = useState(false);
  const [selected, setSelected] = useSelectedRange(highlighting);

  // One scale for the whole book, from its first page (as a printed book would be).
  const [scale, setScale] = useState(1);
  const { scroller, viewport, page, near, goTo, scrollTo, onScroll } = usePageScroller(pages, scale, initialPage);
  const fitted = fitScale(fit, pages[0] ?? { width: 612, height: 792 }, viewport, customScale);
  if (viewport.width && fitted !== scale) setScale(fitted);

  // Keep the page being read in view when the scale or the view changes, and open at the saved page.
  const pageNow = useRef(page);
  pageNow.current = page;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-anchors when the layout changes, not on every page turn
  useLayoutEffect(() => {
    if (viewport.width && !textView) scrollTo(pageNow.current);
  }, [scale, viewport.width > 0, viewport.height, textView]);

  useEffect(() => onPageChange?.(page), [page, onPageChange]);

  const zoom = useCallback(
    (direction: 1 | -1) => {
      setCustomScale(zoomStep(scale, direction));
      setFit("custom");
    },
    [scale],
  );
  useReaderKeys({ goTo, zoom, page, pageCount, textView, onBlockedSave: () => setNotice(NO_SAVING) });

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 3000);
    return () => clearTimeout(timer);
  }, [notice]);

  const onLoaded = useCallback((at?: number) => {
    if (!root.current || root.current.hasAttribute("data-first-paint-ms")) return;
    root.current.setAttribute("data-first-paint-ms", String(Math.round(at ?? performance.now())));
  }, []);

  const fullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen?.().catch(() => {});
  };

  const ratio = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  const sharpWidths = useMemo(
    () => pages.map((info) => chooseImageWidth(displaySize(info, scale).width, ratio, list.widths)),
    [pages, scale, ratio, list.widths],
  );
  // The data saver (docs/decisions/0048): smaller pages unless zoomed in past the width, the next ones prefetched.
  const zoomedIn = fit === "custom" && scale > fitScale("width", pages[0] ?? { width: 612, height: 792 }, viewport, 1);
  const { saver, widths } = useDataSaver(store, pages, page, sharpWidths, zoomedIn);
  // The server's HTML holds the page the reader opens at and the next, at the top of the list and
  // sized by CSS, the first with a plain <img> that loads beside the JavaScript. Once the scroller
  // is measured every page is laid out and the list scrolls to that page, in the same frame.
  const measured = viewport.width > 0;
  const shown = serverRendered && !measured ? pages.slice(page - 1, page + 1) : pages;
  const [first] = useState(() => {
    const info = pages[page - 1];
    return serverRendered && info && !info.failed && !info.preparing
      ? { n: info.n, src: pageImageUrl(bookId, info.n, firstImageWidth) }
      : null;
  });
  const showPanel = (next: Panel) => {
    if (panel === "search" && next !== "search") search.setDraft("");
    setPanel(next);
  };
  const togglePanel = (next: Exclude<Panel, null>) => showPanel(panel === next ? null : next);
  if (stopped?.signedOut) return <ReaderSignedOut loginHref={loginHref ?? backHref} message={stopped.message} />;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only suppresses the context menu; the reader's controls are the toolbar and keys
    <div
      ref={root}
      data-reader
      data-page-count={pageCount}
      onContextMenu={(event) => event.preventDefault()}
      className="fixed inset-0 z-50 flex flex-col bg-slate-800 select-none print:hidden"
    >
      <ReaderToolbar
        title={title}
        backHref={backHref}
        backLabel={backLabel}
        page={page}
        pageCount={pageCount}
        fit={fit}
        zoomPercent={measured ? Math.round(scale * 100) : null}
        onGoTo={goTo}
        onZoom={zoom}
        onFit={setFit}
        onFullscreen={fullscreen}
        extra={
          <>
            <ReaderTools
              hasOutline={list.hasOutline}
              panel={panel}
              textView={textView}
              onTogglePanel={togglePanel}
              dataSaver={desk ? { on: saver, onToggle: () => void chooseDataSaver(saver ? "off" : "on") } : undefined}
              onToggleTextView={() => {
                setTextView((on) => !on);
                setHighlighting(false);
              }}
              desk={
                desk
                  ? {
                      highlighting,
                      onToggleHighlighting: () => setHighlighting((on) => !on),
                      onPresent: () => setPresenting(true),
                      count: notes.annotations.length,
                    }
                  : undefined
              }
            />
            {toolbarExtra}
          </>
        }
      />
      <div className="relative flex min-h-0 flex-1">
        <main className="relative flex min-w-0 flex-1 flex-col">
          {limit && <ReadingLimit message={limit} noSeat={Boolean(stopped?.noSeat)} seatRetryMs={seatRetryMs} onTryNow={askAgain} />}
          <section
            ref={scroller}
            onScroll={onScroll}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
            tabIndex={0}
            aria-label={`Pages of ${title}`}
            hidden={textView}
            className="min-h-0 flex-1 overflow-auto overscroll-contain focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-400"
          >
            {/* PAGE_PADDING and PAGE_GAP in page-layout.ts are this padding and gap. */}
            <div className="flex flex-col gap-3 px-2 py-2">
              {shown.map((info) => (
                <PageImage
                  key={`${attempt}:${info.n}`}
                  store={store}
                  info={info}
                  pageCount={pageCount}
                  scale={scale}
                  imageWidth={widths[info.n - 1]!}
                  active={!textView && info.n >= near.from && info.n <= near.to}
                  fluid={!measured}
                  firstSrc={info.n === first?.n ? first.src : undefined}
                  firstWidth={firstImageWidth}
                  saver={saver}
                  onLoaded={onLoaded}
                  highlight={search.marked}
                  reveal={reveal === info.n}
                  onRevealed={onRevealed}
                  highlights={desk ? notes.highlightsByPage.get(info.n) : undefined}
                  selectable={highlighting}
                />
              ))}
            </div>
          </section>
          {textView && (
            <LateTextView
              store={store}
              page={page}
              pageCount={pageCount}
              failed={Boolean(pages[page - 1]?.failed)}
              highlight={search.marked}
              onGoTo={goTo}
            />
          )}
          {highlighting && (
            <HighlightBar
              selected={selected}
              onHighlight={async (colour, withNote) => {
                if (!selected) return;
                const { page: on, start, end } = selected;
                const made = await notes.add({ kind: "highlight", page: on, colour, start, end });
                if (!made) return;
                window.getSelection()?.removeAllRanges();
                setSelected(null);
                if (withNote) {
                  setEditing(made.id);
                  showPanel("notes");
                }
              }}
              onDone={() => setHighlighting(false)}
              error={notes.error}
            />
          )}
          {notice && (
            <p
              role="status"
              className="pointer-events-none absolute bottom-6 left-1/2 -translate-x-1/2 rounded-lg bg-slate-950/90 px-4 py-2 text-sm text-white shadow-xl"
            >
              {notice}
            </p>
          )}
        </main>
        {panel === "notes" && (
          <LateNotesPanel
            bookId={bookId}
            page={page}
            notes={notes}
            editing={editing}
            onEditing={setEditing}
            onGoTo={goTo}
            onClose={() => showPanel(null)}
            loadText={store.loadText}
          />
        )}
        {panel === "contents" && <LateContentsPanel bookId={bookId} onGoTo={goTo} onClose={() => showPanel(null)} />}
        {panel === "search" && (
          <LateReaderSearch
            bookId={bookId}
            search={search}
            onGoTo={(n) => {
              goTo(n);
              setReveal(n);
            }}
            onHide={() => setPanel(null)}
            onClose={() => showPanel(null)}
          />
        )}
      </div>
      {presenting && (
        <LatePresentation
          store={store}
          pages={pages}
          page={page}
          title={title}
          widths={list.widths}
          onExit={(at) => {
            setPresenting(false);
            goTo(at);
          }}
          onClose={() => setPresenting(false)}
        />
      )}
    </div>
  );
}

import { memo, useEffect, useRef, useState } from "react";
import { displaySize, fittedBoxStyle } from "../../lib/reader/page-layout.ts";
import type { PageStore } from "../../lib/reader/page-store.ts";
import { FIRST_PAGE_TIMING, whenPainted } from "../../lib/reader/painted-at.ts";
import type { Annotation, PageInfo, PageText } from "../../lib/reader/reader-api.ts";
import { ReaderApiError } from "../../lib/reader/reader-api.ts";
import { HighlightMarks } from "./highlight-marks.tsx";
import { SearchMarks } from "./search-marks.tsx";
import { TextLayer } from "./text-layer.tsx";

type Shown = { url: string; width: number };

/** A page that got no answer at all: the device is offline and the book is not kept on it (docs/decisions/0049). */
export const PAGE_OFFLINE_TEXT =
  "You are offline, and this book is not kept on this device. Its pages will appear when you are back online.";

/** How soon a page still being prepared, or refused because a part was away (503), is asked for again when the server's answer has no Retry-After. */
const PREPARING_RETRY_MS = 5_000;

/**
 * One page of the book: a box of the page's size, with its image and text layer only while it is
 * near the viewport (`active`), so a 500-page book costs what a few pages cost. While a sharper
 * image loads after zooming, the one already shown stays.
 *
 * The page the reader opens at may come with `firstSrc`: a plain URL of its image (for teachers a
 * quick preview, PREVIEW_WIDTH, a third of the bytes), in the server's HTML, so the browser loads it beside
 * the JavaScript. That element is kept through hydration (it may have loaded, or failed, before
 * React was listening) and shown until the image of the width the screen needs replaces it;
 * if it fails, the page is asked for through the store, which has the server's message (the
 * reading limit, a page that failed).
 */
export const PageImage = memo(function PageImage({
  store,
  info,
  pageCount,
  scale,
  imageWidth,
  active,
  fluid,
  firstSrc,
  firstWidth,
  saver = false,
  onLoaded,
  highlight,
  reveal,
  onRevealed,
  highlights,
  selectable = false,
}: {
  store: PageStore;
  info: PageInfo;
  pageCount: number;
  scale: number;
  imageWidth: number;
  active: boolean;
  /** Sized by CSS to the width, before the scroller is measured (server-rendered HTML). */
  fluid: boolean;
  firstSrc?: string;
  /** `firstSrc`'s width: a preview is replaced by the sharp image; an image as wide as needed is kept. */
  firstWidth: number;
  /** The data saver is on: its page (counted as read) replaces the server's preview (which is not) of the same width. */
  saver?: boolean;
  onLoaded: (at?: number) => void;
  /** The search's query while a search is on: its matches are marked on the page. */
  highlight?: string;
  /** The page was opened from a search result: bring its first match into view. */
  reveal?: boolean;
  onRevealed?: () => void;
  /** The teacher's highlights on this page (docs/decisions/0032). */
  highlights?: readonly Annotation[];
  /** The teacher is highlighting: the text layer can be selected. */
  selectable?: boolean;
}) {
  const { n } = info;
  const [shown, setShown] = useState<Shown | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(Boolean(info.failed));
  // A page of a book still being prepared (docs/decisions/0038): asked for again every few seconds while on screen.
  const [waiting, setWaiting] = useState(Boolean(info.preparing));
  // A page answered 503 (a part of the platform away, docs/decisions/0047): the server's sentence, asked for again.
  const [away, setAway] = useState<string | null>(null);
  // No answer at all (the reader's API says status 0): said so, and asked for again once the browser is back online.
  const [offline, setOffline] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [text, setText] = useState<PageText | null>(null);
  const held = useRef<number | null>(null);
  const [direct, setDirect] = useState(firstSrc ?? null);
  const image = useRef<HTMLImageElement>(null);

  const markLoaded = (at?: number) => {
    setLoaded(true);
    onLoaded(at);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the server-rendered image can have loaded before hydration
  useEffect(() => {
    const element = image.current;
    if (!direct || !element?.complete) return;
    if (element.naturalWidth > 0) return whenPainted(element, markLoaded);
    setDirect(null);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the store and the page are fixed for the page's life
  useEffect(() => {
    if (!active || failed) return;
    if (direct && imageWidth === firstWidth && !saver) return; // the server-rendered image is this one
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    store
      .loadImage(n, imageWidth)
      .then(() => {
        if (cancelled) return;
        setWaiting(false);
        setAway(null);
        setOffline(false);
        const url = store.acquireImage(n, imageWidth);
        if (!url) return;
        if (held.current !== null) store.releaseImage(n, held.current);
        held.current = imageWidth;
        setShown((current) => (current?.url === url ? current : { url, width: imageWidth }));
        setDirect(null); // superseded: its URL is not asked for again
      })
      .catch((error: unknown) => {
        if (cancelled || !(error instanceof ReaderApiError)) return;
        // The reading limit is the reader's to announce; a page the server cannot show is this page's.
        if (error.status === 404) setFailed(true);
        setOffline(error.status === 0);
        // Not rendered yet, or a part away: asked for again when the server's Retry-After says (10 s for an overloaded school).
        if (error.preparing || error.unavailable) {
          if (error.unavailable) setAway(error.message);
          else setWaiting(true);
          const wait = error.retryAfterSeconds === null ? PREPARING_RETRY_MS : error.retryAfterSeconds * 1000;
          retry = setTimeout(() => setAttempt((a) => a + 1), wait);
        }
      });
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [active, imageWidth, failed, direct, attempt, saver]);

  useEffect(() => {
    if (!offline) return;
    const again = () => setAttempt((a) => a + 1);
    window.addEventListener("online", again);
    return () => window.removeEventListener("online", again);
  }, [offline]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    if (!active || failed || waiting) return;
    let cancelled = false;
    store.loadText(n).then(
      (found) => !cancelled && setText(found),
      () => {}, // without its text the page still shows; the limit is announced by the reader
    );
    return () => {
      cancelled = true;
    };
  }, [active, failed, waiting]);

  // Leaving the viewport drops the image (its URL stays cached a while) and the text layer. The
  // server-rendered image stays: it is not in the cache, and showing it again would ask again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    if (active) return;
    if (held.current !== null) store.releaseImage(n, held.current);
    held.current = null;
    setShown(null);
    if (!direct) setLoaded(false);
    setText(null);
  }, [active]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => () => void (held.current !== null && store.releaseImage(n, held.current)), []);

  const box = displaySize(info, scale);
  const src = shown?.url ?? direct;
  return (
    <section
      aria-label={`Page ${n} of ${pageCount}`}
      data-page-number={n}
      data-rendered={loaded || failed ? "true" : undefined}
      className="relative mx-auto shrink-0 overflow-hidden bg-white shadow-lg ring-1 ring-black/5"
      style={fluid ? fittedBoxStyle(info) : { width: box.width, height: box.height }}
    >
      {!src && !failed && !waiting && !away && !offline && (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-2xl font-semibold text-slate-300">
          {n}
        </span>
      )}
      {!src && !failed && waiting && (
        <p role="status" className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center text-slate-600">
          <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600" />
          This page is still being prepared. It will appear in a moment.
        </p>
      )}
      {!src && !failed && offline && (
        // At the page's top, not its middle: a zoomed page is taller than the screen.
        <p role="status" className="flex h-full items-start justify-center p-4 pt-16 text-center text-slate-600">
          {PAGE_OFFLINE_TEXT}
        </p>
      )}
      {!src && !failed && away && (
        <p role="status" className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center text-slate-600">
          <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600" />
          {away}
        </p>
      )}
      {failed ? (
        <p className="flex h-full items-center justify-center p-4 text-center text-slate-600">This page could not be displayed.</p>
      ) : (
        src && (
          <img
            ref={image}
            src={src}
            alt=""
            draggable={false}
            // The server-rendered image: its size reserves the page's shape before the CSS arrives.
            {...(src === direct && {
              width: firstWidth,
              height: Math.round((firstWidth * info.height) / info.width),
              fetchPriority: "high" as const,
              elementtiming: FIRST_PAGE_TIMING,
            })}
            className="pointer-events-none absolute inset-0 h-full w-full"
            onLoad={() => markLoaded()}
            onError={() => src === direct && setDirect(null)}
          />
        )
      )}
      {text && !failed && highlight && (
        <SearchMarks
          runs={text.runs}
          query={highlight}
          width={info.width}
          height={info.height}
          scale={scale}
          reveal={reveal}
          onRevealed={onRevealed}
        />
      )}
      {text && !failed && highlights && highlights.length > 0 && (
        <HighlightMarks runs={text.runs} highlights={highlights} width={info.width} height={info.height} scale={scale} />
      )}
      {text && !failed && <TextLayer runs={text.runs} width={info.width} height={info.height} scale={scale} selectable={selectable} />}
    </section>
  );
});

import { memo, useEffect, useRef, useState } from "react";
import { displaySize } from "../../lib/reader/page-layout.ts";
import type { PageStore } from "../../lib/reader/page-store.ts";
import type { PageInfo, PageText } from "../../lib/reader/reader-api.ts";
import { ReaderApiError } from "../../lib/reader/reader-api.ts";
import { TextLayer } from "./text-layer.tsx";

type Shown = { url: string; width: number };

/**
 * One page of the book: a box of the page's size, with its image and text layer only while it is
 * near the viewport (`active`), so a 500-page book costs what a few pages cost. While a sharper
 * image loads after zooming, the one already shown stays.
 */
export const PageImage = memo(function PageImage({
  store,
  info,
  pageCount,
  scale,
  imageWidth,
  active,
  onLoaded,
}: {
  store: PageStore;
  info: PageInfo;
  pageCount: number;
  scale: number;
  imageWidth: number;
  active: boolean;
  onLoaded: () => void;
}) {
  const { n } = info;
  const [shown, setShown] = useState<Shown | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(Boolean(info.failed));
  const [text, setText] = useState<PageText | null>(null);
  const held = useRef<number | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the store and the page are fixed for the page's life
  useEffect(() => {
    if (!active || failed) return;
    let cancelled = false;
    store
      .loadImage(n, imageWidth)
      .then(() => {
        if (cancelled) return;
        const url = store.acquireImage(n, imageWidth);
        if (!url) return;
        if (held.current !== null) store.releaseImage(n, held.current);
        held.current = imageWidth;
        setShown((current) => (current?.url === url ? current : { url, width: imageWidth }));
      })
      .catch((error: unknown) => {
        // The reading limit is the reader's to announce; a page the server cannot show is this page's.
        if (!cancelled && error instanceof ReaderApiError && error.status === 404) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [active, imageWidth, failed]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    if (!active || failed) return;
    let cancelled = false;
    store.loadText(n).then(
      (found) => !cancelled && setText(found),
      () => {}, // without its text the page still shows; the limit is announced by the reader
    );
    return () => {
      cancelled = true;
    };
  }, [active, failed]);

  // Leaving the viewport drops the image (its URL stays cached a while) and the text layer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    if (active) return;
    if (held.current !== null) store.releaseImage(n, held.current);
    held.current = null;
    setShown(null);
    setLoaded(false);
    setText(null);
  }, [active]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => () => void (held.current !== null && store.releaseImage(n, held.current)), []);

  const box = displaySize(info, scale);
  return (
    <section
      aria-label={`Page ${n} of ${pageCount}`}
      data-page-number={n}
      data-rendered={loaded || failed ? "true" : undefined}
      className="relative mx-auto shrink-0 overflow-hidden bg-white shadow-lg ring-1 ring-black/5"
      style={{ width: box.width, height: box.height }}
    >
      {!shown && !failed && (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center text-2xl font-semibold text-slate-300">
          {n}
        </span>
      )}
      {failed ? (
        <p className="flex h-full items-center justify-center p-4 text-center text-slate-600">This page could not be displayed.</p>
      ) : (
        shown && (
          <img
            src={shown.url}
            alt=""
            draggable={false}
            className="pointer-events-none absolute inset-0 h-full w-full"
            onLoad={() => {
              setLoaded(true);
              onLoaded();
            }}
          />
        )
      )}
      {text && !failed && <TextLayer runs={text.runs} width={info.width} height={info.height} scale={scale} />}
    </section>
  );
});

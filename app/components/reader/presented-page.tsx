import { useEffect, useState } from "react";
import { chooseImageWidth } from "../../lib/reader/image-width.ts";
import type { PageStore } from "../../lib/reader/page-store.ts";
import { type PageInfo, ReaderApiError } from "../../lib/reader/reader-api.ts";

/** One page fitted to the screen: the stamped image of the width the screen needs, from the reader's store. */
export function PresentedPage({
  store,
  info,
  scale,
  widths,
  pageCount,
}: {
  store: PageStore;
  info: PageInfo;
  scale: number;
  widths: readonly number[];
  pageCount: number;
}) {
  const width = chooseImageWidth(info.width * scale, window.devicePixelRatio || 1, widths);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(Boolean(info.failed));
  const [preparing, setPreparing] = useState(false);
  useEffect(() => {
    if (info.failed) return;
    let cancelled = false;
    let held = false;
    store.loadImage(info.n, width).then(
      () => {
        if (cancelled) return;
        const acquired = store.acquireImage(info.n, width);
        held = Boolean(acquired);
        setUrl(acquired ?? null);
      },
      // A book read while it is prepared: a page to come says so rather than "could not be displayed".
      (error: unknown) => !cancelled && (error instanceof ReaderApiError && error.preparing ? setPreparing(true) : setFailed(true)),
    );
    return () => {
      cancelled = true;
      if (held) store.releaseImage(info.n, width);
    };
  }, [store, info.n, info.failed, width]);
  return (
    <div
      role="img"
      aria-label={`Page ${info.n} of ${pageCount}`}
      data-presented-page={info.n}
      className="relative shrink-0 bg-white"
      style={{ width: info.width * scale, height: info.height * scale }}
    >
      {failed ? (
        <p className="flex h-full items-center justify-center p-4 text-center text-slate-600">This page could not be displayed.</p>
      ) : preparing ? (
        <p className="flex h-full items-center justify-center p-4 text-center text-slate-600">
          This page is still being prepared. It will appear in a moment.
        </p>
      ) : url ? (
        <img src={url} alt="" draggable={false} className="pointer-events-none absolute inset-0 h-full w-full" />
      ) : null}
    </div>
  );
}

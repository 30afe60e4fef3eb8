import { useCallback, useState } from "react";
import { COVER_WIDTHS, coverSrcSet, coverWidthPath } from "#shared/rules/book-category.ts";

const WIDEST = Math.max(...COVER_WIDTHS) as (typeof COVER_WIDTHS)[number];

/**
 * A book's cover, or a placeholder book icon when there is none or it fails to load. The image
 * offers the cover's WebP renditions (srcset), and the browser takes the one its box (`sizes`) and
 * the screen's DPR call for; the box is always 2:3.
 */
export function BookCover({
  src,
  title,
  className = "",
  priority = false,
  sizes = "256px",
}: {
  /** The cover's path (coverPath), without a width. */
  src: string | null;
  title: string;
  className?: string;
  /** A cover in the first screen: loaded at once and early, since it is what the page paints last. */
  priority?: boolean;
  /** How wide the image is drawn, as in `<img sizes>`. The default suits every box up to 256 CSS px (all but the grid). */
  sizes?: string;
}) {
  const [broken, setBroken] = useState(false);
  // A server-rendered image can fail before React hydrates, when no onError is listening yet:
  // the ref looks at the image's state as soon as React has it, and listens natively from then on.
  const watch = useCallback((img: HTMLImageElement | null) => {
    if (!img) return;
    if (img.complete && img.naturalWidth === 0) setBroken(true);
    img.addEventListener("error", () => setBroken(true), { once: true });
  }, []);
  if (!src || broken) {
    return (
      <div
        role="img"
        aria-label={`No cover for ${title}`}
        className={`flex items-center justify-center bg-gradient-to-br from-slate-100 to-slate-200 text-slate-400 dark:from-slate-800 dark:to-slate-900 dark:text-slate-500 ${className}`}
      >
        <svg viewBox="0 0 24 24" className="h-12 w-12" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
          <path d="M4 5a2 2 0 0 1 2-2h12v16H6a2 2 0 0 0-2 2zM4 21V5M8 7h6M8 10h4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
    );
  }
  return (
    <img
      ref={watch}
      src={coverWidthPath(src, WIDEST)}
      srcSet={coverSrcSet(src)}
      sizes={sizes}
      width={WIDEST}
      height={(WIDEST * 3) / 2}
      alt={`Cover of ${title}`}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : "auto"}
      decoding="async"
      className={`bg-slate-200 object-cover dark:bg-slate-800 ${className}`}
    />
  );
}

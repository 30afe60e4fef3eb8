import { memo, useEffect, useMemo, useRef } from "react";
import type { TextRun } from "../../../workers/page-images/page-content.ts";
import { findMatchBoxes } from "../../lib/reader/page-matches.ts";

/**
 * The words of the current search marked on the page image: translucent boxes laid out in PDF
 * points and scaled with the page, as the text layer is. Each is a <mark> holding its words, in a
 * group that says how many matches the page has, so a screen reader meets them as highlights.
 * `reveal` scrolls the first match into view once (a search result was opened), then `onRevealed`.
 */
export const SearchMarks = memo(function SearchMarks({
  runs,
  query,
  width,
  height,
  scale,
  reveal = false,
  onRevealed,
}: {
  runs: readonly TextRun[];
  query: string;
  width: number;
  height: number;
  scale: number;
  reveal?: boolean;
  onRevealed?: () => void;
}) {
  const boxes = useMemo(() => findMatchBoxes(runs, query), [runs, query]);
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!reveal) return;
    layer.current?.querySelector("mark")?.scrollIntoView?.({ block: "nearest" });
    onRevealed?.();
  }, [reveal, onRevealed]);

  if (!boxes.length) return null;
  const matches = (boxes[boxes.length - 1]?.match ?? 0) + 1;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups highlights
    <div
      ref={layer}
      role="group"
      aria-label={`${matches} ${matches === 1 ? "match" : "matches"} for “${query.trim()}” on this page`}
      data-search-marks
      className="pointer-events-none absolute top-0 left-0 origin-top-left leading-none whitespace-pre"
      style={{ width, height, transform: `scale(${scale})` }}
    >
      {boxes.map((box, i) => (
        <mark
          // Boxes have no identity beyond their place on the page.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={i}
          data-match={box.match}
          className="absolute overflow-hidden rounded-[1px] bg-amber-300/45 text-transparent ring-1 ring-amber-500/70 forced-colors:outline-2 forced-colors:outline-solid"
          // A run's box is one font size high above its baseline: a little more covers the descenders.
          style={{ left: box.x, top: box.y - box.h * 0.1, width: box.w, height: box.h * 1.35, fontSize: box.h }}
        >
          {box.text}
        </mark>
      ))}
    </div>
  );
});

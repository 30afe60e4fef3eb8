import { memo, useMemo } from "react";
import { rangeRects } from "#shared/annotation-geometry.ts";
import type { TextRun } from "../../../workers/page-images/page-content.ts";
import type { Annotation } from "../../lib/reader/reader-api.ts";

/** Each highlight colour, translucent over the page (and outlined where the system forces colours). */
export const HIGHLIGHT_CLASSES: Record<string, string> = {
  yellow: "bg-yellow-300/50",
  green: "bg-green-400/40",
  blue: "bg-sky-400/40",
  pink: "bg-pink-400/40",
};

/**
 * The teacher's highlights on a page, drawn over its image where their text is: rectangles in PDF
 * points scaled with the page, as the text layer and the search's marks are. Hidden from screen
 * readers (the Notes panel lists each highlight with its words); the words stay in the text layer.
 */
export const HighlightMarks = memo(function HighlightMarks({
  runs,
  highlights,
  width,
  height,
  scale,
}: {
  runs: readonly TextRun[];
  highlights: readonly Annotation[];
  width: number;
  height: number;
  scale: number;
}) {
  const boxes = useMemo(
    () =>
      highlights.flatMap((h) =>
        h.start && h.end
          ? rangeRects(runs, h.start, h.end).map((rect, i) => ({ key: `${h.id}:${i}`, id: h.id, colour: h.colour ?? "yellow", rect }))
          : [],
      ),
    [runs, highlights],
  );
  if (!boxes.length) return null;
  return (
    <div
      aria-hidden="true"
      data-highlights
      className="pointer-events-none absolute top-0 left-0 origin-top-left mix-blend-multiply"
      style={{ width, height, transform: `scale(${scale})` }}
    >
      {boxes.map(({ key, id, colour, rect }) => (
        <span
          key={key}
          data-highlight={id}
          data-colour={colour}
          className={`absolute rounded-[1px] forced-colors:outline-2 forced-colors:outline-solid ${HIGHLIGHT_CLASSES[colour] ?? HIGHLIGHT_CLASSES.yellow}`}
          // A run's box is one font size high above its baseline: a little more covers the descenders.
          style={{ left: rect.x, top: rect.y - rect.h * 0.1, width: rect.w, height: rect.h * 1.35 }}
        />
      ))}
    </div>
  );
});

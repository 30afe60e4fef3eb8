import { memo, useMemo } from "react";
import type { TextRun } from "../../../workers/page-images/page-content.ts";

const FONT = "sans-serif";
let measurer: CanvasRenderingContext2D | null | undefined;

let baselineShift: number | undefined;

function context(): CanvasRenderingContext2D | null {
  if (measurer === undefined) {
    measurer = document.createElement("canvas").getContext("2d");
    if (measurer) measurer.font = `100px ${FONT}`;
  }
  return measurer;
}

/** How wide `text` is in our font at 100 px, or null where the browser cannot measure (tests). */
function measure(text: string): number | null {
  return context()?.measureText(text).width ?? null;
}

/**
 * A run's y is the top of a box one font-size high that ends on the baseline; in a CSS line box
 * of `line-height: 1` our font's baseline sits higher than that. This is how much higher, as a
 * fraction of the font size, so each run is moved down onto the words of the image.
 */
function measureBaselineShift(): number {
  if (baselineShift !== undefined) return baselineShift;
  const metrics = context()?.measureText("Hg");
  const ascent = metrics?.fontBoundingBoxAscent ?? 0;
  const descent = metrics?.fontBoundingBoxDescent ?? 0;
  baselineShift = ascent + descent > 0 ? 1 - ((100 - ascent - descent) / 2 + ascent) / 100 : 0;
  return baselineShift;
}

/**
 * The page's text, invisible, laid over its image where the words are (as pdf.js's text layer
 * does): screen readers read the page and the browser's find lands on the right place. Laid out
 * in PDF points and scaled as a whole, so zooming changes one transform; each run is stretched to
 * the width it has in the PDF. Selecting stays off, as for the rest of the reader, except while the
 * teacher highlights (`selectable`): each run is a span with its index (`data-run`), which is how a
 * selection becomes a highlight's range (app/lib/reader/annotation-selection.ts).
 */
export const TextLayer = memo(function TextLayer({
  runs,
  width,
  height,
  scale,
  selectable = false,
}: {
  runs: readonly TextRun[];
  width: number;
  height: number;
  scale: number;
  selectable?: boolean;
}) {
  const shift = measureBaselineShift();
  const stretches = useMemo(
    () =>
      runs.map((run) => {
        const natural = measure(run.str);
        return natural && run.h > 0 ? run.w / ((natural * run.h) / 100) : 1;
      }),
    [runs],
  );
  return (
    <div
      data-text-layer
      data-selectable={selectable || undefined}
      className={`absolute top-0 left-0 origin-top-left leading-none whitespace-pre text-transparent ${
        selectable ? "cursor-text select-text selection:bg-indigo-500/35" : "select-none"
      }`}
      style={{ width, height, transform: `scale(${scale})`, fontFamily: FONT }}
    >
      {runs.map((run, i) => (
        <span
          // Runs have no identity beyond their place on the page, which never changes.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={i}
          data-run={i}
          className="absolute origin-top-left"
          style={{ left: run.x, top: run.y + shift * run.h, fontSize: run.h, transform: `scaleX(${stretches[i]})` }}
        >
          {run.str}
        </span>
      ))}
    </div>
  );
});

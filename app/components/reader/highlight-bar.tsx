import type { TextPoint } from "#shared/annotation-geometry.ts";
import { HIGHLIGHT_CLASSES } from "./highlight-marks.tsx";

const COLOURS = ["yellow", "green", "blue", "pink"] as const;
type Colour = (typeof COLOURS)[number];

const button =
  "inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold text-slate-100 hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-300";

/**
 * While the teacher highlights (docs/decisions/0032): what to do with the words selected on a page,
 * in one of four colours, with a note or without; before a selection, how to make one. A labelled
 * toolbar at the foot of the pages, so it never covers the words being selected.
 */
export function HighlightBar({
  selected,
  onHighlight,
  onDone,
  error,
}: {
  selected: { page: number; start: TextPoint; end: TextPoint; text: string } | null;
  onHighlight: (colour: Colour, withNote: boolean) => void;
  onDone: () => void;
  error: string | null;
}) {
  const excerpt = selected ? (selected.text.length > 60 ? `${selected.text.slice(0, 59).trimEnd()}…` : selected.text) : "";
  return (
    <div
      role="toolbar"
      aria-label="Highlight"
      data-highlight-bar
      className="absolute inset-x-2 bottom-3 z-20 mx-auto flex max-w-3xl flex-wrap items-center gap-2 rounded-xl bg-slate-950/95 px-3 py-2 text-sm text-slate-100 shadow-2xl ring-1 ring-white/10"
    >
      {selected ? (
        <>
          <span className="min-w-0 flex-1 truncate" aria-live="polite">
            Highlight “{excerpt}” on page {selected.page}:
          </span>
          {COLOURS.map((colour) => (
            <button
              key={colour}
              type="button"
              className={button}
              onClick={() => onHighlight(colour, false)}
              aria-label={`Highlight in ${colour}`}
            >
              <span aria-hidden="true" className={`h-4 w-4 rounded ${HIGHLIGHT_CLASSES[colour]} ring-1 ring-white/40`} />
              <span className="hidden sm:inline">{colour[0]?.toUpperCase() + colour.slice(1)}</span>
            </button>
          ))}
          <button type="button" className={button} onClick={() => onHighlight("yellow", true)}>
            Add note
          </button>
        </>
      ) : (
        <span className="min-w-0 flex-1" aria-live="polite">
          Select words on a page to highlight them.
        </span>
      )}
      {error && (
        <span role="alert" className="w-full text-amber-300">
          {error}
        </span>
      )}
      <button type="button" className={`${button} bg-white/10`} onClick={onDone}>
        Done
      </button>
    </div>
  );
}

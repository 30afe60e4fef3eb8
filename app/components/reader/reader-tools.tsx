import { PathIcon, toolbarButton } from "./reader-toolbar.tsx";

type Panel = "contents" | "search" | "notes" | null;

/** The teacher's desk in the toolbar (docs/decisions/0032): Notes, Highlight, Present. */
export interface DeskTools {
  highlighting: boolean;
  onToggleHighlighting: () => void;
  onPresent: () => void;
  /** How many bookmarks, highlights and notes the teacher keeps in the book (the Notes button says so). */
  count: number;
}

/** The teacher reader's own toolbar buttons: the contents (when the book has an outline), search and the Text view; the desk's for teachers. */
export function ReaderTools({
  hasOutline,
  panel,
  textView,
  onTogglePanel,
  onToggleTextView,
  desk,
}: {
  hasOutline: boolean;
  panel: Panel;
  textView: boolean;
  onTogglePanel: (panel: Exclude<Panel, null>) => void;
  onToggleTextView: () => void;
  desk?: DeskTools;
}) {
  const pressed = (on: boolean) => (on ? "bg-white/15" : "");
  return (
    <>
      {desk && (
        <>
          <button
            type="button"
            className={`${toolbarButton} ${pressed(panel === "notes")}`}
            aria-label={`Notes (${desk.count})`}
            aria-expanded={panel === "notes"}
            onClick={() => onTogglePanel("notes")}
          >
            <PathIcon d="M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h5" />
          </button>
          <button
            type="button"
            className={`${toolbarButton} gap-1.5 ${pressed(desk.highlighting)}`}
            aria-label="Highlight"
            aria-pressed={desk.highlighting}
            disabled={textView}
            onClick={desk.onToggleHighlighting}
          >
            <PathIcon d="M4 20h16M7 16l-1 3 3-1 9-9-2-2zM14 6l2-2 4 4-2 2" />
          </button>
          <button type="button" className={toolbarButton} aria-label="Present" onClick={desk.onPresent}>
            <PathIcon d="M3 4h18v12H3zM12 16v4M8 20h8" />
          </button>
        </>
      )}
      {hasOutline && (
        <button
          type="button"
          className={`${toolbarButton} ${pressed(panel === "contents")}`}
          aria-label="Contents"
          aria-expanded={panel === "contents"}
          onClick={() => onTogglePanel("contents")}
        >
          <PathIcon d="M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" />
        </button>
      )}
      <button
        type="button"
        className={`${toolbarButton} ${pressed(panel === "search")}`}
        aria-label="Search in book"
        aria-expanded={panel === "search"}
        onClick={() => onTogglePanel("search")}
      >
        <PathIcon d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4" />
      </button>
      <button
        type="button"
        className={`${toolbarButton} gap-1.5 ${pressed(textView)}`}
        aria-label="Text view"
        aria-pressed={textView}
        onClick={onToggleTextView}
      >
        <PathIcon d="M4 6h16M4 10h16M4 14h10M4 18h12" />
        <span className="hidden xl:inline">Text view</span>
      </button>
    </>
  );
}

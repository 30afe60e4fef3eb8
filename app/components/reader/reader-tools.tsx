import { PathIcon, toolbarButton } from "./reader-toolbar.tsx";

type Panel = "contents" | "search" | null;

/** The teacher reader's own toolbar buttons: the contents (when the book has an outline), search and the Text view. */
export function ReaderTools({
  hasOutline,
  panel,
  textView,
  onTogglePanel,
  onToggleTextView,
}: {
  hasOutline: boolean;
  panel: Panel;
  textView: boolean;
  onTogglePanel: (panel: Exclude<Panel, null>) => void;
  onToggleTextView: () => void;
}) {
  const pressed = (on: boolean) => (on ? "bg-white/15" : "");
  return (
    <>
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

import { ToolButton } from "./reader-toolbar.tsx";

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
  dataSaver,
}: {
  hasOutline: boolean;
  panel: Panel;
  textView: boolean;
  onTogglePanel: (panel: Exclude<Panel, null>) => void;
  onToggleTextView: () => void;
  desk?: DeskTools;
  /** The page view's data saver (docs/decisions/0048): on or off at a press, for a teacher; the Text view's settings also offer "Automatic". */
  dataSaver?: { on: boolean; onToggle: () => void };
}) {
  // Notes, Contents and Search each open their panel beside the page, and say whether it is open.
  const panelButton = (name: Exclude<Panel, null>, label: string, icon: string) => (
    <ToolButton label={label} icon={icon} expanded={panel === name} onClick={() => onTogglePanel(name)} />
  );
  return (
    <>
      {desk && (
        <>
          {panelButton("notes", `Notes (${desk.count})`, "M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h5")}
          <ToolButton
            label="Highlight"
            icon="M4 20h16M7 16l-1 3 3-1 9-9-2-2zM14 6l2-2 4 4-2 2"
            className="gap-1.5"
            pressed={desk.highlighting}
            disabled={textView}
            onClick={desk.onToggleHighlighting}
          />
          <ToolButton label="Present" icon="M3 4h18v12H3zM12 16v4M8 20h8" onClick={desk.onPresent} />
        </>
      )}
      {hasOutline && panelButton("contents", "Contents", "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01")}
      {panelButton("search", "Search in book", "M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4")}
      {dataSaver && (
        <ToolButton label="Data saver" icon="M12 4v11M7 10l5 5 5-5M5 20h14" pressed={dataSaver.on} onClick={dataSaver.onToggle} />
      )}
      <ToolButton
        label="Text view"
        icon="M4 6h16M4 10h16M4 14h10M4 18h12"
        className="gap-1.5"
        pressed={textView}
        onClick={onToggleTextView}
      >
        <span className="hidden xl:inline">Text view</span>
      </ToolButton>
    </>
  );
}

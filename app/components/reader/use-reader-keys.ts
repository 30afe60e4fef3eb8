import { useEffect, useRef } from "react";

export type ReaderKeyActions = {
  goTo: (page: number) => void;
  zoom: (direction: 1 | -1) => void;
  page: number;
  pageCount: number;
  /** In the Text view only left/right turn pages: the other keys scroll and zoom the text as usual. */
  textView?: boolean;
  /** Teachers: Ctrl/Cmd+S and +P are caught and answered with this notice. */
  onBlockedSave?: () => void;
};

/** Whether a key pressed in `target` belongs to that control rather than to the reader. */
function ownedByControl(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest("input, textarea, select, [contenteditable='true'], [data-reader-panel]")) return true;
  // Space and Enter press buttons and follow links.
  return (key === " " || key === "enter") && target.closest("button, a") !== null;
}

/** The reader's keys: arrows, PgUp/PgDn, Space, Home/End, +/-; and no saving or printing. */
export function useReaderKeys(actions: ReaderKeyActions) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { goTo, zoom, page, pageCount, textView, onBlockedSave } = latest.current;
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && (key === "s" || key === "p")) {
        if (!onBlockedSave) return;
        event.preventDefault();
        onBlockedSave();
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey || ownedByControl(event.target, key)) return;
      if (textView && key !== "arrowleft" && key !== "arrowright") return;
      const next = () => goTo(page + 1);
      const previous = () => goTo(page - 1);
      const action: (() => void) | undefined = {
        arrowright: next,
        arrowdown: next,
        pagedown: next,
        " ": event.shiftKey ? previous : next,
        arrowleft: previous,
        arrowup: previous,
        pageup: previous,
        home: () => goTo(1),
        end: () => goTo(pageCount),
        "+": () => zoom(1),
        "=": () => zoom(1),
        "-": () => zoom(-1),
      }[key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

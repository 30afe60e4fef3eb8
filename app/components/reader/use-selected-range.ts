import { useEffect, useState } from "react";
import { selectedRange } from "../../lib/reader/annotation-selection.ts";

/** While highlighting, the words selected on the pages (null for none); cleared when highlighting stops. */
export function useSelectedRange(highlighting: boolean) {
  const [selected, setSelected] = useState<ReturnType<typeof selectedRange>>(null);
  useEffect(() => {
    if (!highlighting) {
      setSelected(null);
      return;
    }
    const read = () => setSelected(selectedRange(window.getSelection()));
    document.addEventListener("selectionchange", read);
    return () => document.removeEventListener("selectionchange", read);
  }, [highlighting]);
  return [selected, setSelected] as const;
}

import { useState } from "react";
import { useDebounced } from "../../lib/use-debounced.ts";

export interface SearchDraft {
  /** What is in the search box. */
  draft: string;
  setDraft: (draft: string) => void;
  /** What was searched for: the box, trimmed, once typing paused. */
  query: string;
  /** The query whose matches are marked on the pages: none as soon as the box is emptied. */
  marked: string;
}

/**
 * The search box's state, kept by the reader rather than the panel: on a narrow screen the panel
 * gets out of the way after a jump, and the matches must stay marked on the page it opened.
 */
export function useSearchDraft(): SearchDraft {
  const [draft, setDraft] = useState("");
  const query = useDebounced(draft.trim(), 300);
  return { draft, setDraft, query, marked: draft.trim() ? query : "" };
}

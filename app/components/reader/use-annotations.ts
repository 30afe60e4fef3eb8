import { useCallback, useEffect, useMemo, useState } from "react";
import {
  type Annotation,
  type AnnotationPatch,
  type ChangedAnnotation,
  createAnnotation,
  deleteAnnotation,
  fetchAnnotations,
  type NewAnnotation,
  updateAnnotation,
} from "../../lib/reader/reader-api.ts";

export type AnnotationsState = {
  status: "loading" | "ready" | "error";
  annotations: Annotation[];
  /** The reading limit's sentence when the highlights' text was withheld (docs/decisions/0032). */
  withheld: string | null;
  /** The last thing that went wrong, for the panel to say. */
  error: string | null;
};

const byPage = (a: Annotation, b: Annotation) => a.page - b.page || a.id - b.id;

/** What re-creates a deleted annotation (its undo): the same kind, page and content. */
export function recreate(annotation: Annotation): NewAnnotation {
  const { page } = annotation;
  if (annotation.kind === "bookmark") return { kind: "bookmark", page, ...(annotation.label ? { label: annotation.label } : {}) };
  if (annotation.kind === "note") return { kind: "note", page, note: annotation.note ?? "" };
  return {
    kind: "highlight",
    page,
    colour: (annotation.colour ?? "yellow") as "yellow",
    start: annotation.start ?? { run: 0, offset: 0 },
    end: annotation.end ?? { run: 0, offset: 0 },
    ...(annotation.note ? { note: annotation.note } : {}),
  };
}

/**
 * The teacher's bookmarks, highlights and notes of the book, kept on the server: loaded once when
 * the reader opens, then changed by each write's answer (a deletion shows at once and comes back
 * if the server refuses it).
 */
export function useAnnotations(bookId: number, enabled: boolean) {
  const [state, setState] = useState<AnnotationsState>({ status: "loading", annotations: [], withheld: null, error: null });

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    fetchAnnotations(bookId, abort.signal).then(
      (answer) =>
        setState({
          status: "ready",
          annotations: [...answer.annotations].sort(byPage),
          withheld: "textWithheld" in answer && typeof answer.textWithheld === "string" ? answer.textWithheld : null,
          error: null,
        }),
      (error: Error) => !abort.signal.aborted && setState((s) => ({ ...s, status: "error", error: error.message })),
    );
    return () => abort.abort();
  }, [bookId, enabled]);

  const fail = useCallback((error: unknown) => {
    setState((s) => ({ ...s, error: error instanceof Error ? error.message : "Something went wrong. Please try again." }));
    return null;
  }, []);

  const add = useCallback(
    async (annotation: NewAnnotation): Promise<Annotation | null> => {
      try {
        const made = await createAnnotation(bookId, annotation);
        setState((s) => ({ ...s, error: null, annotations: [...s.annotations, made].sort(byPage) }));
        return made;
      } catch (error) {
        return fail(error);
      }
    },
    [bookId, fail],
  );

  const edit = useCallback(
    async (id: number, patch: AnnotationPatch): Promise<ChangedAnnotation | null> => {
      try {
        // The answer leaves out a highlight's words (a change must not read them back for free): the ones shown stay.
        const changed = await updateAnnotation(bookId, id, patch);
        setState((s) => ({ ...s, error: null, annotations: s.annotations.map((a) => (a.id === id ? { ...a, ...changed } : a)) }));
        return changed;
      } catch (error) {
        return fail(error);
      }
    },
    [bookId, fail],
  );

  const remove = useCallback(
    async (annotation: Annotation): Promise<boolean> => {
      setState((s) => ({ ...s, error: null, annotations: s.annotations.filter((a) => a.id !== annotation.id) }));
      try {
        await deleteAnnotation(bookId, annotation.id);
        return true;
      } catch (error) {
        setState((s) => ({ ...s, annotations: [...s.annotations, annotation].sort(byPage) }));
        fail(error);
        return false;
      }
    },
    [bookId, fail],
  );

  // Each page's highlights, for the page images to draw (one array per page, the same until they change).
  const highlightsByPage = useMemo(() => {
    const map = new Map<number, Annotation[]>();
    for (const a of state.annotations) if (a.kind === "highlight") map.set(a.page, [...(map.get(a.page) ?? []), a]);
    return map;
  }, [state.annotations]);

  return { ...state, highlightsByPage, add, edit, remove, undo: (annotation: Annotation) => add(recreate(annotation)) };
}

export type Annotations = ReturnType<typeof useAnnotations>;

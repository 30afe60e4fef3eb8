import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  cacheAnnotations,
  cachedAnnotations,
  cancelCreate,
  dismissProblem,
  isOfflineError,
  listProblems,
  onSettled,
  pendingOps,
  type Settled,
  startOutbox,
  submit,
} from "../../lib/offline/outbox.ts";
import { byPage, isTarget, merged, pendingId, type ShownAnnotation, withPending } from "../../lib/offline/outbox-overlay.ts";
import type { Problem, Target } from "../../lib/offline/outbox-store.ts";
import {
  type Annotation,
  type AnnotationPatch,
  type ChangedAnnotation,
  fetchAnnotations,
  type NewAnnotation,
} from "../../lib/reader/reader-api.ts";

export type AnnotationsState = {
  status: "loading" | "ready" | "error";
  annotations: ShownAnnotation[];
  /** The reading limit's sentence when the highlights' text was withheld (docs/decisions/0032). */
  withheld: string | null;
  /** The last thing that went wrong, for the panel to say. */
  error: string | null;
  /** The list could not be loaded (offline): shown as last loaded on this device, with the changes made since. */
  offline: boolean;
  /** Changes made on this device not yet saved on the server (docs/decisions/0051). */
  pendingCount: number;
  /** Changes sent later that the server did not take, with the teacher's words. */
  problems: Problem[];
};

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

const targetOf = (a: ShownAnnotation): Target => (a.id < 0 && a.clientId ? { clientId: a.clientId } : { id: a.id });
const errorText = (error: unknown) => (error instanceof Error ? error.message : "Something went wrong. Please try again.");

/**
 * The teacher's bookmarks, highlights and notes of the book: loaded when the reader opens (offline:
 * as last loaded on this device), changed at once on screen, and kept in the outbox until the server
 * has them (app/lib/offline/outbox.ts): a change that cannot be sent yet stays marked "not yet
 * saved", across a reload, and goes when the connection returns. A refusal of a change sent at once
 * is shown as before; a change that lost to a later one elsewhere is shown as a problem with the
 * teacher's words.
 */
export function useAnnotations(bookId: number, enabled: boolean) {
  const [state, setState] = useState<AnnotationsState>({
    status: "loading",
    annotations: [],
    withheld: null,
    error: null,
    offline: false,
    pendingCount: 0,
    problems: [],
  });
  const alive = useRef(true);

  /** The server's list (or the cached one) with what waits laid over it, and the problems to show. */
  const load = useCallback(
    async (signal?: AbortSignal) => {
      let base: Annotation[] | null = null;
      let withheld: string | null = null;
      let failed: unknown = null;
      try {
        const answer = await fetchAnnotations(bookId, signal);
        base = answer.annotations;
        withheld = "textWithheld" in answer && typeof answer.textWithheld === "string" ? answer.textWithheld : null;
        void cacheAnnotations(bookId, base).catch(() => {});
      } catch (error) {
        if (signal?.aborted) return;
        failed = error;
        if (isOfflineError(error)) base = await cachedAnnotations(bookId).catch(() => null);
      }
      const [ops, problems] = await Promise.all([pendingOps(bookId), listProblems(bookId)]);
      if (signal?.aborted || !alive.current) return;
      const usable = base !== null || ops.length > 0;
      setState({
        status: usable ? "ready" : "error",
        annotations: withPending(base ?? [], ops),
        withheld,
        error: usable ? null : errorText(failed),
        offline: failed !== null && usable,
        pendingCount: ops.length,
        problems,
      });
    },
    [bookId],
  );

  const refreshCounts = useCallback(async () => {
    const [ops, problems] = await Promise.all([pendingOps(bookId), listProblems(bookId)]);
    if (alive.current) setState((s) => ({ ...s, pendingCount: ops.length, problems }));
  }, [bookId]);

  /** What a settled op changes on screen (sent at once, or later by a flush). */
  const apply = useCallback(
    (settled: Settled) => {
      const { op } = settled;
      if (settled.outcome === "sent" && op.kind === "create" && settled.annotation) {
        const made = settled.annotation as Annotation;
        const temp = pendingId(op.clientId);
        setState((s) => ({
          ...s,
          // Its client id stays with it: a change queued behind the create still finds it.
          annotations: [...s.annotations.filter((a) => a.id !== temp && a.id !== made.id), { ...made, clientId: op.clientId }].sort(byPage),
        }));
      } else if (settled.outcome === "sent" && op.kind === "edit" && settled.annotation) {
        const changed = settled.annotation as ChangedAnnotation;
        setState((s) => ({ ...s, annotations: s.annotations.map((a) => (isTarget(a, op.target) ? merged(a, changed) : a)) }));
      } else if (settled.outcome === "conflict" || settled.outcome === "refused") {
        // The server's word is the truth now: load its list again, with whatever still waits.
        void load();
      }
      void refreshCounts();
    },
    [load, refreshCounts],
  );

  useEffect(() => {
    alive.current = true;
    if (!enabled) return;
    startOutbox();
    const abort = new AbortController();
    void load(abort.signal);
    // Ops settled by a flush this hook did not start (the connection came back).
    const off = onSettled((settled) => settled.op.bookId === bookId && apply(settled));
    return () => {
      alive.current = false;
      abort.abort();
      off();
    };
  }, [bookId, enabled, load, apply]);

  const fail = useCallback((error: unknown) => {
    setState((s) => ({ ...s, error: errorText(error) }));
    return null;
  }, []);

  const add = useCallback(
    async (annotation: NewAnnotation): Promise<ShownAnnotation | null> => {
      const clientId = crypto.randomUUID();
      const op = { kind: "create" as const, bookId, clientId, body: annotation, editedAt: Date.now() };
      const [shown] = withPending([], [op]);
      setState((s) => ({ ...s, error: null, annotations: [...s.annotations, shown!].sort(byPage) }));
      const settled = await submit(op);
      if (settled.outcome === "refused") {
        setState((s) => ({ ...s, annotations: s.annotations.filter((a) => a.id !== shown!.id) }));
        void refreshCounts();
        return fail(new Error(settled.error));
      }
      if (settled.outcome === "sent" && settled.annotation) return settled.annotation as Annotation;
      void refreshCounts();
      return shown!;
    },
    [bookId, fail, refreshCounts],
  );

  const edit = useCallback(
    async (id: number, patch: AnnotationPatch): Promise<ChangedAnnotation | null> => {
      const before = state.annotations.find((a) => a.id === id) ?? null;
      const target: Target = before ? targetOf(before) : { id };
      const op = { kind: "edit" as const, bookId, clientId: crypto.randomUUID(), target, patch, before, editedAt: Date.now() };
      setState((s) => ({
        ...s,
        error: null,
        annotations: s.annotations.map((a) => (a.id === id ? { ...a, ...patch, pending: true } : a)),
      }));
      const settled = await submit(op);
      if (settled.outcome === "sent") return settled.annotation as ChangedAnnotation;
      if (settled.outcome === "queued") {
        void refreshCounts();
        return { ...(before as Annotation), ...patch };
      }
      // Not applied: the form stays open with the teacher's words, and the panel says why.
      if (before) setState((s) => ({ ...s, annotations: s.annotations.map((a) => (a.id === id ? before : a)) }));
      return fail(new Error(settled.error));
    },
    [bookId, fail, refreshCounts, state.annotations],
  );

  const remove = useCallback(
    async (annotation: ShownAnnotation): Promise<boolean> => {
      setState((s) => ({ ...s, error: null, annotations: s.annotations.filter((a) => a.id !== annotation.id) }));
      // Made and removed before it was ever sent: the server never hears of either.
      if (annotation.id < 0 && annotation.clientId && (await cancelCreate(annotation.clientId))) {
        void refreshCounts();
        return true;
      }
      const op = {
        kind: "delete" as const,
        bookId,
        clientId: crypto.randomUUID(),
        target: targetOf(annotation),
        before: annotation,
        editedAt: Date.now(),
      };
      const settled = await submit(op);
      void refreshCounts();
      if (settled.outcome === "sent" || settled.outcome === "queued") return true;
      if (settled.outcome === "refused") {
        setState((s) => ({ ...s, annotations: [...s.annotations, annotation].sort(byPage) }));
        fail(new Error(settled.error));
      }
      return false;
    },
    [bookId, fail, refreshCounts],
  );

  const dismiss = useCallback(
    async (id: string) => {
      await dismissProblem(id);
      await refreshCounts();
    },
    [refreshCounts],
  );

  // Each page's highlights, for the page images to draw (one array per page, the same until they change).
  const highlightsByPage = useMemo(() => {
    const map = new Map<number, Annotation[]>();
    for (const a of state.annotations) if (a.kind === "highlight") map.set(a.page, [...(map.get(a.page) ?? []), a]);
    return map;
  }, [state.annotations]);

  return {
    ...state,
    highlightsByPage,
    add,
    edit,
    remove,
    dismiss,
    undo: (annotation: Annotation) => add(recreate(annotation)),
  };
}

export type Annotations = ReturnType<typeof useAnnotations>;

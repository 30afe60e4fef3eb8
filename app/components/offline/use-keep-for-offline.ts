import { useCallback, useEffect, useReducer, useState } from "react";
import { type KeepOutcome, keepBook } from "../../lib/offline/keep-book.ts";
import { eraseOfflineCopies, findOfflineCopy, onCopiesChanged } from "../../lib/offline/offline-books.ts";
import type { OfflineCopy } from "../../lib/offline/offline-db.ts";
import { returnLoan } from "../../lib/offline/offline-loan-api.ts";
import { offlineImageWidth } from "../../lib/offline/offline-width.ts";

export type KeepBookRef = { bookId: number; title: string; readerUrl: string };
export type Saving = { saved: number; pageCount: number | null };
export type KeepMessage = { text: string; tone: "error" | "info" };

/** What a book's "Keep for offline" shows: the copy on this device, a download under way, a sentence. */
export type KeepState = {
  /** undefined until this device's store was read (and on the server). */
  copy: OfflineCopy | null | undefined;
  saving: Saving | null;
  message: KeepMessage | null;
  returning: boolean;
  keep(): void;
  cancel(): void;
  giveBack(): void;
};

/**
 * Downloads under way in this tab, by book, outside any component: going from the book's page to
 * the dashboard (the app's own navigation) does not stop one, and coming back shows its progress.
 * A full page load stops it; what was saved stays as a partial copy, continued with "Continue saving".
 */
type Job = { controller: AbortController; saving: Saving };
const jobs = new Map<number, Job>();
const watchers = new Set<() => void>();
const changed = () => {
  for (const watcher of watchers) watcher();
};

function said(outcome: KeepOutcome): KeepMessage | null {
  if (outcome.status === "refused") return { text: outcome.message, tone: "error" };
  if (outcome.status === "cancelled") return { text: "Cancelled: nothing of this book is kept on this device.", tone: "info" };
  return null;
}

/** The state and actions of "Keep for offline" for one book (`keep` is the download, replaceable in tests). */
export function useKeepForOffline({ bookId, title, readerUrl }: KeepBookRef, keep: typeof keepBook = keepBook): KeepState {
  const [copy, setCopy] = useState<OfflineCopy | null | undefined>(undefined);
  const [message, setMessage] = useState<KeepMessage | null>(null);
  const [returning, setReturning] = useState(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    let live = true;
    const read = () =>
      findOfflineCopy(bookId).then(
        (found) => live && setCopy(found),
        () => live && setCopy(null),
      );
    void read();
    const stop = onCopiesChanged(read);
    watchers.add(rerender);
    return () => {
      live = false;
      stop();
      watchers.delete(rerender);
    };
  }, [bookId]);

  const job = jobs.get(bookId);
  const keepNow = useCallback(() => {
    if (jobs.has(bookId)) return;
    const started: Job = { controller: new AbortController(), saving: { saved: 0, pageCount: null } };
    jobs.set(bookId, started);
    setMessage(null);
    changed();
    const onProgress = (saved: number, pageCount: number) => {
      started.saving = { saved, pageCount };
      changed();
    };
    keep({ bookId, title, readerUrl, width: offlineImageWidth(), signal: started.controller.signal, onProgress })
      .catch((error: unknown): KeepOutcome => ({ status: "refused", message: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => {
        jobs.delete(bookId);
        if (outcome.status === "kept" || outcome.status === "partial") setCopy(outcome.copy);
        setMessage(said(outcome));
        changed();
      });
  }, [bookId, title, readerUrl, keep]);

  const cancel = useCallback(() => jobs.get(bookId)?.controller.abort(), [bookId]);

  const giveBack = useCallback(() => {
    setReturning(true);
    setMessage(null);
    returnLoan(bookId)
      .then(() => eraseOfflineCopies([bookId]))
      .then(
        () => setMessage({ text: "Returned: this book is no longer kept on this device.", tone: "info" }),
        (error: unknown) => setMessage({ text: error instanceof Error ? error.message : String(error), tone: "error" }),
      )
      .finally(() => setReturning(false));
  }, [bookId]);

  return { copy, saving: job?.saving ?? null, message, returning, keep: keepNow, cancel, giveBack };
}

import { useCallback, useEffect, useMemo, useState } from "react";
import { localFirstFetchers } from "../../lib/offline/local-first.ts";
import { createPageStore } from "../../lib/reader/page-store.ts";
import { type ReaderApiError, releaseSeat } from "../../lib/reader/reader-api.ts";

/**
 * The reader's page store, and what stopped it: the reading limit or no seat (a notice over the
 * pages, `limit`) or a session that ended. Each try at the pages has its own store: after a "no
 * seat", a new one asks again by itself every `seatRetryMs`, or at once through `askAgain`.
 * A teacher's reader (`holdsSeat`) gives its seat back when it closes.
 */
export function usePageStore(bookId: number, holdsSeat: boolean, seatRetryMs: number) {
  // The reading limit (a notice over the pages) or a session that ended (the reader closes).
  const [stopped, setStopped] = useState<ReaderApiError | null>(null);
  const limit = stopped?.limited || stopped?.noSeat ? stopped.message : null;
  // Each try at the pages has its own store: after a "no seat", a new one asks again (SEAT_RETRY_MS).
  const [attempt, setAttempt] = useState(0);
  // A teacher's book kept on this device is read from its copy (issue 45); admins never keep one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new store per attempt, on purpose
  const store = useMemo(() => createPageStore(bookId, setStopped, holdsSeat ? localFirstFetchers(bookId) : undefined), [bookId, attempt]);
  useEffect(() => () => store.dispose(), [store]);
  const askAgain = useCallback(() => {
    setStopped(null);
    setAttempt((n) => n + 1);
  }, []);
  useEffect(() => {
    if (!stopped?.noSeat) return;
    const timer = setTimeout(askAgain, seatRetryMs);
    return () => clearTimeout(timer);
  }, [stopped, seatRetryMs, askAgain]);
  // Closing the reader (leaving it, or the tab) gives the seat back at once.
  useEffect(() => {
    if (!holdsSeat) return;
    const release = () => releaseSeat(bookId);
    window.addEventListener("pagehide", release);
    return () => {
      window.removeEventListener("pagehide", release);
      release();
    };
  }, [bookId, holdsSeat]);
  return { store, attempt, stopped, limit, askAgain };
}

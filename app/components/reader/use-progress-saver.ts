import { useCallback, useEffect, useRef } from "react";
import { putReadingPosition, saveReadingPosition, startOutbox } from "../../lib/offline/outbox.ts";

const SAVE_DELAY_MS = 1500;
/** While the teacher is active, the reader tells the server so every minute: reading time is timed there (decision 0019). */
export const PING_INTERVAL_MS = 60_000;
/** Active: some input (a key, the pointer, scrolling) within this long. */
export const ACTIVE_WINDOW_MS = 5 * 60_000;
const INPUT_EVENTS = ["pointerdown", "pointermove", "keydown", "wheel", "scroll", "touchstart"] as const;

/**
 * Saves the page being read once the teacher settles on it, and when they leave; pings while they
 * read. A save goes through the outbox (app/lib/offline/outbox.ts) with the time the teacher settled
 * on the page: made offline, it is kept across a reload and sent when the connection returns, and the
 * server keeps it only if no later position came from another device (docs/decisions/0051).
 */
export function useProgressSaver(bookId: number) {
  const pending = useRef<number | null>(null);
  const saved = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastInput = useRef(Date.now());
  // A ping says "still reading, now": nothing to keep for later, so it goes straight out.
  const ping = useCallback((page: number) => void putReadingPosition(bookId, { page }), [bookId]);
  const flush = useCallback(() => {
    const page = pending.current;
    if (page === null || page === saved.current) return;
    saved.current = page;
    void saveReadingPosition(bookId, page).catch(() => {});
  }, [bookId]);
  useEffect(() => {
    startOutbox();
    const onHide = () => document.visibilityState === "hidden" && flush();
    const onInput = () => {
      lastInput.current = Date.now();
    };
    document.addEventListener("visibilitychange", onHide);
    for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { passive: true, capture: true });
    const pinger = setInterval(() => {
      const page = pending.current ?? saved.current;
      if (page === null || document.visibilityState !== "visible" || Date.now() - lastInput.current > ACTIVE_WINDOW_MS) return;
      saved.current = page;
      ping(page);
    }, PING_INTERVAL_MS);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true });
      clearInterval(pinger);
      clearTimeout(timer.current);
      flush();
    };
  }, [flush, ping]);
  return useCallback(
    (page: number) => {
      if (saved.current === null) saved.current = page; // the page we opened at is already stored
      pending.current = page;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );
}

import { useCallback, useEffect, useRef } from "react";

const SAVE_DELAY_MS = 1500;
/** While the teacher is active, the reader tells the server so every minute: reading time is timed there (decision 0019). */
export const PING_INTERVAL_MS = 60_000;
/** Active: some input (a key, the pointer, scrolling) within this long. */
export const ACTIVE_WINDOW_MS = 5 * 60_000;
const INPUT_EVENTS = ["pointerdown", "pointermove", "keydown", "wheel", "scroll", "touchstart"] as const;

/** Saves the page being read once the teacher settles on it, and when they leave; pings while they read. */
export function useProgressSaver(bookId: number) {
  const pending = useRef<number | null>(null);
  const saved = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastInput = useRef(Date.now());
  const send = useCallback(
    (page: number) =>
      void fetch(`/api/reading-progress/${bookId}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ page }),
        credentials: "same-origin",
        // Leaving the reader is a document load: the request must outlive the page.
        keepalive: true,
      }).catch(() => {}),
    [bookId],
  );
  const flush = useCallback(() => {
    const page = pending.current;
    if (page === null || page === saved.current) return;
    saved.current = page;
    send(page);
  }, [send]);
  useEffect(() => {
    const onHide = () => document.visibilityState === "hidden" && flush();
    const onInput = () => {
      lastInput.current = Date.now();
    };
    document.addEventListener("visibilitychange", onHide);
    for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { passive: true, capture: true });
    const ping = setInterval(() => {
      const page = pending.current ?? saved.current;
      if (page === null || document.visibilityState !== "visible" || Date.now() - lastInput.current > ACTIVE_WINDOW_MS) return;
      saved.current = page;
      send(page);
    }, PING_INTERVAL_MS);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true });
      clearInterval(ping);
      clearTimeout(timer.current);
      flush();
    };
  }, [flush, send]);
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

import { useCallback, useEffect, useRef } from "react";

const SAVE_DELAY_MS = 1500;

/** Saves the page being read once the teacher settles on it, and when they leave. */
export function useProgressSaver(bookId: number) {
  const pending = useRef<number | null>(null);
  const saved = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const flush = useCallback(() => {
    const page = pending.current;
    if (page === null || page === saved.current) return;
    saved.current = page;
    void fetch(`/api/reading-progress/${bookId}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ page }),
      credentials: "same-origin",
      // Leaving the reader is a document load: the request must outlive the page.
      keepalive: true,
    }).catch(() => {});
  }, [bookId]);
  useEffect(() => {
    const onHide = () => document.visibilityState === "hidden" && flush();
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      clearTimeout(timer.current);
      flush();
    };
  }, [flush]);
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

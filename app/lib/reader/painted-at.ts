/** Element Timing's entry for an image (Chromium); not in TypeScript's DOM types. */
type ElementTiming = PerformanceEntry & { element: Element | null; renderTime: number; loadTime: number };

/** The `elementtiming` name of the server-rendered page image, so its paint is recorded. */
export const FIRST_PAGE_TIMING = "first-page";

/**
 * Calls `done` with when an image that loaded before the reader hydrated was first painted, on
 * the performance.now() clock: Element Timing's render time where the browser has it, else when
 * its bytes arrived. Returns a function that stops waiting.
 */
export function whenPainted(image: HTMLImageElement, done: (at: number) => void): () => void {
  if (!PerformanceObserver.supportedEntryTypes?.includes("element")) {
    const resource = performance.getEntriesByName(image.currentSrc)[0] as PerformanceResourceTiming | undefined;
    done(resource?.responseEnd || performance.now());
    return () => {};
  }
  const observer = new PerformanceObserver((list) => {
    const entry = (list.getEntries() as ElementTiming[]).find((e) => e.element === image);
    if (!entry) return;
    observer.disconnect();
    done(entry.renderTime || entry.loadTime);
  });
  // Buffered: the paint most likely happened before anyone was listening.
  observer.observe({ type: "element", buffered: true });
  return () => observer.disconnect();
}

/** A page's size in PDF points (pdf.js's viewport at scale 1). */
export type PageSize = { width: number; height: number };
export type FitMode = "width" | "page" | "custom";

/** Space between pages and around them, in CSS pixels; the page list's CSS uses the same numbers. */
export const PAGE_GAP = 12;
export const PAGE_PADDING = 8;
export const MIN_SCALE = 0.25;
export const MAX_SCALE = 4;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Room beside a page fitted to the width, in CSS pixels (for a scrollbar drawn over the list). */
const FIT_MARGIN = 16;

/** CSS pixels per PDF point for a fit mode, in a scroller of `viewport` size. */
export function fitScale(fit: FitMode, page: PageSize, viewport: PageSize, custom: number): number {
  if (fit === "custom") return clamp(custom, MIN_SCALE, MAX_SCALE);
  if (!viewport.width || !page.width) return 1;
  const byWidth = (viewport.width - 2 * PAGE_PADDING - FIT_MARGIN) / page.width;
  const scale = fit === "page" ? Math.min(byWidth, (viewport.height - 2 * PAGE_PADDING) / page.height) : byWidth;
  return clamp(scale, MIN_SCALE, MAX_SCALE);
}

/**
 * A page's box fitted to the width in CSS alone, for HTML rendered before anyone measured the
 * scroller (on the server): once measured, `fitScale` gives the same box in pixels.
 */
export function fittedBoxStyle(page: PageSize) {
  return {
    width: `calc(100% - ${FIT_MARGIN}px)`,
    minWidth: page.width * MIN_SCALE,
    maxWidth: page.width * MAX_SCALE,
    aspectRatio: `${page.width} / ${page.height}`,
  };
}

/** The next zoom step in or out, from the scale shown now. */
export function zoomStep(scale: number, direction: 1 | -1): number {
  return clamp(direction > 0 ? scale * 1.2 : scale / 1.2, MIN_SCALE, MAX_SCALE);
}

/** A page's box on screen in whole CSS pixels (the page list lays out exactly these). */
export function displaySize(page: PageSize, scale: number): PageSize {
  return { width: Math.round(page.width * scale), height: Math.round(page.height * scale) };
}

/** The top of every page in the scrolling list, in CSS pixels; index 0 is page 1. */
export function pageTops(pages: readonly PageSize[], scale: number): number[] {
  const tops: number[] = [];
  let top = PAGE_PADDING;
  for (const page of pages) {
    tops.push(top);
    top += displaySize(page, scale).height + PAGE_GAP;
  }
  return tops;
}

/** The page being read at scroll position `line`: the last one whose top is at or above it (1-based). */
export function pageAt(tops: readonly number[], line: number): number {
  let low = 0;
  let high = tops.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((tops[mid] ?? 0) <= line) low = mid;
    else high = mid - 1;
  }
  return Math.max(1, low + 1);
}

/** The pages that overlap [from, to] in scroll coordinates (1-based, inclusive). */
export function pagesBetween(tops: readonly number[], pages: readonly PageSize[], scale: number, from: number, to: number): number[] {
  const first = pageAt(tops, from);
  const found: number[] = [];
  for (let n = first; n <= tops.length; n++) {
    const top = tops[n - 1] ?? 0;
    if (top > to) break;
    if (top + displaySize(pages[n - 1]!, scale).height >= from) found.push(n);
  }
  return found;
}

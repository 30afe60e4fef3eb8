/**
 * A selection over a page's text layer as a highlight's range (docs/decisions/0032): each run of
 * the layer is a span with its index (`data-run`), so a selection's two ends are a run and an
 * offset in its text. An end that falls between spans (on the layer itself) is the start of the
 * run after it, or the end of the run before it.
 */
import type { TextPoint } from "#shared/annotation-geometry.ts";

function pointOf(layer: Element, node: Node, offset: number, edge: "start" | "end"): TextPoint | null {
  const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : (node as Element);
  const span = element?.closest<HTMLElement>("[data-run]");
  if (span && layer.contains(span)) {
    const length = span.textContent?.length ?? 0;
    const at = node.nodeType === Node.TEXT_NODE ? offset : offset > 0 ? length : 0;
    return { run: Number(span.dataset.run), offset: Math.min(at, length) };
  }
  if (node !== layer) return null;
  const spans = layer.querySelectorAll<HTMLElement>("[data-run]");
  if (edge === "start") {
    const next = spans[offset];
    return next ? { run: Number(next.dataset.run), offset: 0 } : null;
  }
  const previous = spans[offset - 1];
  return previous ? { run: Number(previous.dataset.run), offset: previous.textContent?.length ?? 0 } : null;
}

/** The selection's range on one page's text layer, with the page's number and the selected words; null when it is not one. */
export function selectedRange(selection: Selection | null): { page: number; start: TextPoint; end: TextPoint; text: string } | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const container = range.commonAncestorContainer;
  const element = container.nodeType === Node.TEXT_NODE ? container.parentElement : (container as Element);
  const layer = element?.closest("[data-text-layer]");
  const page = layer?.closest<HTMLElement>("[data-page-number]");
  if (!layer || !page) return null;
  const start = pointOf(layer, range.startContainer, range.startOffset, "start");
  const end = pointOf(layer, range.endContainer, range.endOffset, "end");
  if (!start || !end) return null;
  if (start.run > end.run || (start.run === end.run && start.offset >= end.offset)) return null;
  const text = selection.toString().replace(/\s+/g, " ").trim();
  return text ? { page: Number(page.dataset.pageNumber), start, end, text } : null;
}

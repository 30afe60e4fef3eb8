import { useEffect, useRef } from "react";
import type { PDFDocumentProxy, RenderTask } from "../../lib/pdf.client.ts";

export type PageSize = { width: number; height: number };

/**
 * One page: a placeholder of the right size, painted onto a canvas only while near the viewport
 * (and wiped when it leaves), so a 500-page book costs what a few pages cost.
 */
export function PdfPage({
  doc,
  pageNumber,
  size,
  scale,
  active,
  onSize,
  onPainted,
  onError,
}: {
  doc: PDFDocumentProxy;
  pageNumber: number;
  size: PageSize;
  scale: number;
  active: boolean;
  onSize: (pageNumber: number, size: PageSize) => void;
  onPainted: () => void;
  onError: (error: Error) => void;
}) {
  const wrapper = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: callbacks are stable for the document's life; repaint on page, scale, activity
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    wrapper.current?.removeAttribute("data-rendered");
    if (!active) {
      element.width = 0;
      element.height = 0;
      return;
    }
    let task: RenderTask | null = null;
    let cancelled = false;
    (async () => {
      const page = await doc.getPage(pageNumber);
      if (cancelled) return;
      const base = page.getViewport({ scale: 1 });
      if (Math.abs(base.width - size.width) > 0.5 || Math.abs(base.height - size.height) > 0.5) {
        onSize(pageNumber, { width: base.width, height: base.height });
      }
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale: scale * ratio });
      // Paint off-screen, then swap in: no blank flash while zooming.
      const buffer = document.createElement("canvas");
      buffer.width = Math.floor(viewport.width);
      buffer.height = Math.floor(viewport.height);
      task = page.render({ canvas: buffer, viewport });
      await task.promise;
      if (cancelled) return;
      element.width = buffer.width;
      element.height = buffer.height;
      element.getContext("2d")?.drawImage(buffer, 0, 0);
      wrapper.current?.setAttribute("data-rendered", "true");
      onPainted();
    })().catch((error: Error) => {
      if (!cancelled && error?.name !== "RenderingCancelledException") onError(error);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber, scale, active]);

  return (
    <div
      ref={wrapper}
      data-page-number={pageNumber}
      className="relative mx-auto my-3 bg-white shadow-lg ring-1 ring-black/5"
      style={{ width: Math.floor(size.width * scale), height: Math.floor(size.height * scale) }}
    >
      <canvas ref={canvas} className="block h-full w-full" aria-label={`Page ${pageNumber}`} />
    </div>
  );
}

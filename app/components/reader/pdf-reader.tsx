import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { type OpenedPdf, openPdf, type PDFDocumentProxy, probePdf } from "../../lib/pdf.client.ts";
import { LoadingPdfViewer } from "./loading-pdf-viewer.tsx";
import { type PageSize, PdfPage } from "./pdf-page.tsx";
import { ReaderError } from "./reader-error.tsx";
import { type FitMode, ReaderToolbar } from "./reader-toolbar.tsx";

type Loaded = { doc: PDFDocumentProxy; pageCount: number; baseSize: PageSize };
type State = { status: "checking" } | ({ status: "ready" } & Loaded) | { status: "error"; message: string };

export interface ReaderProps {
  pdfUrl: string;
  title: string;
  backHref: string;
  backLabel: string;
  initialPage: number;
  onPageChange?: (page: number) => void;
  toolbarExtra?: ReactNode;
}

/** The admin's full-screen pdf.js canvas reader, loading the file through our range transport. */
export function PdfReader(props: ReaderProps) {
  const [state, setState] = useState<State>({ status: "checking" });

  useEffect(() => {
    let opened: OpenedPdf | null = null;
    let cancelled = false;
    const fail = (error: Error) => !cancelled && setState({ status: "error", message: describeLoadError(error) });
    (async () => {
      const length = await probePdf(props.pdfUrl);
      if (cancelled) return;
      opened = openPdf(props.pdfUrl, length, fail);
      const doc = await opened.document;
      const first = (await doc.getPage(1)).getViewport({ scale: 1 });
      if (!cancelled) setState({ status: "ready", doc, pageCount: doc.numPages, baseSize: { width: first.width, height: first.height } });
    })().catch(fail);
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [props.pdfUrl]);

  if (state.status === "checking") return <LoadingPdfViewer />;
  if (state.status === "error") {
    return <ReaderError message={state.message} backHref={props.backHref} backLabel={props.backLabel} />;
  }
  return <ReaderView {...props} {...state} onFail={(message) => setState({ status: "error", message })} />;
}

/** pdf.js's failures in words a teacher can act on. */
function describeLoadError(error: Error): string {
  if (error.name === "PasswordException") return "This book is password-protected and cannot be opened in the reader.";
  if (error.name === "InvalidPDFException") return "This book's file is damaged or is not a PDF.";
  return error.message || "Failed to load the book";
}

const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
const GUTTER = 32;

function ReaderView({
  doc,
  pageCount,
  baseSize,
  title,
  backHref,
  backLabel,
  initialPage,
  onPageChange,
  toolbarExtra,
  onFail,
}: ReaderProps & Loaded & { onFail: (message: string) => void }) {
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ width: 0, height: 0 });
  const [fit, setFit] = useState<FitMode>("width");
  const [customScale, setCustomScale] = useState(1);
  const [sizes, setSizes] = useState<Map<number, PageSize>>(new Map());
  const [near, setNear] = useState<Set<number>>(new Set([initialPage]));
  const [page, setPage] = useState(Math.min(Math.max(1, initialPage), pageCount));
  const painted = useRef(false);

  const widthScale = viewport.width ? Math.max(MIN_SCALE, (viewport.width - GUTTER) / baseSize.width) : 1;
  const scale =
    fit === "width"
      ? Math.min(widthScale, MAX_SCALE)
      : fit === "page"
        ? Math.min(widthScale, (viewport.height - 24) / baseSize.height)
        : customScale;

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewport({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Which pages are within a screen or so of the viewport: only those are painted.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) =>
        setNear((current) => {
          const next = new Set(current);
          for (const entry of entries) {
            const n = Number((entry.target as HTMLElement).dataset.pageNumber);
            if (entry.isIntersecting) next.add(n);
            else next.delete(n);
          }
          return next;
        }),
      { root: element, rootMargin: "100% 0px" },
    );
    for (const child of element.querySelectorAll("[data-page-number]")) observer.observe(child);
    return () => observer.disconnect();
  }, []);

  const pageElement = useCallback((n: number) => scroller.current?.querySelector<HTMLElement>(`[data-page-number="${n}"]`) ?? null, []);

  const goTo = useCallback(
    (target: number) => {
      const n = Math.min(Math.max(1, target), pageCount);
      const element = pageElement(n);
      if (element && scroller.current) scroller.current.scrollTop = element.offsetTop - 12;
      setPage(n);
    },
    [pageCount, pageElement],
  );

  // The page being read: the last one whose top is above a third of the viewport.
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const line = element.scrollTop + element.clientHeight / 3;
    let low = 1;
    let high = pageCount;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if ((pageElement(mid)?.offsetTop ?? 0) <= line) low = mid;
      else high = mid - 1;
    }
    setPage(low);
  }, [pageCount, pageElement]);

  // Keep the page being read in place when the scale changes, and open at the saved page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the scale changes, not on every page turn
  useLayoutEffect(() => {
    if (viewport.width) goTo(page);
  }, [scale, viewport.width > 0]);

  useEffect(() => onPageChange?.(page), [page, onPageChange]);

  const zoom = (direction: 1 | -1) => {
    setCustomScale(Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale * (direction > 0 ? 1.2 : 1 / 1.2))));
    setFit("custom");
  };

  const fullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen?.().catch(() => {});
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase();
      if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
      const actions: Record<string, () => void> = {
        arrowright: () => goTo(page + 1),
        arrowdown: () => goTo(page + 1),
        pagedown: () => goTo(page + 1),
        " ": () => goTo(page + 1),
        arrowleft: () => goTo(page - 1),
        arrowup: () => goTo(page - 1),
        pageup: () => goTo(page - 1),
        home: () => goTo(1),
        end: () => goTo(pageCount),
        "+": () => zoom(1),
        "=": () => zoom(1),
        "-": () => zoom(-1),
      };
      const action = actions[key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const onSize = useCallback((n: number, size: PageSize) => setSizes((current) => new Map(current).set(n, size)), []);
  const onPainted = useCallback(() => {
    if (painted.current) return;
    painted.current = true;
    root.current?.setAttribute("data-first-paint-ms", String(Math.round(performance.now())));
  }, []);
  const onError = useCallback((error: Error) => onFail(error.message), [onFail]);

  return (
    <div
      ref={root}
      data-reader
      data-page-count={pageCount}
      className="fixed inset-0 z-50 flex flex-col bg-slate-800 select-none print:hidden"
    >
      <ReaderToolbar
        title={title}
        backHref={backHref}
        backLabel={backLabel}
        page={page}
        pageCount={pageCount}
        fit={fit}
        zoomPercent={Math.round(scale * 100)}
        onGoTo={goTo}
        onZoom={zoom}
        onFit={setFit}
        onFullscreen={fullscreen}
        extra={toolbarExtra}
      />
      <div ref={scroller} onScroll={onScroll} className="relative flex-1 overflow-auto overscroll-contain px-2 py-2" tabIndex={-1}>
        {Array.from({ length: pageCount }, (_, i) => {
          const n = i + 1;
          return (
            <PdfPage
              key={n}
              doc={doc}
              pageNumber={n}
              size={sizes.get(n) ?? baseSize}
              scale={scale}
              active={near.has(n) || n === page}
              onSize={onSize}
              onPainted={onPainted}
              onError={onError}
            />
          );
        })}
      </div>
    </div>
  );
}

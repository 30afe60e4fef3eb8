import { useCallback, useEffect, useRef, useState } from "react";
import type { PageStore } from "../../lib/reader/page-store.ts";
import type { PageInfo } from "../../lib/reader/reader-api.ts";
import { PresentedPage } from "./presented-page.tsx";
import { PathIcon } from "./reader-toolbar.tsx";

/** How long the controls stay after the pointer last moved. */
const CONTROLS_MS = 2_500;
type Tool = "none" | "pointer" | "pen";

const control =
  "inline-flex h-10 min-w-10 items-center justify-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-white hover:bg-white/15 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-300 aria-pressed:bg-white/25";

/** The pages shown at `at`: one, or two facing (a spread starts on an even page after the cover, as a printed book). */
export function spreadAt(at: number, pageCount: number, facing: boolean): number[] {
  if (!facing || at === 1) return [at];
  const left = at % 2 === 0 ? at : at - 1;
  return left + 1 <= pageCount ? [left, left + 1] : [left];
}

/**
 * Presenting a book to a class (docs/decisions/0032): full screen, one page (or two facing) fitted
 * to the screen, the controls hidden until the pointer moves. Arrows, PageUp/PageDown (presenter
 * clickers send these), Space and Home/End turn pages; B (or .) blacks the screen out; Escape leaves.
 * A pointer (a red dot for the room to follow) and a pen for drawing on the page, never saved and
 * wiped when the page turns. The pages are the same stamped images as the reader's: the watermark
 * goes to the whiteboard too.
 */
export function Presentation({
  store,
  pages,
  page,
  title,
  widths,
  onExit,
}: {
  store: PageStore;
  pages: readonly PageInfo[];
  page: number;
  title: string;
  widths: readonly number[];
  onExit: (page: number) => void;
}) {
  const root = useRef<HTMLDivElement>(null);
  const pageCount = pages.length;
  const [at, setAt] = useState(page);
  const [facing, setFacing] = useState(false);
  const [black, setBlack] = useState(false);
  const [tool, setTool] = useState<Tool>("none");
  const [controls, setControls] = useState(true);
  const [dot, setDot] = useState<{ x: number; y: number } | null>(null);
  const [screen, setScreen] = useState(() => ({ w: window.innerWidth, h: window.innerHeight }));
  const canvas = useRef<HTMLCanvasElement>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ at, facing });
  latest.current = { at, facing };

  const shown = spreadAt(at, pageCount, facing);
  const exit = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    onExit(latest.current.at);
  }, [onExit]);
  const turn = useCallback(
    (direction: 1 | -1) => {
      const { at: now, facing: two } = latest.current;
      const spread = spreadAt(now, pageCount, two);
      const next = direction > 0 ? (spread.at(-1) ?? now) + 1 : (spread[0] ?? now) - 1;
      if (next >= 1 && next <= pageCount) setAt(next);
    },
    [pageCount],
  );

  // Full screen on entering; leaving full screen (Escape, the browser's own way out) leaves the presentation.
  useEffect(() => {
    const element = root.current;
    let entered = false;
    const onChange = () => {
      if (document.fullscreenElement) entered = true;
      else if (entered) onExit(latest.current.at);
    };
    document.addEventListener("fullscreenchange", onChange);
    void element?.requestFullscreen?.().catch(() => {});
    element?.focus();
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [onExit]);

  useEffect(() => {
    const onResize = () => setScreen({ w: window.innerWidth, h: window.innerHeight });
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);

  // The keys: taken before the reader's own (capture), so a page turns once.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target instanceof HTMLElement && event.target.closest("button") && (event.key === " " || event.key === "Enter")) return;
      const key = event.key.toLowerCase();
      const action: (() => void) | undefined = {
        arrowright: () => turn(1),
        arrowdown: () => turn(1),
        pagedown: () => turn(1),
        " ": () => turn(event.shiftKey ? -1 : 1),
        arrowleft: () => turn(-1),
        arrowup: () => turn(-1),
        pageup: () => turn(-1),
        home: () => setAt(1),
        end: () => setAt(pageCount),
        b: () => setBlack((on) => !on),
        ".": () => setBlack((on) => !on),
        escape: exit,
      }[key];
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      action();
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [turn, exit, pageCount]);

  const showControls = () => {
    setControls(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setControls(false), CONTROLS_MS);
  };
  useEffect(() => {
    hideTimer.current = setTimeout(() => setControls(false), CONTROLS_MS);
    return () => clearTimeout(hideTimer.current);
  }, []);

  // The pen's drawing belongs to the page shown: a turn (or a new size) wipes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the pages or the screen change
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    element.width = screen.w * (window.devicePixelRatio || 1);
    element.height = screen.h * (window.devicePixelRatio || 1);
  }, [at, facing, tool, screen.w, screen.h]);

  const drawing = useRef<{ x: number; y: number } | null>(null);
  const draw = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const context = canvas.current?.getContext("2d");
    const from = drawing.current;
    const ratio = window.devicePixelRatio || 1;
    const to = { x: event.clientX * ratio, y: event.clientY * ratio };
    if (context && from) {
      context.strokeStyle = "#e11d48";
      context.lineWidth = 4 * ratio;
      context.lineCap = "round";
      context.beginPath();
      context.moveTo(from.x, from.y);
      context.lineTo(to.x, to.y);
      context.stroke();
    }
    drawing.current = to;
  };

  const gap = 16;
  const room = { w: (screen.w - gap * (shown.length + 1)) / shown.length, h: screen.h - 2 * gap };
  const infos = shown.map((n) => pages[n - 1]).filter((info): info is PageInfo => Boolean(info));
  const scale = Math.min(...infos.map((info) => Math.min(room.w / info.width, room.h / info.height)));

  return (
    <div
      ref={root}
      role="dialog"
      aria-modal="true"
      aria-label={`Presenting ${title}`}
      tabIndex={-1}
      data-presentation
      onPointerMove={(event) => {
        showControls();
        if (tool === "pointer") setDot({ x: event.clientX, y: event.clientY });
      }}
      className={`fixed inset-0 z-[60] flex items-center justify-center gap-4 bg-black outline-none select-none ${
        tool === "none" ? "" : "cursor-none"
      }`}
    >
      <p className="sr-only" aria-live="polite">
        {black ? "The screen is blacked out. Press B to show the page again." : `Page ${shown.join(" and ")} of ${pageCount}`}
      </p>
      {!black &&
        infos.map((info) => <PresentedPage key={info.n} store={store} info={info} scale={scale} widths={widths} pageCount={pageCount} />)}
      {tool === "pen" && !black && (
        <canvas
          ref={canvas}
          aria-label="Drawing on the page (not saved)"
          className="absolute inset-0 h-full w-full touch-none"
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture?.(event.pointerId);
            drawing.current = { x: event.clientX * (window.devicePixelRatio || 1), y: event.clientY * (window.devicePixelRatio || 1) };
          }}
          onPointerMove={(event) => drawing.current && draw(event)}
          onPointerUp={() => {
            drawing.current = null;
          }}
        />
      )}
      {tool === "pointer" && dot && !black && (
        <span
          aria-hidden="true"
          className="pointer-events-none absolute h-5 w-5 -translate-x-1/2 -translate-y-1/2 rounded-full bg-red-500 shadow-[0_0_16px_6px_rgba(239,68,68,0.6)]"
          style={{ left: dot.x, top: dot.y }}
        />
      )}
      <div
        role="toolbar"
        aria-label="Presentation"
        className={`absolute inset-x-0 bottom-4 mx-auto flex w-max max-w-[calc(100%-1rem)] flex-wrap items-center justify-center gap-1 rounded-xl bg-slate-900/90 p-1.5 shadow-2xl ring-1 ring-white/10 transition-opacity duration-300 focus-within:opacity-100 ${
          controls ? "opacity-100" : "pointer-events-none opacity-0"
        }`}
      >
        <button type="button" className={control} aria-label="Previous page" onClick={() => turn(-1)} disabled={(shown[0] ?? 1) <= 1}>
          <PathIcon d="M15 6l-6 6 6 6" />
        </button>
        <span className="px-2 text-sm text-slate-200 tabular-nums">
          {shown.join("–")} / {pageCount}
        </span>
        <button
          type="button"
          className={control}
          aria-label="Next page"
          onClick={() => turn(1)}
          disabled={(shown.at(-1) ?? 1) >= pageCount}
        >
          <PathIcon d="M9 6l6 6-6 6" />
        </button>
        <button type="button" className={control} aria-pressed={facing} onClick={() => setFacing((on) => !on)}>
          Two pages
        </button>
        <button
          type="button"
          className={control}
          aria-pressed={tool === "pointer"}
          onClick={() => setTool((t) => (t === "pointer" ? "none" : "pointer"))}
        >
          Pointer
        </button>
        <button
          type="button"
          className={control}
          aria-pressed={tool === "pen"}
          onClick={() => setTool((t) => (t === "pen" ? "none" : "pen"))}
        >
          Pen
        </button>
        {tool === "pen" && (
          <button
            type="button"
            className={control}
            onClick={() => {
              const element = canvas.current;
              element?.getContext("2d")?.clearRect(0, 0, element.width, element.height);
            }}
          >
            Clear drawing
          </button>
        )}
        <button type="button" className={control} aria-pressed={black} onClick={() => setBlack((on) => !on)}>
          Black screen (B)
        </button>
        <button type="button" className={control} onClick={exit}>
          Exit (Esc)
        </button>
      </div>
    </div>
  );
}

import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { Icon } from "../ui/icon.tsx";

export type FitMode = "width" | "page" | "custom";

/** A toolbar button's look; buttons that hide on small screens add `max-sm:hidden` (a plain `hidden` loses to `inline-flex`). */
export const toolbarButton =
  "inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2 text-slate-200 hover:bg-white/10 disabled:opacity-40 disabled:hover:bg-transparent";

export function PathIcon({ d }: { d: string }) {
  return (
    <Icon className="h-5 w-5">
      <path d={d} strokeLinecap="round" strokeLinejoin="round" />
    </Icon>
  );
}

/** The fit modes a person can choose, each a toggle button: its mode, its name and its icon. */
const FITS = [
  ["width", "Fit width", "M4 12h16M7 9l-3 3 3 3M17 9l3 3-3 3"],
  ["page", "Fit page", "M6 3h12v18H6zM9 7h6M9 11h6"],
] as const;

/**
 * A toolbar button: its icon, named for screen readers by `label`. A toggle says it is on with
 * `pressed` (a mode) or `expanded` (a panel), and is drawn lit while on; `className` adds to its look.
 */
export function ToolButton({
  label,
  icon,
  onClick,
  pressed,
  expanded,
  disabled,
  className,
  children,
}: {
  label: string;
  icon: string;
  onClick: () => void;
  pressed?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const look = [toolbarButton, className, (pressed ?? expanded) ? "bg-white/15" : ""].filter(Boolean).join(" ");
  return (
    <button
      type="button"
      className={look}
      aria-label={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      disabled={disabled}
      onClick={onClick}
    >
      <PathIcon d={icon} />
      {children}
    </button>
  );
}

/**
 * Our own small toolbar instead of the browser's viewer: no save, no print. It is the page's
 * banner; on a narrow screen its groups wrap onto a second row rather than leave the screen.
 */
export function ReaderToolbar({
  title,
  backHref,
  backLabel,
  page,
  pageCount,
  fit,
  zoomPercent,
  onGoTo,
  onZoom,
  onFit,
  onFullscreen,
  extra,
}: {
  title: string;
  backHref: string;
  backLabel: string;
  page: number;
  pageCount: number;
  fit: FitMode;
  /** Null until the page is laid out (the server cannot know the scale fitting the screen). */
  zoomPercent: number | null;
  onGoTo: (page: number) => void;
  onZoom: (direction: 1 | -1) => void;
  onFit: (mode: "width" | "page") => void;
  onFullscreen: () => void;
  extra?: ReactNode;
}) {
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = Number(draft);
    if (Number.isInteger(target) && target >= 1 && target <= pageCount) onGoTo(target);
    else setDraft(String(page));
  };

  return (
    <header className="shrink-0 border-b border-white/10 bg-slate-900 text-sm text-slate-100">
      <div role="toolbar" aria-label="Reader" className="flex min-h-14 flex-wrap items-center gap-x-1 gap-y-1 px-2 py-2 sm:gap-x-2 sm:px-3">
        {/* A plain link: the teacher's reader hydrates without the router, so leaving is a document load. */}
        <a href={backHref} className={`${toolbarButton} gap-1 pr-3`} aria-label={backLabel}>
          <PathIcon d="M15 18l-6-6 6-6" />
          <span className="hidden md:inline">{backLabel}</span>
        </a>
        <h1 className="sr-only min-w-0 flex-1 truncate px-2 font-semibold lg:not-sr-only lg:block" title={title}>
          {title}
        </h1>
        <div className="flex flex-1 items-center justify-center gap-1 lg:flex-none">
          <ToolButton label="Previous page" icon="M15 18l-6-6 6-6" onClick={() => onGoTo(page - 1)} disabled={page <= 1} />
          <form onSubmit={submit} className="flex items-center gap-1.5">
            <label htmlFor="reader-page" className="sr-only">
              Go to page
            </label>
            <input
              id="reader-page"
              inputMode="numeric"
              value={draft}
              onChange={(e) => setDraft(e.target.value.replace(/\D/g, "").slice(0, 6))}
              onBlur={submit}
              className="h-8 w-12 rounded-md border border-white/20 bg-slate-800 text-center text-slate-100 focus:border-indigo-400 focus:outline-none"
            />
            <span className="whitespace-nowrap text-slate-300">of {pageCount || "…"}</span>
          </form>
          <ToolButton label="Next page" icon="M9 18l6-6-6-6" onClick={() => onGoTo(page + 1)} disabled={page >= pageCount} />
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-1">
          <ToolButton label="Zoom out" icon="M5 12h14" onClick={() => onZoom(-1)} />
          <span className="hidden w-12 text-center tabular-nums text-slate-300 sm:inline" aria-live="polite">
            {zoomPercent !== null && `${zoomPercent}%`}
          </span>
          <ToolButton label="Zoom in" icon="M12 5v14M5 12h14" onClick={() => onZoom(1)} />
          {FITS.map(([mode, label, icon]) => (
            <ToolButton key={mode} label={label} icon={icon} className="max-sm:hidden" pressed={fit === mode} onClick={() => onFit(mode)} />
          ))}
          <ToolButton label="Full screen" icon="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" onClick={onFullscreen} />
          {extra}
        </div>
      </div>
    </header>
  );
}

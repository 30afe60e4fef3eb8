import { type ReactNode, useEffect, useRef } from "react";
import { Icon } from "../ui/icon.tsx";

/**
 * A side panel of the reader (contents, search): a labelled landmark beside the pages on wide
 * screens, over them on narrow ones. Escape closes it and gives focus back to what opened it.
 */
export function ReaderPanel({
  title,
  side,
  onClose,
  children,
}: {
  title: string;
  side: "left" | "right";
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.querySelector<HTMLElement>("input, button[data-autofocus], a, button:not([data-close])")?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <aside
      ref={panel}
      aria-label={title}
      data-reader-panel
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.stopPropagation();
        onClose();
      }}
      className={`absolute inset-0 z-10 flex flex-col bg-slate-900 text-slate-100 md:static md:w-80 md:shrink-0 ${
        side === "left" ? "md:order-first md:border-r" : "md:order-last md:border-l"
      } border-white/10`}
    >
      <div className="flex h-12 shrink-0 items-center justify-between gap-2 border-b border-white/10 pr-1 pl-4">
        <h2 className="font-semibold">{title}</h2>
        <button
          type="button"
          data-close
          onClick={onClose}
          aria-label={`Close ${title.toLowerCase()}`}
          className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-300 hover:bg-white/10"
        >
          <Icon className="h-5 w-5">
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </Icon>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
    </aside>
  );
}

/** On a narrow screen a panel covers the pages: after a jump it gets out of the way. */
export const panelCoversPages = () => typeof window !== "undefined" && window.matchMedia?.("(max-width: 767px)").matches === true;

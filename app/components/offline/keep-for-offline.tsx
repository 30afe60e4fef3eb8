import { useEffect, useId, useState } from "react";
import { formatDateTime } from "../../lib/format-date.ts";
import type { OfflineCopy } from "../../lib/offline/offline-db.ts";
import { ToolButton } from "../reader/reader-toolbar.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { type KeepBookRef, type KeepState, type Saving, useKeepForOffline } from "./use-keep-for-offline.ts";
import { useOnline } from "./use-offline-contact.ts";

export const savingText = ({ saved, pageCount }: Saving) =>
  pageCount === null ? "Saving for offline: asking the library…" : `Saving for offline: ${saved} of ${pageCount} pages`;

export const isPartial = (copy: OfflineCopy) => copy.saved < copy.pageCount;

/**
 * "Keep for offline" on a book (issue 45): on the book's page a panel, in the reader's toolbar a
 * button opening the same panel. It keeps the book on this device (keep-book.ts), shows the
 * download's progress with Cancel, says the server's sentence when it refuses, and once kept says
 * until when, with "Return now".
 */
export function KeepForOffline({
  book,
  variant = "page",
  keep,
}: {
  book: KeepBookRef;
  variant?: "page" | "toolbar";
  keep?: Parameters<typeof useKeepForOffline>[1];
}) {
  const state = useKeepForOffline(book, keep);
  if (variant === "toolbar") return <ToolbarKeep state={state} />;
  return (
    <section
      aria-label="Offline reading"
      className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm dark:border-slate-800 dark:bg-slate-800/40"
    >
      <KeepBody state={state} dark={false} />
    </section>
  );
}

function ToolbarKeep({ state }: { state: KeepState }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const busy = state.saving !== null;
  // A download under way is always in view: its progress and its Cancel.
  useEffect(() => {
    if (busy) setOpen(true);
  }, [busy]);
  const kept = state.copy && !isPartial(state.copy);
  const online = useOnline();
  return (
    <div className="relative flex items-center gap-1">
      {state.copy && !online && (
        <span
          role="status"
          className="rounded-full bg-amber-400/15 px-2.5 py-1 text-xs font-medium text-amber-200 ring-1 ring-amber-300/30"
        >
          Offline copy, until {new Date(state.copy.until).toLocaleDateString("en-US", { month: "short", day: "numeric" })}
        </span>
      )}
      <ToolButton
        label={kept ? "Kept for offline" : "Keep for offline"}
        icon={kept ? "M5 13l4 4L19 7" : "M12 4v11m0 0l-4-4m4 4l4-4M5 20h14"}
        expanded={open}
        onClick={() => setOpen((now) => !now)}
      />
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Keep for offline"
          onKeyDown={(event) => event.key === "Escape" && setOpen(false)}
          className="absolute right-0 top-full z-30 mt-2 w-80 rounded-xl border border-white/10 bg-slate-900 p-4 text-sm text-slate-100 shadow-2xl"
        >
          <KeepBody state={state} dark />
          {!busy && (
            <button type="button" className="mt-3 text-xs text-slate-400 underline hover:text-slate-200" onClick={() => setOpen(false)}>
              Close
            </button>
          )}
        </div>
      )}
    </div>
  );
}

const DARK_SECONDARY =
  "inline-flex items-center justify-center rounded-lg border border-white/20 px-3 py-2 text-sm font-semibold text-slate-100 hover:bg-white/10 disabled:opacity-60";

function KeepBody({ state, dark }: { state: KeepState; dark: boolean }) {
  const { copy, saving, message, returning } = state;
  const muted = dark ? "text-slate-300" : "text-slate-600 dark:text-slate-400";
  const button = (variant: "primary" | "secondary") =>
    variant === "secondary" && dark ? DARK_SECONDARY : buttonClasses(variant, "px-3 py-2");
  return (
    <div className="space-y-3">
      {saving ? (
        <>
          <p role="status" className="font-medium">
            {savingText(saving)}
          </p>
          <ProgressBar saving={saving} dark={dark} />
          <button type="button" className={button("secondary")} onClick={state.cancel}>
            Cancel
          </button>
        </>
      ) : copy ? (
        <>
          <p className="font-medium">
            {isPartial(copy)
              ? `${copy.saved} of ${copy.pageCount} pages kept on this device, until ${formatDateTime(copy.until)}.`
              : `Kept on this device for offline reading until ${formatDateTime(copy.until)}.`}
          </p>
          {isPartial(copy) && (
            <p className={muted}>{copy.stopped ? `Saving stopped: ${copy.stopped}` : "Saving stopped before the last page."}</p>
          )}
          <div className="flex flex-wrap gap-2">
            {isPartial(copy) && (
              <button type="button" className={button("primary")} onClick={state.keep}>
                Continue saving
              </button>
            )}
            <button type="button" className={button("secondary")} onClick={state.giveBack} disabled={returning}>
              {returning ? "Returning…" : "Return now"}
            </button>
          </div>
        </>
      ) : copy === null ? (
        <>
          <p className={muted}>
            Keep this book on this device to read it without a connection. It holds one of your school's seats until it ends or you return
            it.
          </p>
          <button type="button" className={button("primary")} onClick={state.keep}>
            Keep for offline
          </button>
        </>
      ) : null}
      {message && (
        <p
          role={message.tone === "error" ? "alert" : "status"}
          className={message.tone === "error" ? (dark ? "text-rose-300" : "text-rose-700 dark:text-rose-300") : muted}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}

function ProgressBar({ saving, dark }: { saving: Saving; dark: boolean }) {
  const { saved, pageCount } = saving;
  const percent = pageCount ? Math.round((saved / pageCount) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label="Saving for offline"
      aria-valuemin={0}
      aria-valuemax={pageCount ?? undefined}
      aria-valuenow={pageCount === null ? undefined : saved}
      aria-valuetext={pageCount === null ? "Starting" : `${saved} of ${pageCount} pages`}
      className={`h-2 w-full overflow-hidden rounded-full ${dark ? "bg-white/15" : "bg-slate-200 dark:bg-slate-700"}`}
    >
      <div className="h-full rounded-full bg-indigo-500 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

import type { ReactNode } from "react";
import { Spinner } from "../ui/spinner.tsx";
import { primary, secondary } from "./notes-styles.ts";
import { ReaderPanel } from "./reader-panel.tsx";

// What shows for a part of the reader loaded on first use (page-reader-view.tsx): while its code is
// on its way, the part's own frame (a panel named and closable, so it is where it will be); when
// it could not be loaded, a sentence that says so, "Try again", and "Reload the page" (after an
// update of the app, the old files are gone and only a reload brings the new ones).

export function PanelLoading({ title, side, onClose }: { title: string; side: "left" | "right"; onClose: () => void }) {
  return (
    <ReaderPanel title={title} side={side} onClose={onClose}>
      <p className="flex items-center gap-2 p-4 text-sm text-slate-300">
        <Spinner label={`Opening ${title.toLowerCase()}`} /> <span aria-hidden="true">Opening...</span>
      </p>
    </ReaderPanel>
  );
}

export function PanelFailed({
  title,
  side,
  onClose,
  retry,
}: {
  title: string;
  side: "left" | "right";
  onClose: () => void;
  retry: () => void;
}) {
  return (
    <ReaderPanel title={title} side={side} onClose={onClose}>
      <NotLoaded what={title} retry={retry} />
    </ReaderPanel>
  );
}

export function TextViewLoading() {
  return (
    <Centred>
      <Spinner label="Opening the text view" /> <span aria-hidden="true">Opening the text view...</span>
    </Centred>
  );
}

export function TextViewFailed({ retry }: { retry: () => void }) {
  return (
    <Centred>
      <NotLoaded what="Text view" retry={retry} />
    </Centred>
  );
}

export function PresentationLoading() {
  return (
    <Overlay>
      <Spinner label="Opening the presentation" /> <span aria-hidden="true">Opening the presentation...</span>
    </Overlay>
  );
}

export function PresentationFailed({ retry, onClose }: { retry: () => void; onClose: () => void }) {
  return (
    <Overlay>
      <NotLoaded what="Present" retry={retry} onClose={onClose} />
    </Overlay>
  );
}

function NotLoaded({ what, retry, onClose }: { what: string; retry: () => void; onClose?: () => void }) {
  return (
    <div role="alert" className="flex max-w-sm flex-col gap-3 p-4 text-sm text-slate-200">
      <p>"{what}" could not be opened. Check your connection and try again.</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={retry} className={primary}>
          Try again
        </button>
        <button type="button" onClick={() => window.location.reload()} className={secondary}>
          Reload the page
        </button>
        {onClose && (
          <button type="button" onClick={onClose} className={secondary}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}

function Centred({ children }: { children: ReactNode }) {
  return <div className="flex min-h-0 flex-1 items-center justify-center gap-2 text-slate-300">{children}</div>;
}

function Overlay({ children }: { children: ReactNode }) {
  return <div className="fixed inset-0 z-[60] flex items-center justify-center gap-2 bg-black text-slate-300">{children}</div>;
}

import { Spinner } from "../ui/spinner.tsx";
import { ReaderPanel } from "./reader-panel.tsx";

// What shows for the moment a part of the reader loaded on first use (page-reader-view.tsx) is on
// its way: the panel's own frame, named and closable, so the opened panel is where it will be.

export function PanelLoading({ title, side, onClose }: { title: string; side: "left" | "right"; onClose: () => void }) {
  return (
    <ReaderPanel title={title} side={side} onClose={onClose}>
      <p className="flex items-center gap-2 p-4 text-sm text-slate-300">
        <Spinner label={`Opening ${title.toLowerCase()}`} /> <span aria-hidden="true">Opening...</span>
      </p>
    </ReaderPanel>
  );
}

export function TextViewLoading() {
  return (
    <div className="flex min-h-0 flex-1 items-center justify-center gap-2 text-slate-300">
      <Spinner label="Opening the text view" /> <span aria-hidden="true">Opening the text view...</span>
    </div>
  );
}

export function PresentationLoading() {
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center gap-2 bg-black text-slate-300">
      <Spinner label="Opening the presentation" /> <span aria-hidden="true">Opening the presentation...</span>
    </div>
  );
}

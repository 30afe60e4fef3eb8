import type { ComponentProps } from "react";
import { LatePart, loadablePart } from "../ui/late-part.tsx";
import type { ContentsPanel } from "./contents-panel.tsx";
import type { NotesPanel } from "./notes-panel.tsx";
import type { Presentation } from "./presentation.tsx";
import { PanelFailed, PanelLoading, PresentationFailed, PresentationLoading, TextViewFailed, TextViewLoading } from "./reader-loading.tsx";
import type { ReaderSearch } from "./reader-search.tsx";
import type { TextView } from "./text-view.tsx";

// What a teacher opens by choice loads when first opened (its chunk is small and the service worker
// keeps it for offline reading), so the first page comes with less JavaScript (decision 54). Each
// shows a frame of its own while its code loads, and says so in its place, with "Try again", when
// the code could not be loaded (reader-loading.tsx). The imports above are of types only.
const textViewPart = loadablePart(() => import("./text-view.tsx").then((module) => module.TextView));
const notesPart = loadablePart(() => import("./notes-panel.tsx").then((module) => module.NotesPanel));
const contentsPart = loadablePart(() => import("./contents-panel.tsx").then((module) => module.ContentsPanel));
const searchPart = loadablePart(() => import("./reader-search.tsx").then((module) => module.ReaderSearch));
const presentationPart = loadablePart(() => import("./presentation.tsx").then((module) => module.Presentation));

/** The page as text (with read aloud and the reading settings), in place of the page images. */
export function LateTextView(props: ComponentProps<typeof TextView>) {
  return (
    <LatePart part={textViewPart} loading={<TextViewLoading />} failed={(retry) => <TextViewFailed retry={retry} />}>
      {(Part) => <Part {...props} />}
    </LatePart>
  );
}

/** A side panel's frame, with its title and its close button, while its code loads or when it could not. */
const panelFrames = (title: string, side: "left" | "right", onClose: () => void) => ({
  loading: <PanelLoading title={title} side={side} onClose={onClose} />,
  failed: (retry: () => void) => <PanelFailed title={title} side={side} onClose={onClose} retry={retry} />,
});

export function LateNotesPanel(props: ComponentProps<typeof NotesPanel>) {
  return (
    <LatePart part={notesPart} {...panelFrames("Notes", "right", props.onClose)}>
      {(Part) => <Part {...props} />}
    </LatePart>
  );
}

export function LateContentsPanel(props: ComponentProps<typeof ContentsPanel>) {
  return (
    <LatePart part={contentsPart} {...panelFrames("Contents", "left", props.onClose)}>
      {(Part) => <Part {...props} />}
    </LatePart>
  );
}

export function LateReaderSearch(props: ComponentProps<typeof ReaderSearch>) {
  return (
    <LatePart part={searchPart} {...panelFrames("Search in book", "right", props.onClose)}>
      {(Part) => <Part {...props} />}
    </LatePart>
  );
}

/** Presenting (the whole screen, page by page); `onClose` leaves it when its code could not be loaded. */
export function LatePresentation({ onClose, ...props }: ComponentProps<typeof Presentation> & { onClose: () => void }) {
  return (
    <LatePart
      part={presentationPart}
      loading={<PresentationLoading />}
      failed={(retry) => <PresentationFailed retry={retry} onClose={onClose} />}
    >
      {(Part) => <Part {...props} />}
    </LatePart>
  );
}

import type { OutlineItem } from "../../../workers/page-images/page-content.ts";
import { fetchOutline } from "../../lib/reader/reader-api.ts";
import { useFetched } from "../../lib/use-fetched.ts";
import { Spinner } from "../ui/spinner.tsx";
import { panelCoversPages, ReaderPanel } from "./reader-panel.tsx";

/** The book's contents from the PDF's outline: nested links to its pages. */
export function ContentsPanel({ bookId, onGoTo, onClose }: { bookId: number; onGoTo: (page: number) => void; onClose: () => void }) {
  const outline = useFetched(String(bookId), (signal) => fetchOutline(bookId, signal));
  const jump = (page: number) => {
    onGoTo(page);
    if (panelCoversPages()) onClose();
  };
  return (
    <ReaderPanel title="Contents" side="left" onClose={onClose}>
      {outline.error ? (
        <p role="alert" className="p-4 text-red-300">
          {outline.error.message}
        </p>
      ) : !outline.data ? (
        <p className="flex items-center gap-2 p-4 text-slate-300">
          <Spinner label="Loading the contents" /> <span aria-hidden="true">Loading the contents...</span>
        </p>
      ) : outline.data.outline.length === 0 ? (
        <p className="p-4 text-slate-300">This book has no table of contents.</p>
      ) : (
        <nav aria-label="Table of contents" className="p-2">
          <OutlineList items={outline.data.outline} onJump={jump} />
        </nav>
      )}
    </ReaderPanel>
  );
}

function OutlineList({ items, onJump }: { items: OutlineItem[]; onJump: (page: number) => void }) {
  return (
    <ul className="space-y-0.5">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: outline entries may repeat titles; their order is fixed
        <li key={i}>
          {item.page === null ? (
            <span className="block px-3 py-1.5 text-slate-400">{item.title}</span>
          ) : (
            <a
              href={`#page-${item.page}`}
              onClick={(event) => {
                event.preventDefault();
                onJump(item.page!);
              }}
              className="flex items-baseline justify-between gap-3 rounded-md px-3 py-1.5 hover:bg-white/10 focus-visible:bg-white/10"
            >
              <span className="min-w-0 break-words">{item.title}</span>
              <span className="shrink-0 text-xs tabular-nums text-slate-400">{item.page}</span>
            </a>
          )}
          {item.items.length > 0 && (
            <div className="border-l border-white/10 pl-3 ml-3">
              <OutlineList items={item.items} onJump={onJump} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

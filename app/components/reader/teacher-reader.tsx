import type { PageList } from "../../lib/reader/reader-api.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { useLateOfflineContact } from "../offline/late-offline-contact.ts";
import { LatePart, loadablePart } from "../ui/late-part.tsx";
import { PageReader } from "./page-reader.tsx";
import { ReaderPreparing } from "./reader-error.tsx";
import { ToolButton } from "./reader-toolbar.tsx";
import { useProgressSaver } from "./use-progress-saver.ts";

/**
 * Offline reading's parts of the reader (its toolbar button and the contact check) load after the
 * reader itself: they are a tenth of the island's JavaScript, and the first page does not wait for
 * them (the reader's budget is 100 kB gzipped, docs/decisions/0010).
 */
const keepForOfflinePart = loadablePart(() => import("../offline/keep-for-offline.tsx").then((module) => module.KeepForOffline));
const KEEP_ICON = "M12 4v11m0 0l-4-4m4 4l4-4M5 20h14";

/** Everything the teacher's reader needs, as plain data: the route's loader answers it and the island receives it as JSON. */
export type TeacherReaderProps = {
  bookId: number;
  title: string;
  page: number;
  backHref: string;
  backLabel: string;
  /** The school's login page, coming back to this book: where the reader sends a teacher whose session ended. */
  loginHref?: string;
  /** The server has not made the book's page images yet: there is nothing to show. */
  preparing: boolean;
  /** The book's pages, read by the server with the rest (null while preparing): the reader then asks for no list. */
  list: PageList | null;
};

/** The id of the element the reader's island hydrates (see app/islands/page-reader.client.tsx). */
export const PAGE_READER_ID = "page-reader";

/**
 * The teacher's reader with its reading-progress saver. It uses no router and no query cache, so
 * on its own page it hydrates as an island (docs/decisions/0010); leaving it is a document load.
 */
export function TeacherReader({ bookId, title, page, backHref, backLabel, loginHref, preparing, list }: TeacherReaderProps) {
  const save = useProgressSaver(bookId);
  useLateOfflineContact();
  if (preparing) return <ReaderPreparing backHref={backHref} backLabel={backLabel} />;
  return (
    <PageReader
      bookId={bookId}
      title={title}
      backHref={backHref}
      backLabel={backLabel}
      loginHref={loginHref}
      initialPage={page}
      onPageChange={save}
      list={list}
      holdsSeat
      desk
      toolbarExtra={<LateKeepForOffline bookId={bookId} title={title} readerUrl={`${backHref}/book/${bookId}/view`} />}
    />
  );
}

/**
 * The toolbar's "Keep for offline", loaded once the reader has hydrated: the server's HTML and
 * hydration show the button in its place, unavailable, so nothing suspends while the island
 * hydrates; its code then loads and takes its place.
 */
function LateKeepForOffline({ bookId, title, readerUrl }: { bookId: number; title: string; readerUrl: string }) {
  const hydrated = useHydrated();
  const placeholder = <ToolButton label="Keep for offline" icon={KEEP_ICON} disabled onClick={() => {}} />;
  if (!hydrated) return placeholder;
  return (
    // Not loaded (no connection, or the app was updated): the button stays unavailable.
    <LatePart part={keepForOfflinePart} loading={placeholder} failed={() => placeholder}>
      {(KeepForOffline) => <KeepForOffline variant="toolbar" book={{ bookId, title, readerUrl }} />}
    </LatePart>
  );
}

import type { PageList } from "../../lib/reader/reader-api.ts";
import { KeepForOffline } from "../offline/keep-for-offline.tsx";
import { useOfflineContact } from "../offline/use-offline-contact.ts";
import { PageReader } from "./page-reader.tsx";
import { ReaderPreparing } from "./reader-error.tsx";
import { useProgressSaver } from "./use-progress-saver.ts";

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
  useOfflineContact();
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
      toolbarExtra={<KeepForOffline variant="toolbar" book={{ bookId, title, readerUrl: `${backHref}/book/${bookId}/view` }} />}
    />
  );
}

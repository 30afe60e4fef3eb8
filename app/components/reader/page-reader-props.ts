/** What the reader is given (page-reader.tsx, and page-reader-view.tsx with the page list in hand). */
import type { ReactNode } from "react";
import type { PageList } from "../../lib/reader/reader-api.ts";

export interface PageReaderProps {
  bookId: number;
  title: string;
  backHref: string;
  backLabel: string;
  initialPage: number;
  onPageChange?: (page: number) => void;
  /** The page list when the server sent it with the page; without it the reader asks for it. */
  list?: PageList | null;
  /** The school's login, back to this book: where a teacher signed out while reading goes (else `backHref`). */
  loginHref?: string;
  /** More of the toolbar after the reader's own tools (the admin's PDF view and download). */
  toolbarExtra?: ReactNode;
  /**
   * The width of the opening page's image in the server's HTML: a quick preview for teachers, whose
   * pages are stamped per request (the sharp one follows); admins read the stored page, so theirs is
   * already the sharp 1024 px one.
   */
  firstImageWidth?: number;
  /** A teacher's reader: closing it gives back their seat of the book (a licence's seat limit). */
  holdsSeat?: boolean;
  /** How long a reader turned away for lack of seats waits before asking again (SEAT_RETRY_MS; the tests' is short). */
  seatRetryMs?: number;
  /** The teacher's desk (docs/decisions/0032): bookmarks, highlights and notes, and presenting to a class. */
  desk?: boolean;
}

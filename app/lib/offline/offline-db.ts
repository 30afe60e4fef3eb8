import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Sealed } from "./offline-crypto.ts";

/**
 * What this device keeps of a book for offline reading (issue 45): the loan, its key (a
 * non-extractable CryptoKey) and how far the download got. `stopped` is the server's sentence when
 * a download stopped short (the reading budget ran out): the copy is then partial, says so, and can
 * be continued later under the same loan.
 */
export type OfflineCopy = {
  bookId: number;
  loanId: string;
  title: string;
  /** The reader's address for this book, kept by the app shell so it opens offline. */
  readerUrl: string;
  /** When the loan ends (ms since the epoch, the server's clock); past it the copy is erased unread. */
  until: number;
  pageCount: number;
  /** The one image width saved (the width this device's reader asks for). */
  width: number;
  key: CryptoKey;
  /** Pages whose image and text are both stored. */
  saved: number;
  keptAt: number;
  stopped: string | null;
};

export type PageKind = "image" | "text";
/** One encrypted page image or text; an image keeps its content type to rebuild the Blob. */
export type SealedPage = Sealed & { bookId: number; kind: PageKind; n: number; type: string };
/** A page read from the local copy, once per (loan, page, UTC day), as the server counts it. */
export type OfflineRead = { loanId: string; bookId: number; n: number; day: string; at: number };

interface OfflineSchema extends DBSchema {
  copies: { key: number; value: OfflineCopy };
  pages: { key: [number, PageKind, number]; value: SealedPage };
  reads: { key: [string, number, string]; value: OfflineRead };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const DB_NAME = "lectern-offline";
let opening: Promise<OfflineDb> | null = null;

/** The device's offline database, opened once per page (and again after `closeOfflineDb`). */
export function offlineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore("copies", { keyPath: "bookId" });
      db.createObjectStore("pages", { keyPath: ["bookId", "kind", "n"] });
      db.createObjectStore("reads", { keyPath: ["loanId", "n", "day"] });
    },
    // Another tab upgrading the database (a later version of the app): let it, and open again next time.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** Closes the database (tests delete it between cases). */
export async function closeOfflineDb(): Promise<void> {
  const db = await opening?.catch(() => null);
  db?.close();
  opening = null;
}

/** Every page record of one book: arrays sort after strings and numbers, so [id, []] bounds [id, kind, n]. */
export const pagesOf = (bookId: number) => IDBKeyRange.bound([bookId], [bookId, []]);

/** The label a record is sealed under (GCM's additional data): loan, kind and page. */
export const recordLabel = (loanId: string, kind: PageKind, n: number) => `${loanId}/${kind}/${n}`;

import { dayOf } from "#shared/rules/licence.ts";
import { type PageText, ReaderApiError } from "../reader/reader-api.ts";
import { unseal } from "./offline-crypto.ts";
import { type OfflineCopy, offlineDb, pagesOf, recordLabel } from "./offline-db.ts";

/** A page the download never reached (a partial copy) asked for from the local copy alone. */
export const PAGE_NOT_SAVED = "This page was not saved for offline reading. Connect to the internet to read it.";
/** The loan ended while the book was open: its copy is gone. */
export const OFFLINE_COPY_ENDED = "The offline copy of this book has ended. Connect to the internet to read it.";

/** The reader's two fetchers over the local copy; `width` is the one image width it holds. */
export type OfflineFetchers = {
  image(n: number, width: number): Promise<Blob>;
  text(n: number): Promise<PageText>;
  width: number;
};

const CHANGED = "lectern:offline-copies";

/** Tells this tab's views of the copies (the dashboard's list, a book's keep button) to read them again. */
export function notifyCopiesChanged(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(CHANGED));
}

export function onCopiesChanged(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  return () => window.removeEventListener(CHANGED, listener);
}

/** A copy is live until its loan's `until` on this device's clock; one past it is erased, never shown. */
const expired = (copy: OfflineCopy, now = Date.now()) => now >= copy.until;

/** This device's live copy of a book, or null (an expired one is erased on the way). */
export async function findOfflineCopy(bookId: number): Promise<OfflineCopy | null> {
  const copy = await (await offlineDb()).get("copies", bookId);
  if (!copy) return null;
  if (!expired(copy)) return copy;
  await eraseOfflineCopies([bookId]);
  return null;
}

/** Every live copy on this device, the first kept first (expired ones are erased). */
export async function listOfflineCopies(): Promise<OfflineCopy[]> {
  const copies = await (await offlineDb()).getAll("copies");
  const ended = copies.filter((copy) => expired(copy)).map((copy) => copy.bookId);
  if (ended.length) await eraseOfflineCopies(ended);
  return copies.filter((copy) => !ended.includes(copy.bookId)).sort((a, b) => a.keptAt - b.keptAt);
}

/**
 * Erases the copies of `bookIds` (every copy, and the pages read offline not yet reported, when
 * none are named: the session is gone, so nothing can be reported any more).
 */
export async function eraseOfflineCopies(bookIds?: number[]): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(["copies", "pages", "reads"], "readwrite");
  if (bookIds === undefined) {
    await Promise.all([tx.objectStore("copies").clear(), tx.objectStore("pages").clear(), tx.objectStore("reads").clear(), tx.done]);
  } else {
    const work = bookIds.flatMap((id) => [tx.objectStore("copies").delete(id), tx.objectStore("pages").delete(pagesOf(id))]);
    await Promise.all([...work, tx.done]);
  }
  notifyCopiesChanged();
}

/** Notes that page `n` was read from the local copy; reported at the next contact (offline-contact.ts). */
async function recordRead(copy: OfflineCopy, n: number): Promise<void> {
  const at = Date.now();
  const day = dayOf(at);
  const db = await offlineDb();
  // Once per (loan, page, UTC day), as the server counts: the first read of the day is kept.
  if (await db.getKey("reads", [copy.loanId, n, day])) return;
  await db.put("reads", { loanId: copy.loanId, bookId: copy.bookId, n, day, at });
}

/**
 * The reader's fetchers over this device's copy of a book (null: no live copy). They decrypt each
 * page as it is asked for; a page the copy lacks fails as a missing page (404), and a loan that ends
 * while the book is open erases the copy and fails as ended (403).
 */
export async function offlinePageFetchers(bookId: number): Promise<OfflineFetchers | null> {
  const copy = await findOfflineCopy(bookId);
  if (!copy) return null;
  const open = async (kind: "image" | "text", n: number) => {
    if (expired(copy)) {
      await eraseOfflineCopies([bookId]);
      throw new ReaderApiError(OFFLINE_COPY_ENDED, 403);
    }
    const record = await (await offlineDb()).get("pages", [bookId, kind, n]);
    if (!record) throw new ReaderApiError(PAGE_NOT_SAVED, 404);
    return { plain: await unseal(copy.key, recordLabel(copy.loanId, kind, n), record), type: record.type };
  };
  return {
    width: copy.width,
    async image(n) {
      const { plain, type } = await open("image", n);
      recordRead(copy, n).catch(() => {});
      return new Blob([plain], { type });
    },
    async text(n) {
      const { plain } = await open("text", n);
      return JSON.parse(new TextDecoder().decode(plain)) as PageText;
    },
  };
}

import type { OfflineLoan } from "#shared/rules/offline-loan-schema.ts";
import { ReaderApiError } from "../reader/reader-api.ts";
import { keepPageForOffline } from "./app-shell.ts";
import { eraseOfflineCopies, notifyCopiesChanged } from "./offline-books.ts";
import { importLoanKey, seal } from "./offline-crypto.ts";
import { type OfflineCopy, offlineDb, pagesOf, recordLabel } from "./offline-db.ts";
import * as loanApi from "./offline-loan-api.ts";

/** Pages downloaded at once: a few, so a slow connection is kept busy without a queue of stalled requests. */
export const KEEP_CONCURRENCY = 3;

export type KeepOutcome =
  | { status: "kept"; copy: OfflineCopy }
  /** Stopped short (the reading budget, the connection): the pages saved stay, the copy says it is partial. */
  | { status: "partial"; copy: OfflineCopy; message: string }
  /** Refused before or while downloading with nothing kept (the server's sentence). */
  | { status: "refused"; message: string }
  | { status: "cancelled" };

export type KeepBookInput = {
  bookId: number;
  title: string;
  readerUrl: string;
  /** The image width this device's reader asks for (`offlineImageWidth`). */
  width: number;
  signal: AbortSignal;
  onProgress: (saved: number, pageCount: number) => void;
};

type Api = Pick<typeof loanApi, "requestLoan" | "returnLoan" | "downloadImage" | "downloadText">;
type Deps = { api?: Api; keepShell?: (url: string) => Promise<void>; concurrency?: number };

/**
 * Refusals that end the copy at once: signed out (401), the loan refused or the licence ended (403),
 * the page or book gone (404). Anything else midway (429 the reading budget, 409 no seat, 503, a
 * dropped connection) keeps what was saved as a partial copy, continued later under the same loan.
 */
const ends = (error: ReaderApiError) => error.status === 401 || error.status === 403 || error.status === 404;

/**
 * Keeps a book on this device (issue 45, docs/decisions/0052): borrows it (POST .../offline),
 * stores the loan and its non-extractable key, then downloads every page's stamped image at one
 * width and its text under the loan, a few at a time, each sealed with AES-GCM before it is stored.
 * A copy already partly saved under the same loan is continued where it stopped. Cancelling returns
 * the loan (the seat is freed) and erases what was saved. Finally the reader's page is kept by the
 * app shell so it opens offline.
 */
export async function keepBook(input: KeepBookInput, deps: Deps = {}): Promise<KeepOutcome> {
  const api = deps.api ?? loanApi;
  const { bookId, signal } = input;
  let loan: OfflineLoan;
  try {
    loan = await api.requestLoan(bookId, signal);
  } catch (error) {
    if (signal.aborted) return { status: "cancelled" };
    return { status: "refused", message: messageOf(error) };
  }
  const copy = await startCopy(input, loan);
  const missing = await missingPages(copy);
  input.onProgress(copy.saved, copy.pageCount);

  // The first failure stops the other downloads too; cancelling stops them all.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener("abort", onAbort);
  let failure: unknown = null;
  const worker = async () => {
    for (let n = missing.shift(); n !== undefined && !stop.signal.aborted; n = missing.shift()) {
      try {
        await savePage(api, copy, n, stop.signal);
        input.onProgress(copy.saved, copy.pageCount);
      } catch (error) {
        if (!stop.signal.aborted) failure = error;
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: deps.concurrency ?? KEEP_CONCURRENCY }, worker));
  signal.removeEventListener("abort", onAbort);

  if (signal.aborted) {
    await eraseOfflineCopies([bookId]);
    await api.returnLoan(bookId).catch(() => {});
    return { status: "cancelled" };
  }
  if (failure) {
    const message = messageOf(failure);
    // Nothing kept, or a copy the server has ended: erased, and its seat given back.
    if (copy.saved === 0 || (failure instanceof ReaderApiError && ends(failure))) {
      await eraseOfflineCopies([bookId]);
      if (!(failure instanceof ReaderApiError && failure.status === 401)) await api.returnLoan(bookId).catch(() => {});
      return { status: "refused", message };
    }
    const partial = await finishCopy(copy, message);
    await (deps.keepShell ?? keepPageForOffline)(input.readerUrl).catch(() => {});
    return { status: "partial", copy: partial, message };
  }
  await (deps.keepShell ?? keepPageForOffline)(input.readerUrl).catch(() => {});
  return { status: "kept", copy: await finishCopy(copy, null) };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : "The book could not be kept for offline reading.");

/** The copy's record, new or continued: a copy of an older loan of the book is erased first. */
async function startCopy(input: KeepBookInput, loan: OfflineLoan): Promise<OfflineCopy> {
  const db = await offlineDb();
  const before = await db.get("copies", input.bookId);
  if (before && before.loanId !== loan.id) await eraseOfflineCopies([input.bookId]);
  const same = before?.loanId === loan.id ? before : undefined;
  const copy: OfflineCopy = {
    bookId: input.bookId,
    loanId: loan.id,
    title: input.title,
    readerUrl: input.readerUrl,
    until: loan.until,
    pageCount: loan.pageCount,
    // Pages already saved are at the width they were saved at: the copy keeps one width.
    width: same?.width ?? input.width,
    key: await importLoanKey(loan.key),
    saved: same?.saved ?? 0,
    keptAt: same?.keptAt ?? Date.now(),
    stopped: null,
  };
  await db.put("copies", copy);
  notifyCopiesChanged();
  return copy;
}

/** The pages whose text is not stored (a page's image and text are stored together). */
async function missingPages(copy: OfflineCopy): Promise<number[]> {
  const keys = await (await offlineDb()).getAllKeys("pages", pagesOf(copy.bookId));
  const have = new Set(keys.filter(([, kind]) => kind === "text").map(([, , n]) => n));
  const missing: number[] = [];
  for (let n = 1; n <= copy.pageCount; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

/** Downloads, seals and stores one page; its image, text and the copy's count in one transaction. */
async function savePage(api: Api, copy: OfflineCopy, n: number, signal: AbortSignal): Promise<void> {
  const { bookId, loanId } = copy;
  const [image, text] = await Promise.all([
    api.downloadImage(bookId, loanId, n, copy.width, signal),
    api.downloadText(bookId, loanId, n, signal),
  ]);
  // Sealed before the transaction opens: IndexedDB commits a transaction left waiting on other work.
  const [sealedImage, sealedText] = await Promise.all([
    seal(copy.key, recordLabel(loanId, "image", n), new Uint8Array(await image.arrayBuffer())),
    seal(copy.key, recordLabel(loanId, "text", n), text),
  ]);
  if (signal.aborted) return;
  const db = await offlineDb();
  const tx = db.transaction(["copies", "pages"], "readwrite");
  const stored = await tx.objectStore("copies").get(bookId);
  // Erased meanwhile (a contact check, "Return now" in another tab): nothing more is stored.
  if (!stored || stored.loanId !== loanId) {
    tx.abort();
    await tx.done.catch(() => {});
    throw new ReaderApiError("This offline copy was returned.", 404);
  }
  copy.saved = stored.saved + 1;
  await Promise.all([
    tx.objectStore("pages").put({ bookId, kind: "image", n, type: image.type || "image/webp", ...sealedImage }),
    tx.objectStore("pages").put({ bookId, kind: "text", n, type: "application/json", ...sealedText }),
    tx.objectStore("copies").put({ ...stored, saved: copy.saved }),
    tx.done,
  ]);
}

async function finishCopy(copy: OfflineCopy, stopped: string | null): Promise<OfflineCopy> {
  const db = await offlineDb();
  const stored = (await db.get("copies", copy.bookId)) ?? copy;
  const done = { ...stored, stopped };
  await db.put("copies", done);
  notifyCopiesChanged();
  return done;
}

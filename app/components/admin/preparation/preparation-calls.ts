// The console's calls to the platform's page preparation (workers/api/admin-page-sets.ts), typed
// from the routes, and the query keys the panels poll under.
import { api, call, type Ok } from "../../../lib/api-client.ts";

const pageSets = api.api.books[":id"]["page-sets"];
const pageSet = pageSets[":setId"];
const preparation = api.api.books.preparation;

const readBookPages = (bookId: number) => pageSets.$get({ param: { id: String(bookId) } });
const readBoard = () => preparation.status.$get();
const readNotices = (after: number | null) => preparation.notices.$get({ query: after === null ? {} : { after: String(after) } });

/** A book's pages as the book page's panel shows them (ready, being prepared, the latest outcome). */
export type BookPages = Ok<Awaited<ReturnType<typeof readBookPages>>>;
/** Every book being prepared and the recent outcomes (the Preparation page). */
export type PreparationBoard = Ok<Awaited<ReturnType<typeof readBoard>>>;
export type PreparationNotice = PreparationBoard["notices"][number];
export type PreparingBook = PreparationBoard["preparing"][number];

export const bookPagesKey = (bookId: number) => ["book-pages", bookId] as const;
export const BOARD_KEY = ["preparation-board"] as const;
export const noticesKey = (after: number | null) => ["preparation-notices", after] as const;

export const fetchBookPages = (bookId: number) => call(() => readBookPages(bookId), "Failed to read the state of the pages");
export const fetchBoard = () => call(readBoard, "Failed to read the books being prepared");
export const fetchNotices = (after: number | null) => call(() => readNotices(after), "Failed to read the notices");

export const prepareAgain = (bookId: number) =>
  call(() => pageSets.$post({ param: { id: String(bookId) }, json: {} }), "Failed to start preparing the pages");

export const retryPage = (bookId: number, setId: string, n: number) =>
  call(() => pageSet.pages[":n"].retry.$post({ param: { id: String(bookId), setId, n: String(n) } }), `Failed to try page ${n} again`);

export async function cancelPreparation(bookId: number, setId: string): Promise<void> {
  const response = await pageSet.$delete({ param: { id: String(bookId), setId } }).catch(() => null);
  if (response?.ok) return;
  const body: unknown = await response?.json().catch(() => null);
  throw new Error(
    body && typeof body === "object" && "error" in body ? String(body.error) : "Failed to cancel: check your connection and try again.",
  );
}

/** The outcome of a book's preparation, as the console words it everywhere (without a closing full stop). */
export function outcomeText(notice: {
  outcome: "ready" | "refused";
  pageCount: number | null;
  failedPages: number;
  message: string | null;
}) {
  if (notice.outcome === "refused") return `Refused: ${(notice.message ?? "the PDF could not be prepared").replace(/\.$/, "")}`;
  const pages = notice.pageCount === 1 ? "1 page" : `${notice.pageCount ?? 0} pages`;
  if (!notice.failedPages) return `Ready: ${pages}`;
  return `Ready: ${pages}, ${notice.failedPages} could not be displayed`;
}

/** Pages dealt with (stored or failed) of the whole, for the progress bars. */
export function handled(done: number, failed: number): number {
  return done + failed;
}

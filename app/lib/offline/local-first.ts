import { IMAGE_WIDTHS } from "../reader/image-width.ts";
import { fetchPageImage, fetchPageText, type PageText } from "../reader/reader-api.ts";
import { type OfflineFetchers, offlinePageFetchers } from "./offline-books.ts";

type Fetchers = { image(n: number, width: number): Promise<Blob>; text(n: number): Promise<PageText> };

/** The server's page as the store would ask for it: a width below the prepared ones is the data saver's (docs/decisions/0048). */
const fromServer = (bookId: number): Fetchers => ({
  image: (n, width) => fetchPageImage(bookId, n, width, width < Math.min(...IMAGE_WIDTHS)),
  text: (n) => fetchPageText(bookId, n),
});

const online = () => typeof navigator === "undefined" || navigator.onLine !== false;

/**
 * The teacher reader's fetchers (app/components/reader/use-page-store.ts): a book kept on this
 * device is read from its copy, online too (no request, no reading budget spent; the reads are
 * reported at the next contact); a page the copy cannot give (not saved, the loan just ended) comes
 * from the server. Zoomed past the saved width while online, the sharper page comes from the server,
 * and the saved one stands in if that fails.
 */
export function localFirstFetchers(bookId: number, network: Fetchers = fromServer(bookId)): Fetchers {
  let local: Promise<OfflineFetchers | null> | null = null;
  // Asked once per store, on its first page; a device without IndexedDB reads from the server.
  const copy = () => {
    local ??= offlinePageFetchers(bookId).catch(() => null);
    return local;
  };
  return {
    async image(n, width) {
      const saved = await copy();
      if (!saved) return network.image(n, width);
      if (width > saved.width && online()) {
        try {
          return await network.image(n, width);
        } catch {
          // The saved width, rather than a refusal, while the copy is there.
        }
      }
      return saved.image(n, width).catch(() => network.image(n, width));
    },
    async text(n) {
      const saved = await copy();
      if (!saved) return network.text(n);
      return saved.text(n).catch(() => network.text(n));
    },
  };
}

import { IMAGE_WIDTHS } from "./image-width.ts";
import { createObjectUrlCache, type ObjectUrlCache } from "./object-url-cache.ts";
import { fetchPageImage, fetchPageText, type PageText, ReaderApiError } from "./reader-api.ts";

/** How many page images stay in memory: scrolling back over them costs no request. */
export const CACHED_IMAGES = 12;
/** The data saver prefetches at most this many pages ahead of the one being read (docs/decisions/0048). */
export const PREFETCH_AHEAD = 2;

/** Page images received in this visit, and their bytes: the data saver's and the sharp ones (the reading settings show the saving). */
export type ReceivedSizes = Record<"saver" | "sharp", { pages: number; bytes: number }>;

export interface PageStore {
  /** Resolves once page `n` at `width` is cached; then `acquire` it. Concurrent asks share one request. */
  loadImage(n: number, width: number): Promise<void>;
  acquireImage(n: number, width: number): string | undefined;
  releaseImage(n: number, width: number): void;
  hasImage(n: number, width: number): boolean;
  loadText(n: number): Promise<PageText>;
  /**
   * Loads these pages' images and texts one after another (the data saver's prefetch): each spends
   * the reading budget as reading does. Ends at the first failure (the server's 429 stops the store),
   * or when `cancelled` says so between requests.
   */
  prefetch(pages: readonly { n: number; width: number }[], cancelled: () => boolean): Promise<void>;
  /**
   * The page being read, on a slow line (the data saver): every other page's image, and every
   * page's text, waits until this one's image is in, so the page turned to does not share the line.
   * null: no page first.
   */
  focus(page: { n: number; width: number } | null): void;
  received(): ReceivedSizes;
  /** Revokes every object URL; the store is not used afterwards. */
  dispose(): void;
}

type Fetchers = {
  image: (n: number, width: number) => Promise<Blob>;
  text: (n: number) => Promise<PageText>;
  createUrl: (blob: Blob) => string;
  revokeUrl: (url: string) => void;
};

/** A width below the narrowest prepared one is the data saver's page (the store never asks for the plain preview). */
const isSaverWidth = (width: number) => width < Math.min(...IMAGE_WIDTHS);

/**
 * Everything the reader has fetched of one book. Page texts are small and counted against the
 * reading limit like images, so each is fetched once per visit. Once the server says the limit is
 * reached (429), every seat is taken (409 no-seat) or the teacher is signed out (401), every later
 * ask fails at once with the same error, without a request, and `onStop` hears of it once.
 */
export function createPageStore(bookId: number, onStop: (error: ReaderApiError) => void, fetchers?: Partial<Fetchers>): PageStore {
  const f: Fetchers = {
    image: (n, width) => fetchPageImage(bookId, n, width, isSaverWidth(width)),
    text: (n) => fetchPageText(bookId, n),
    createUrl: (blob) => URL.createObjectURL(blob),
    revokeUrl: (url) => URL.revokeObjectURL(url),
    ...fetchers,
  };
  const images: ObjectUrlCache = createObjectUrlCache(CACHED_IMAGES, f.revokeUrl);
  const loading = new Map<string, Promise<void>>();
  const texts = new Map<number, Promise<PageText>>();
  const sizes: ReceivedSizes = { saver: { pages: 0, bytes: 0 }, sharp: { pages: 0, bytes: 0 } };
  let stopped: ReaderApiError | null = null;
  let disposed = false;
  let focused: { n: number; loaded: Promise<void> } | null = null;
  const key = (n: number, width: number) => `${n}@${width}`;

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (stopped) throw stopped;
    try {
      return await work();
    } catch (error) {
      if (error instanceof ReaderApiError && (error.limited || error.signedOut || error.noSeat) && !stopped) {
        stopped = error;
        onStop(error);
      }
      throw error;
    }
  }

  const store: PageStore = {
    loadImage(n, width) {
      const k = key(n, width);
      if (images.has(k)) return Promise.resolve();
      const pending =
        loading.get(k) ??
        guarded(async () => {
          // A microtask first: the reader's effects of this render (which may set the focus) all run before it.
          await Promise.resolve();
          const first = focused;
          if (first && first.n !== n) await first.loaded;
          return f.image(n, width);
        })
          .then((blob) => {
            const kind = sizes[isSaverWidth(width) ? "saver" : "sharp"];
            kind.pages++;
            kind.bytes += blob.size;
            if (!disposed) images.put(k, f.createUrl(blob));
          })
          .finally(() => loading.delete(k));
      loading.set(k, pending);
      return pending;
    },
    acquireImage: (n, width) => images.acquire(key(n, width)),
    releaseImage: (n, width) => images.release(key(n, width)),
    hasImage: (n, width) => images.has(key(n, width)),
    loadText(n) {
      const cached = texts.get(n);
      if (cached) return cached;
      const pending = guarded(async () => {
        // The text layer is not what the teacher looks at first: on a slow line it waits for the page being read.
        await Promise.resolve();
        await focused?.loaded;
        return f.text(n);
      });
      texts.set(n, pending);
      // A failed text is asked again next time (unless the limit is what failed).
      pending.catch(() => texts.delete(n));
      return pending;
    },
    async prefetch(pages, cancelled) {
      for (const { n, width } of pages.slice(0, PREFETCH_AHEAD)) {
        try {
          if (cancelled() || stopped || disposed) return;
          await store.loadImage(n, width);
          if (cancelled() || stopped || disposed) return;
          await store.loadText(n);
        } catch {
          return; // the page asked for on screen says what went wrong
        }
      }
    },
    focus(page) {
      focused = null;
      if (page) focused = { n: page.n, loaded: store.loadImage(page.n, page.width).catch(() => {}) };
    },
    received: () => ({ saver: { ...sizes.saver }, sharp: { ...sizes.sharp } }),
    dispose() {
      disposed = true;
      images.clear();
    },
  };
  return store;
}

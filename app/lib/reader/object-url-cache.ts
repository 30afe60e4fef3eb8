/**
 * The page images the reader holds, as object URLs, least recently used first out. Page images
 * are `no-store`, so this is what keeps scrolling back from asking the server (and the reading
 * limit) again. An image on screen is held (`acquire`) and never evicted while held: its URL
 * would break under it; the cache may then grow past its limit until pages are released.
 */
export interface ObjectUrlCache {
  has(key: string): boolean;
  put(key: string, url: string): void;
  /** The URL, marked as in use and most recently used; undefined when not cached. */
  acquire(key: string): string | undefined;
  release(key: string): void;
  readonly size: number;
  /** Revokes every URL (the reader closes). */
  clear(): void;
}

export function createObjectUrlCache(limit: number, revoke: (url: string) => void = (url) => URL.revokeObjectURL(url)): ObjectUrlCache {
  // A Map keeps insertion order: re-inserting on use makes its first entry the least recently used.
  const entries = new Map<string, { url: string; holds: number }>();

  // The newest entry is about to be shown: it is kept even when everything else is held.
  const evict = (keep?: string) => {
    for (const [key, entry] of entries) {
      if (entries.size <= limit) return;
      if (entry.holds > 0 || key === keep) continue;
      entries.delete(key);
      revoke(entry.url);
    }
  };

  return {
    has: (key) => entries.has(key),
    put(key, url) {
      const previous = entries.get(key);
      if (previous?.url === url) return;
      if (previous) revoke(previous.url);
      entries.delete(key);
      entries.set(key, { url, holds: previous?.holds ?? 0 });
      evict(key);
    },
    acquire(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, { url: entry.url, holds: entry.holds + 1 });
      return entry.url;
    },
    release(key) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.holds = Math.max(0, entry.holds - 1);
      evict();
    },
    get size() {
      return entries.size;
    },
    clear() {
      for (const entry of entries.values()) revoke(entry.url);
      entries.clear();
    },
  };
}

import { describe, expect, it, vi } from "vitest";
import { CACHED_IMAGES, createPageStore } from "../../app/lib/reader/page-store.ts";
import { ReaderApiError } from "../../app/lib/reader/reader-api.ts";

function fakes() {
  let urls = 0;
  return {
    image: vi.fn(async (_n: number, _w: number) => new Blob(["img"])),
    text: vi.fn(async (n: number) => ({ n, width: 612, height: 792, runs: [] })),
    createUrl: vi.fn(() => `blob:${++urls}`),
    revokeUrl: vi.fn(),
  };
}

describe("createPageStore", () => {
  it("fetches a page image once, shares concurrent asks, and keeps it for scrolling back", async () => {
    const f = fakes();
    const store = createPageStore(1, vi.fn(), f);
    await Promise.all([store.loadImage(3, 1024), store.loadImage(3, 1024)]);
    await store.loadImage(3, 1024);
    expect(f.image).toHaveBeenCalledTimes(1);
    expect(store.acquireImage(3, 1024)).toBe("blob:1");
    await store.loadImage(3, 2048);
    expect(f.image).toHaveBeenCalledTimes(2);
  });

  it("holds only a few images, revoking the ones it drops and all of them at the end", async () => {
    const f = fakes();
    const store = createPageStore(1, vi.fn(), f);
    for (let n = 1; n <= CACHED_IMAGES + 3; n++) await store.loadImage(n, 1024);
    expect(f.revokeUrl).toHaveBeenCalledTimes(3);
    expect(store.hasImage(1, 1024)).toBe(false);
    expect(store.hasImage(CACHED_IMAGES + 3, 1024)).toBe(true);
    store.dispose();
    expect(f.revokeUrl).toHaveBeenCalledTimes(CACHED_IMAGES + 3);
  });

  it("stops asking once the reading limit is reached, and says so once", async () => {
    const f = fakes();
    f.image.mockRejectedValueOnce(new ReaderApiError("You have reached the reading limit for this book.", 429));
    const onLimit = vi.fn();
    const store = createPageStore(1, onLimit, f);
    await expect(store.loadImage(1, 1024)).rejects.toThrow("reading limit");
    await expect(store.loadImage(2, 1024)).rejects.toThrow("reading limit");
    await expect(store.loadText(2)).rejects.toThrow("reading limit");
    expect(f.image).toHaveBeenCalledTimes(1);
    expect(f.text).not.toHaveBeenCalled();
    expect(onLimit).toHaveBeenCalledTimes(1);
  });

  it("fetches a page's text once, and again after a failure that was not the limit", async () => {
    const f = fakes();
    f.text.mockRejectedValueOnce(new ReaderApiError("Failed", 500));
    const store = createPageStore(1, vi.fn(), f);
    await expect(store.loadText(4)).rejects.toThrow("Failed");
    expect((await store.loadText(4)).n).toBe(4);
    await store.loadText(4);
    expect(f.text).toHaveBeenCalledTimes(2);
  });
});

import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OfflineLoan } from "#shared/rules/offline-loan-schema.ts";
import { keepBook } from "../../app/lib/offline/keep-book.ts";
import { localFirstFetchers } from "../../app/lib/offline/local-first.ts";
import { eraseOfflineCopies, offlinePageFetchers } from "../../app/lib/offline/offline-books.ts";
import { checkOfflineContact } from "../../app/lib/offline/offline-contact.ts";
import { importLoanKey, seal, unseal } from "../../app/lib/offline/offline-crypto.ts";
import { closeOfflineDb, offlineDb } from "../../app/lib/offline/offline-db.ts";
import { ReaderApiError } from "../../app/lib/reader/reader-api.ts";

const base64Key = (fill: number) => btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)));
const loanOf = (bookId: number, over: Partial<OfflineLoan> = {}): OfflineLoan => ({
  id: `loan-${bookId}`,
  bookId,
  until: Date.now() + 14 * 86_400_000,
  key: base64Key(7),
  pageCount: 4,
  ...over,
});
const imageBytes = (n: number) => new Uint8Array([0x52, 0x49, 0x46, 0x46, n, n, n, n]);
const pageText = (n: number) => ({ n, width: 612, height: 792, runs: [{ str: `Words of page ${n}`, x: 1, y: 2, w: 3, h: 4 }] });

/** The loans API as the server answers it, for book `bookId`; `refuseAt` makes that page's image fail. */
function fakeApi(loan: OfflineLoan, refuseAt?: { n: number; error: ReaderApiError }) {
  return {
    requestLoan: vi.fn(async () => loan),
    returnLoan: vi.fn(async () => {}),
    downloadImage: vi.fn(async (_bookId: number, _loanId: string, n: number, _width: number) => {
      if (refuseAt && n >= refuseAt.n) throw refuseAt.error;
      return new Blob([imageBytes(n)], { type: "image/webp" });
    }),
    downloadText: vi.fn(
      async (_bookId: number, _loanId: string, n: number) => new TextEncoder().encode(JSON.stringify(pageText(n))).buffer,
    ),
  };
}

async function keep(bookId: number, api: ReturnType<typeof fakeApi>, signal = new AbortController().signal) {
  const progress: number[] = [];
  const outcome = await keepBook(
    {
      bookId,
      title: `Book ${bookId}`,
      readerUrl: `/dashboard/book/${bookId}/view`,
      width: 1024,
      signal,
      onProgress: (saved) => progress.push(saved),
    },
    { api, keepShell: async () => {}, concurrency: 1 },
  );
  return { outcome, progress };
}

/** The fetchers note a read without holding up the page: wait for it to be stored. */
const readsStored = (count: number) => vi.waitFor(async () => expect(await (await offlineDb()).getAll("reads")).toHaveLength(count));

const stored = async (bookId: number) => {
  const db = await offlineDb();
  return { copy: await db.get("copies", bookId), pages: await db.getAll("pages", IDBKeyRange.bound([bookId], [bookId, []])) };
};

afterEach(async () => {
  await closeOfflineDb();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase("lectern-offline");
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
  });
});

describe("the offline store", () => {
  it("keeps every page encrypted under a non-extractable key and reads them back", async () => {
    const api = fakeApi(loanOf(5));
    const { outcome, progress } = await keep(5, api);
    expect(outcome.status).toBe("kept");
    expect(progress).toEqual([0, 1, 2, 3, 4]);
    expect(api.downloadImage).toHaveBeenCalledWith(5, "loan-5", 2, 1024, expect.anything());
    const { copy, pages } = await stored(5);
    expect(copy).toMatchObject({ loanId: "loan-5", saved: 4, pageCount: 4, width: 1024, stopped: null });
    expect(copy!.key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("raw", copy!.key)).rejects.toThrow();
    expect(pages).toHaveLength(8);
    // Nothing in the store is the page as it came, and no two records share an IV.
    const text = new TextDecoder();
    for (const page of pages) expect(text.decode(page.data)).not.toContain("Words of page");
    expect(new Set(pages.map((page) => Array.from(new Uint8Array(page.iv)).join(","))).size).toBe(8);
    expect(pages.every((page) => page.iv.byteLength === 12)).toBe(true);

    const fetchers = await offlinePageFetchers(5);
    expect(new Uint8Array(await (await fetchers!.image(3, 2048)).arrayBuffer())).toEqual(imageBytes(3));
    expect(await fetchers!.text(3)).toEqual(pageText(3));
    // The image read from the copy is recorded, once per page and day, for the next contact.
    await fetchers!.image(3, 1024);
    await readsStored(1);
    const reads = await (await offlineDb()).getAll("reads");
    expect(reads.map(({ loanId, bookId, n }) => ({ loanId, bookId, n }))).toEqual([{ loanId: "loan-5", bookId: 5, n: 3 }]);
  });

  it("cannot open a record with another key, or a record moved to another page", async () => {
    const right = await importLoanKey(base64Key(1));
    const wrong = await importLoanKey(base64Key(2));
    const sealed = await seal(right, "loan/image/1", new TextEncoder().encode("page one"));
    expect(new TextDecoder().decode(await unseal(right, "loan/image/1", sealed))).toBe("page one");
    await expect(unseal(wrong, "loan/image/1", sealed)).rejects.toThrow();
    await expect(unseal(right, "loan/image/2", sealed)).rejects.toThrow();

    await keep(6, fakeApi(loanOf(6)));
    const db = await offlineDb();
    await db.put("copies", { ...(await db.get("copies", 6))!, key: wrong });
    const fetchers = await offlinePageFetchers(6);
    await expect(fetchers!.image(1, 1024)).rejects.toThrow();
    await expect(fetchers!.text(1)).rejects.toThrow();
  });

  it("erases a copy whose loan has ended on the device's clock instead of opening it", async () => {
    await keep(7, fakeApi(loanOf(7)));
    const db = await offlineDb();
    await db.put("copies", { ...(await db.get("copies", 7))!, until: Date.now() - 1 });
    expect(await offlinePageFetchers(7)).toBeNull();
    expect(await stored(7)).toEqual({ copy: undefined, pages: [] });
  });

  it("keeps what was saved when the reading budget runs out midway, says so, and continues later", async () => {
    const limit = new ReaderApiError("You have reached the reading limit for this book.", 429);
    const { outcome } = await keep(8, fakeApi(loanOf(8), { n: 3, error: limit }));
    expect(outcome).toMatchObject({ status: "partial", message: limit.message, copy: { saved: 2, pageCount: 4, stopped: limit.message } });
    const fetchers = await offlinePageFetchers(8);
    await expect(fetchers!.image(3, 1024)).rejects.toMatchObject({ status: 404 });

    const again = fakeApi(loanOf(8));
    const { outcome: resumed } = await keep(8, again);
    expect(resumed).toMatchObject({ status: "kept", copy: { saved: 4, stopped: null } });
    expect(again.downloadImage.mock.calls.map(([, , n]) => n)).toEqual([3, 4]);
  });

  it("returns the loan and erases the copy when nothing could be saved, or when cancelled", async () => {
    const refused = fakeApi(loanOf(9), { n: 1, error: new ReaderApiError("You have reached the reading limit for this book.", 429) });
    expect((await keep(9, refused)).outcome).toEqual({ status: "refused", message: "You have reached the reading limit for this book." });
    expect(refused.returnLoan).toHaveBeenCalledWith(9);
    expect((await stored(9)).copy).toBeUndefined();

    const cancel = new AbortController();
    const api = fakeApi(loanOf(10));
    api.downloadText.mockImplementation(async (_b, _l, n) => {
      if (n === 2) cancel.abort();
      return new TextEncoder().encode("{}").buffer;
    });
    expect((await keep(10, api, cancel.signal)).outcome).toEqual({ status: "cancelled" });
    expect(api.returnLoan).toHaveBeenCalledWith(10);
    expect(await stored(10)).toEqual({ copy: undefined, pages: [] });
  });

  it("says the server's sentence when the loan is refused, and stores nothing", async () => {
    const api = fakeApi(loanOf(11));
    api.requestLoan.mockRejectedValue(
      new ReaderApiError("Your school's licence for this book does not allow keeping it for offline reading.", 403),
    );
    expect((await keep(11, api)).outcome).toEqual({
      status: "refused",
      message: "Your school's licence for this book does not allow keeping it for offline reading.",
    });
    expect(api.downloadImage).not.toHaveBeenCalled();
    expect((await stored(11)).copy).toBeUndefined();
  });
});

describe("the reader's fetchers", () => {
  it("read a kept book from its copy, and what the copy lacks (or a sharper zoom online) from the server", async () => {
    await keep(17, fakeApi(loanOf(17), { n: 3, error: new ReaderApiError("You have reached the reading limit for this book.", 429) }));
    const network = { image: vi.fn(async () => new Blob(["from the server"])), text: vi.fn(async (n: number) => pageText(n)) };
    const fetchers = localFirstFetchers(17, network);
    expect(new Uint8Array(await (await fetchers.image(1, 1024)).arrayBuffer())).toEqual(imageBytes(1));
    expect(await fetchers.text(2)).toEqual(pageText(2));
    expect(network.image).not.toHaveBeenCalled();
    expect(network.text).not.toHaveBeenCalled();
    // Page 3 was never saved: the server's.
    expect(await (await fetchers.image(3, 1024)).text()).toBe("from the server");
    // Zoomed past the saved width while online: the server's sharp page; if it fails, the saved one.
    expect(await (await fetchers.image(2, 2048)).text()).toBe("from the server");
    network.image.mockRejectedValueOnce(new ReaderApiError("Network error", 0));
    expect(new Uint8Array(await (await fetchers.image(2, 2048)).arrayBuffer())).toEqual(imageBytes(2));
    // A book not kept: the server's, always.
    expect(await (await localFirstFetchers(18, network).image(1, 1024)).text()).toBe("from the server");
  });
});

describe("the contact check", () => {
  it("reports the pages read offline, then erases every copy whose loan the server no longer lists", async () => {
    await keep(12, fakeApi(loanOf(12)));
    await keep(13, fakeApi(loanOf(13)));
    await (await offlinePageFetchers(12))!.image(2, 1024);
    await readsStored(1);
    const report = vi.fn(async () => {});
    const until = Date.now() + 86_400_000;
    await checkOfflineContact({ fetchLoans: async () => [loanOf(13, { until })], report, forgetShell: vi.fn() });
    expect(report).toHaveBeenCalledWith(12, "loan-12", [{ n: 2, at: expect.any(Number) }]);
    expect(await (await offlineDb()).getAll("reads")).toEqual([]);
    expect(await stored(12)).toEqual({ copy: undefined, pages: [] });
    expect((await stored(13)).copy).toMatchObject({ loanId: "loan-13", until });
    expect(await offlinePageFetchers(13)).not.toBeNull();
  });

  it("erases a copy kept under another loan of the same book", async () => {
    await keep(14, fakeApi(loanOf(14)));
    await checkOfflineContact({ fetchLoans: async () => [loanOf(14, { id: "a-later-loan" })], report: vi.fn(), forgetShell: vi.fn() });
    expect((await stored(14)).copy).toBeUndefined();
  });

  it("erases every copy and the app shell when the session is gone (401)", async () => {
    await keep(15, fakeApi(loanOf(15)));
    const forgetShell = vi.fn(async () => {});
    expect(await checkOfflineContact({ fetchLoans: async () => "signed-out", report: vi.fn(), forgetShell })).toBe("signed-out");
    expect(await stored(15)).toEqual({ copy: undefined, pages: [] });
    expect(forgetShell).toHaveBeenCalled();
  });

  it("keeps the copies and the reads when the server cannot be reached, and asks nothing with no copy", async () => {
    await keep(16, fakeApi(loanOf(16)));
    await (await offlinePageFetchers(16))!.image(1, 1024);
    await readsStored(1);
    const report = vi.fn(async () => {});
    await checkOfflineContact({
      fetchLoans: async () => Promise.reject(new ReaderApiError("Network error", 0)),
      report,
      forgetShell: vi.fn(),
    });
    expect((await stored(16)).copy).toBeDefined();
    expect(await (await offlineDb()).getAll("reads")).toHaveLength(1);
    expect(report).not.toHaveBeenCalled();

    await eraseOfflineCopies();
    const fetchLoans = vi.fn(async () => [] as OfflineLoan[]);
    expect(await checkOfflineContact({ fetchLoans, report, forgetShell: vi.fn() })).toBe("nothing");
    expect(fetchLoans).not.toHaveBeenCalled();
  });
});

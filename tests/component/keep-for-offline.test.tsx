import "fake-indexeddb/auto";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KeepForOffline } from "../../app/components/offline/keep-for-offline.tsx";
import type { KeepBookInput, KeepOutcome } from "../../app/lib/offline/keep-book.ts";
import { closeOfflineDb, type OfflineCopy } from "../../app/lib/offline/offline-db.ts";

const book = { bookId: 3, title: "Rivers of the World", readerUrl: "/schools/lincoln-high/dashboard/book/3/view" };

/** A download the test drives: it reports progress when told and ends as the test says. */
function drivenKeep() {
  let input: KeepBookInput | null = null;
  let finish: (outcome: KeepOutcome) => void = () => {};
  const keep = vi.fn(
    (given: KeepBookInput) =>
      new Promise<KeepOutcome>((resolve) => {
        input = given;
        finish = resolve;
      }),
  );
  return {
    keep,
    progress: (saved: number, pageCount: number) => act(() => input!.onProgress(saved, pageCount)),
    input: () => input!,
    finish: (outcome: KeepOutcome) => act(async () => finish(outcome)),
  };
}

/** The book's card with a download the test drives, "Keep for offline" pressed. */
async function startKeeping() {
  const driven = drivenKeep();
  render(<KeepForOffline book={book} keep={driven.keep} />);
  await userEvent.click(await screen.findByRole("button", { name: "Keep for offline" }));
  return driven;
}

const copyOf = (over: Partial<OfflineCopy> = {}): OfflineCopy => ({
  bookId: 3,
  loanId: "loan-3",
  title: book.title,
  readerUrl: book.readerUrl,
  until: Date.UTC(2026, 11, 13, 16, 5),
  pageCount: 80,
  width: 1024,
  key: {} as CryptoKey,
  saved: 80,
  keptAt: 0,
  stopped: null,
  ...over,
});

afterEach(async () => {
  await closeOfflineDb();
  indexedDB.deleteDatabase("lectern-offline");
});

describe("Keep for offline", () => {
  it("shows the download's progress with an accessible bar, and Cancel stops it", async () => {
    const driven = await startKeeping();
    expect(driven.keep).toHaveBeenCalledWith(expect.objectContaining({ bookId: 3, readerUrl: book.readerUrl, width: 1024 }));

    await driven.progress(12, 80);
    expect(screen.getByRole("status").textContent).toContain("Saving for offline: 12 of 80 pages");
    const bar = screen.getByRole("progressbar", { name: "Saving for offline" });
    expect(bar.getAttribute("aria-valuenow")).toBe("12");
    expect(bar.getAttribute("aria-valuemax")).toBe("80");
    expect(screen.queryByRole("button", { name: "Keep for offline" })).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(driven.input().signal.aborted).toBe(true);
    await driven.finish({ status: "cancelled" });
    expect(screen.getByRole("status").textContent).toContain("Cancelled: nothing of this book is kept on this device.");
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect((screen.getByRole("button", { name: "Keep for offline" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("says the server's sentence when the book cannot be kept", async () => {
    const driven = await startKeeping();
    await driven.finish({
      status: "refused",
      message: "Your school's licence for this book does not allow keeping it for offline reading.",
    });
    expect(screen.getByRole("alert").textContent).toContain(
      "Your school's licence for this book does not allow keeping it for offline reading.",
    );
  });

  it("says until when the book is kept, and that a copy stopped short is partial, with Continue saving", async () => {
    const driven = await startKeeping();
    await driven.finish({
      status: "partial",
      message: "You have reached the reading limit for this book.",
      copy: copyOf({ saved: 40, stopped: "You have reached the reading limit for this book." }),
    });
    expect(screen.getByText("40 of 80 pages kept on this device, until Dec 13, 2026", { exact: false })).toBeTruthy();
    expect(screen.getByText("Saving stopped: You have reached the reading limit for this book.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Return now" }) as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(screen.getByRole("button", { name: "Continue saving" }));
    await driven.finish({ status: "kept", copy: copyOf() });
    await waitFor(() => expect(screen.getByText(/Kept on this device for offline reading until Dec 13, 2026/)).toBeTruthy());
    expect(screen.queryByRole("button", { name: "Continue saving" })).toBeNull();
  });

  it("in the reader's toolbar, opens its panel by itself while saving", async () => {
    const driven = drivenKeep();
    render(<KeepForOffline book={book} variant="toolbar" keep={driven.keep} />);
    const toggle = screen.getByRole("button", { name: "Keep for offline" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await userEvent.click(toggle);
    const panel = screen.getByRole("dialog", { name: "Keep for offline" });
    await userEvent.click(await within(panel).findByRole("button", { name: "Keep for offline" }));
    await driven.progress(2, 10);
    expect(screen.getByRole("progressbar", { name: "Saving for offline" }).getAttribute("aria-valuenow")).toBe("2");
    await driven.finish({ status: "kept", copy: copyOf({ pageCount: 10, saved: 10 }) });
    expect(screen.getByRole("button", { name: "Kept for offline" })).toBeTruthy();
  });
});

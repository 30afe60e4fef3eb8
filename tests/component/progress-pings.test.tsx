import { fireEvent, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACTIVE_WINDOW_MS, PING_INTERVAL_MS, useProgressSaver } from "../../app/components/reader/use-progress-saver.ts";

const puts = () => vi.mocked(fetch).mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as { page: number });

describe("the reader's progress pings (reading time is timed on the server)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 204 })),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("pings every minute while the teacher is active, and stops once they have been idle five minutes", () => {
    const { result, unmount } = renderHook(() => useProgressSaver(7));
    result.current(1); // the page it opened at (already stored)
    result.current(3);
    vi.advanceTimersByTime(1500);
    expect(puts()).toEqual([{ page: 3 }]); // the settled page
    fireEvent.keyDown(window, { key: "ArrowDown" });
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(puts()).toEqual([{ page: 3 }, { page: 3 }]); // the same page again: a ping
    vi.advanceTimersByTime(ACTIVE_WINDOW_MS + PING_INTERVAL_MS);
    const idle = puts().length;
    vi.advanceTimersByTime(5 * PING_INTERVAL_MS);
    expect(puts()).toHaveLength(idle); // no input for over five minutes: no pings
    fireEvent.pointerMove(window);
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(puts()).toHaveLength(idle + 1);
    unmount();
  });

  it("does not ping while the tab is hidden", () => {
    const { result, unmount } = renderHook(() => useProgressSaver(7));
    result.current(1);
    result.current(2);
    vi.advanceTimersByTime(1500);
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    fireEvent.keyDown(window, { key: "ArrowDown" });
    vi.advanceTimersByTime(3 * PING_INTERVAL_MS);
    expect(puts()).toEqual([{ page: 2 }]);
    visibility.mockRestore();
    unmount();
  });
});

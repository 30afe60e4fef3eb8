import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AdminBookPages } from "../../app/components/admin/book-pages.tsx";
import type { PagesStatus } from "../../app/lib/pages/browser-pages.client.ts";

// The renderer itself (pdf.js on canvases) is covered in tests/node and end to end; here it renders
// nothing and only stops when told to.
vi.mock("../../app/lib/pages/browser-pages.client.ts", () => ({
  pagesStatus: async () => preparing,
  resumeSource: () => "/api/books/7/page-sets/abc/pdf",
  prepareBookPages: (_bookId: number, _source: string, onProgress: (progress: unknown) => void, signal: AbortSignal) => {
    onProgress({ done: 2, failed: [], total: 10 });
    return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError"))));
  },
}));

const preparing: PagesStatus = {
  ready: null,
  preparing: { id: "abc", status: "preparing", pageCount: 10, done: [1, 2], failed: [] },
  hasPdf: false,
};

describe("AdminBookPages", () => {
  it("says Stop as a notice, not an error, and offers to continue", async () => {
    render(<AdminBookPages bookId={7} status={preparing} onChanged={() => {}} />);
    expect(await screen.findByText("Preparing pages 2 of 10")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));

    const notice = await screen.findByText("Stopped. The pages prepared so far are kept; continue at any time.");
    expect(notice.getAttribute("role")).toBe("status");
    expect(notice.dataset.tone).toBe("info");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("button", { name: "Continue preparing pages" })).toBeTruthy();
  });
});

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PreparationBanner } from "../../app/components/admin/preparation/preparation-banner.tsx";
import { renderInApp } from "./render.tsx";

const NOTICES = [
  {
    id: 12,
    bookId: 7,
    title: "Tide Tables",
    outcome: "ready",
    pageCount: 352,
    failedPages: 2,
    message: null,
    at: 1,
    by: "Ada",
    mine: true,
  },
  {
    id: 11,
    bookId: null,
    title: "Locked Book",
    outcome: "refused",
    pageCount: null,
    failedPages: 0,
    message: "This PDF is password-protected.",
    at: 1,
    by: "Ada",
    mine: true,
  },
];
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
      asked.push(url.search);
      const after = Number(url.searchParams.get("after") ?? 0);
      return Response.json({ notices: NOTICES.filter((notice) => notice.id > after) });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("PreparationBanner: the uploader is told when their book is ready or refused", () => {
  it("shows each new outcome once, until dismissed in this browser", async () => {
    const first = renderInApp(<PreparationBanner adminId={3} />, { path: "/admin/books" });
    const banner = await screen.findByRole("region", { name: "Your books' pages" });
    expect(banner.textContent).toContain("Tide Tables: Ready: 352 pages, 2 could not be displayed.");
    expect(banner.textContent).toContain("Locked Book: Refused: This PDF is password-protected.");
    expect(screen.getByRole("link", { name: "Open the book" }).getAttribute("href")).toBe("/admin/book/7");
    expect(asked[0]).toBe("");

    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Your books' pages" })).toBeNull());
    expect(localStorage.getItem("lectern.preparation-seen.3")).toBe("12");
    first.unmount();

    // Another page of the console asks only for what came after.
    renderInApp(<PreparationBanner adminId={3} />, { path: "/admin/books" });
    await waitFor(() => expect(asked.at(-1)).toBe("?after=12"));
    expect(screen.queryByRole("region", { name: "Your books' pages" })).toBeNull();
  });
});

import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AdminBookPages } from "../../app/components/admin/book-pages.tsx";
import type { PagesStatus } from "../../app/lib/pages/browser-pages.client.ts";
import { renderInApp } from "./render.tsx";

const REFUSED =
  "None of the 2 pages of this PDF could be rendered, so it was not added. Every page of this PDF is blank: the file is probably damaged. The book was not added either.";

// The renderer found every page blank, and the server removed the book added with this PDF
// (browser-pages.client.ts throws its BookRemovedError).
vi.mock("../../app/lib/pages/browser-pages.client.ts", () => ({
  pagesStatus: async () => preparing,
  resumeSource: () => "/api/books/7/page-sets/abc/pdf",
  prepareBookPages: async () => {
    throw Object.assign(new Error(REFUSED), { name: "BookRemovedError" });
  },
}));

const preparing: PagesStatus = {
  ready: null,
  preparing: { id: "abc", status: "preparing", pageCount: 2, done: [], failed: [] },
  hasPdf: false,
};

describe("AdminBookPages when the PDF of a book just added is refused", () => {
  it("says the book was not added and leads back to the books, without reloading the gone book's page", async () => {
    const onChanged = vi.fn();
    renderInApp(<AdminBookPages bookId={7} status={preparing} onChanged={onChanged} />, { path: "/admin/book/7" });
    expect((await screen.findByRole("alert")).textContent).toBe(REFUSED);
    expect(screen.getByRole("link", { name: "Back to the books" }).getAttribute("href")).toBe("/admin/books");
    expect(screen.queryByRole("button", { name: "Continue preparing pages" })).toBeNull();
    expect(onChanged).not.toHaveBeenCalled();
  });
});

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdminBookPages, CLOSE_TAB_NOTICE } from "../../app/components/admin/book-pages.tsx";
import type { BookPages } from "../../app/components/admin/preparation/preparation-calls.ts";
import { renderInApp } from "./render.tsx";

// The panel polls GET /api/books/7/page-sets and posts its buttons through fetch: answered here.
type Answer = { status: number; body: unknown };
let answers: Record<string, (init: RequestInit) => Answer>;
const calls: { method: string; path: string }[] = [];

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
      const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      calls.push({ method, path: url.pathname });
      const answer = answers[`${method} ${url.pathname}`]?.(init) ?? { status: 500, body: { error: "unexpected call" } };
      return new Response(answer.status === 204 ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const SET = "0123456789abcdef01234567";
const preparing = (done: number[], failed: { n: number; error: string }[] = []): BookPages => ({
  ready: null,
  preparing: {
    id: SET,
    status: "preparing",
    pageCount: 352,
    done,
    failed,
    startedAt: Date.UTC(2026, 10, 28, 9),
    startedBy: "Ada Admin",
    newPdf: true,
  },
  hasPdf: false,
  latest: null,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("AdminBookPages: the platform's work on a book's pages", () => {
  it("shows the progress live, named for screen readers, and says the page may be closed", async () => {
    let done = range(1, 37);
    answers = { "GET /api/books/7/page-sets": () => ({ status: 200, body: preparing(done) }) };
    renderInApp(<AdminBookPages bookId={7} initial={preparing(done)} onChanged={() => {}} />, { path: "/admin/book/7" });
    expect(screen.getByText("Preparing pages: 37 of 352")).toBeTruthy();
    const bar = screen.getByRole("progressbar", { name: "Pages prepared" });
    expect(bar.getAttribute("aria-valuenow")).toBe("37");
    expect(bar.getAttribute("aria-valuemax")).toBe("352");
    expect(screen.getByText(CLOSE_TAB_NOTICE)).toBeTruthy();
    expect(screen.getByText(/by Ada Admin/)).toBeTruthy();
    done = range(1, 40);
    // Polled every 2 s while preparing.
    expect(await screen.findByText("Preparing pages: 40 of 352", undefined, { timeout: 4000 })).toBeTruthy();
  });

  it("offers Try again for each failed page while preparing, and posts it", async () => {
    const status = preparing(range(1, 10), [
      { n: 12, error: "Invalid JPX stream" },
      { n: 30, error: "The page stopped the renderer 3 times" },
    ]);
    answers = {
      "GET /api/books/7/page-sets": () => ({ status: 200, body: status }),
      [`POST /api/books/7/page-sets/${SET}/pages/12/retry`]: () => ({ status: 202, body: { n: 12 } }),
    };
    renderInApp(<AdminBookPages bookId={7} initial={status} onChanged={() => {}} />, { path: "/admin/book/7" });
    expect(screen.getByText("Preparing pages: 12 of 352")).toBeTruthy();
    expect(screen.getByText("Page 12: Invalid JPX stream")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Try page 12 again" }));
    await waitFor(() => expect(calls).toContainEqual({ method: "POST", path: `/api/books/7/page-sets/${SET}/pages/12/retry` }));
    expect(screen.getByRole("button", { name: "Try page 30 again" })).toBeTruthy();
  });

  it("shows a refused retry's reason", async () => {
    const status = preparing([1], [{ n: 2, error: "Invalid JPX stream" }]);
    answers = {
      "GET /api/books/7/page-sets": () => ({ status: 200, body: status }),
      [`POST /api/books/7/page-sets/${SET}/pages/2/retry`]: () => ({ status: 409, body: { error: "Page 2 did not fail" } }),
    };
    renderInApp(<AdminBookPages bookId={7} initial={status} onChanged={() => {}} />, { path: "/admin/book/7" });
    await userEvent.click(screen.getByRole("button", { name: "Try page 2 again" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Page 2 did not fail");
  });

  it("asks before cancelling, and cancels on confirmation", async () => {
    let current: BookPages = preparing([1, 2]);
    answers = {
      "GET /api/books/7/page-sets": () => ({ status: 200, body: current }),
      [`DELETE /api/books/7/page-sets/${SET}`]: () => {
        current = { ready: null, preparing: null, hasPdf: false, latest: null };
        return { status: 204, body: null };
      },
    };
    const onChanged = vi.fn();
    renderInApp(<AdminBookPages bookId={7} initial={current} onChanged={onChanged} />, { path: "/admin/book/7" });
    await userEvent.click(screen.getByRole("button", { name: "Cancel preparing these pages" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel preparing these pages?" });
    expect(dialog.textContent).toContain("The PDF uploaded for them and the pages prepared so far are discarded.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep preparing" }));
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);

    await userEvent.click(screen.getByRole("button", { name: "Cancel preparing these pages" }));
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancel preparation" }));
    expect(await screen.findByText("No PDF yet: add one to prepare its pages.")).toBeTruthy();
    expect(calls).toContainEqual({ method: "DELETE", path: `/api/books/7/page-sets/${SET}` });
    expect(onChanged).toHaveBeenCalled();
  });

  it("says Ready with the failed pages and offers Prepare again, which starts a new preparation", async () => {
    const ready: BookPages = {
      ready: {
        id: SET,
        status: "ready",
        pageCount: 352,
        done: range(1, 350),
        failed: [
          { n: 4, error: "Invalid JPX stream" },
          { n: 9, error: "Bad font" },
        ],
      },
      preparing: null,
      hasPdf: true,
      latest: null,
    };
    let current = ready;
    answers = {
      "GET /api/books/7/page-sets": () => ({ status: 200, body: current }),
      "POST /api/books/7/page-sets": () => {
        current = { ...ready, preparing: { ...preparing([]).preparing!, newPdf: false } };
        return { status: 202, body: { id: "fedcba9876543210fedcba98", status: "preparing", pageCount: null, done: [], failed: [] } };
      },
    };
    renderInApp(<AdminBookPages bookId={7} initial={ready} onChanged={() => {}} />, { path: "/admin/book/7" });
    expect(screen.getByRole("status").textContent).toBe("Ready: 352 pages, 2 could not be displayed.");
    expect(screen.queryByRole("button", { name: /Try page/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Cancel/ })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Prepare again" }));
    expect(await screen.findByText("Preparing pages: 0 of 352")).toBeTruthy();
    expect(screen.getByText(/Teachers read the current pages until these are ready\./)).toBeTruthy();
  });

  it("says why the last upload was refused", () => {
    const refused: BookPages = {
      ready: null,
      preparing: null,
      hasPdf: false,
      latest: {
        outcome: "refused",
        pageCount: null,
        failedPages: 0,
        message: "This PDF is password-protected: upload a copy without a password.",
        at: 1,
      },
    };
    answers = {};
    renderInApp(<AdminBookPages bookId={7} initial={refused} onChanged={() => {}} />, { path: "/admin/book/7" });
    expect(screen.getByRole("alert").textContent).toBe("Refused: This PDF is password-protected: upload a copy without a password.");
  });

  it("leads back to the books when a book added with a refused PDF is gone, without reloading its page", async () => {
    const REFUSED = "This book was not added: Every page of this PDF is blank: the file is probably damaged.";
    answers = { "GET /api/books/7/page-sets": () => ({ status: 404, body: { error: REFUSED, bookRemoved: true } }) };
    const onChanged = vi.fn();
    renderInApp(<AdminBookPages bookId={7} initial={preparing([])} onChanged={onChanged} />, { path: "/admin/book/7" });
    expect((await screen.findByRole("alert", undefined, { timeout: 4000 })).textContent).toBe(REFUSED);
    expect(screen.getByRole("link", { name: "Back to the books" }).getAttribute("href")).toBe("/admin/books");
    expect(onChanged).not.toHaveBeenCalled();
  });
});

import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PageReader } from "../../app/components/reader/page-reader.tsx";
import { SEAT_RETRY_MS } from "../../app/components/reader/page-reader-view.tsx";
import { TeacherReader } from "../../app/components/reader/teacher-reader.tsx";

afterEach(() => vi.unstubAllGlobals());

type Reply = { status?: number; body?: unknown; image?: boolean; headers?: Record<string, string> };
const page = (n: number, extra: object = {}) => ({ n, width: 612, height: 792, ...extra });
const list = (count: number, extra: object = {}) => ({
  pageCount: count,
  widths: [1024, 2048],
  pages: Array.from({ length: count }, (_, i) => page(i + 1)),
  hasOutline: false,
  ...extra,
});
const text = (n: number, words: string[]) => ({
  n,
  width: 612,
  height: 792,
  runs: words.map((str, i) => ({ str, x: 72, y: 72 + i * 40, w: str.length * 6, h: 12 })),
});

/** Answers the reader's API calls by path (with query) from `routes`, and records every call. */
function stubApi(routes: (path: string) => Reply | undefined) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      calls.push(path);
      const reply = routes(path);
      if (!reply) throw new Error(`unexpected call to ${path}`);
      if (reply.image) return new Response(new Blob(["img"], { type: "image/webp" }));
      return Response.json(reply.body, { status: reply.status ?? 200, headers: reply.headers });
    }),
  );
  return calls;
}

/** A three-page book with words on every page; `overrides` answers first. */
function stubBook(overrides: (path: string) => Reply | undefined = () => undefined, extra: object = {}) {
  return stubApi((path) => {
    const own = overrides(path);
    if (own) return own;
    if (path === "/api/books/7/pages") return { body: list(3, extra) };
    const textMatch = /^\/api\/books\/7\/pages\/(\d+)\/text$/.exec(path);
    if (textMatch) return { body: text(Number(textMatch[1]), [`Words of page ${textMatch[1]}`, "photosynthesis"]) };
    if (/^\/api\/books\/7\/pages\/\d+\?w=\d+$/.test(path)) return { image: true };
    return undefined;
  });
}

// Bare, with no router and no query client: that is how the reader's island runs
// (docs/decisions/0010), so a hook that needed either would throw here.
function renderReader(initialPage = 1, seatRetryMs?: number) {
  const onPageChange = vi.fn();
  render(
    <PageReader
      bookId={7}
      title="Biology"
      backHref="/schools/lincoln-high/dashboard"
      backLabel="Back to Dashboard"
      initialPage={initialPage}
      onPageChange={onPageChange}
      seatRetryMs={seatRetryMs}
    />,
  );
  return { onPageChange };
}

const pageInput = () => screen.getByLabelText("Go to page") as HTMLInputElement;

describe("the teacher's page reader", () => {
  it("loads the page list, then shows only the page being read as an image with its text layer", async () => {
    const calls = stubBook();
    renderReader();
    expect(screen.getByRole("status").textContent).toBe("Loading the book...");
    const first = await screen.findByRole("region", { name: "Page 1 of 3" });
    expect(document.querySelector("[data-reader]")?.getAttribute("data-page-count")).toBe("3");
    await waitFor(() => expect(first.querySelector("img")).toBeTruthy());
    await waitFor(() => expect(within(first).getByText("Words of page 1")).toBeTruthy());
    expect(screen.getByRole("region", { name: "Page 3 of 3" }).querySelector("img")).toBeNull();
    expect(calls).toContain("/api/books/7/pages/1?w=1024");
    expect(calls.some((path) => path.includes("/pdf"))).toBe(false);
    expect(calls.filter((path) => /pages\/[23]/.test(path))).toEqual([]);

    fireEvent.load(first.querySelector("img")!);
    expect(first.getAttribute("data-rendered")).toBe("true");
    expect(Number(document.querySelector("[data-reader]")?.getAttribute("data-first-paint-ms"))).toBeGreaterThan(0);
    expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/schools/lincoln-high/dashboard");
  });

  it("says the book is still being prepared on 409, and shows the error screen for other failures", async () => {
    stubApi(() => ({ status: 409, body: { error: "Still preparing", status: "preparing" } }));
    renderReader();
    await screen.findByText("This book is still being prepared. Please check back in a few minutes.");
    expect(screen.queryByText("Error Loading PDF")).toBeNull();
  });

  it("shows the server's message under 'Error Loading PDF' when the page list fails", async () => {
    stubApi(() => ({ status: 500, body: { error: "The pages could not be read" } }));
    renderReader();
    await screen.findByRole("heading", { name: "Error Loading PDF" });
    expect(screen.getByText("The pages could not be read")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to Dashboard" })).toBeTruthy();
  });

  it("marks a page that could not be rendered, without asking for its image", async () => {
    const calls = stubBook(() => undefined, { pages: [page(1, { failed: true }), page(2), page(3)] });
    renderReader();
    const first = await screen.findByRole("region", { name: "Page 1 of 3" });
    expect(within(first).getByText("This page could not be displayed.")).toBeTruthy();
    expect(calls.filter((path) => path.startsWith("/api/books/7/pages/1"))).toEqual([]);
  });

  it("shows a page of a book still being prepared as waiting, asks again, and shows it once it is stored", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let stored = false;
      const calls = stubBook(
        (path) => {
          if (path.startsWith("/api/books/7/pages/1?w=") && !stored)
            return {
              status: 409,
              body: { error: "This page is still being prepared. It will appear in a moment.", status: "page-preparing" },
            };
          return undefined;
        },
        { pages: [page(1, { preparing: true }), page(2, { preparing: true }), page(3, { preparing: true })] },
      );
      renderReader();
      const first = await screen.findByRole("region", { name: "Page 1 of 3" });
      await within(first).findByText("This page is still being prepared. It will appear in a moment.");
      expect(within(first).queryByText("This page could not be displayed.")).toBeNull();
      // Its text is not asked for while it waits.
      expect(calls.some((call) => call === "/api/books/7/pages/1/text")).toBe(false);
      const asked = calls.filter((call) => call.startsWith("/api/books/7/pages/1?w=")).length;
      stored = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_000);
      });
      await waitFor(() => expect(first.querySelector("img")).not.toBeNull());
      expect(calls.filter((call) => call.startsWith("/api/books/7/pages/1?w=")).length).toBe(asked + 1);
      expect(within(first).queryByText("This page is still being prepared. It will appear in a moment.")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the server's sentence on a page answered 503 (a part away), asks again, and shows the page once it answers", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const away = "This file cannot be fetched right now. Please try again in a moment.";
    try {
      let back = false;
      const calls = stubBook((path) =>
        path.startsWith("/api/books/7/pages/1?w=") && !back ? { status: 503, body: { error: away, part: "files" } } : undefined,
      );
      renderReader();
      const first = await screen.findByRole("region", { name: "Page 1 of 3" });
      await within(first).findByText(away);
      expect(within(first).queryByText("This page could not be displayed.")).toBeNull();
      const asked = calls.filter((call) => call.startsWith("/api/books/7/pages/1?w=")).length;
      back = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_000);
      });
      await waitFor(() => expect(first.querySelector("img")).not.toBeNull());
      expect(calls.filter((call) => call.startsWith("/api/books/7/pages/1?w=")).length).toBe(asked + 1);
      expect(within(first).queryByText(away)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits as long as a 503's Retry-After says before asking for the page again (10 s for an overloaded school)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const busy = "Your school's library is busy right now. Please try again in a few seconds.";
    try {
      let back = false;
      const calls = stubBook((path) =>
        path.startsWith("/api/books/7/pages/1?w=") && !back
          ? { status: 503, body: { error: busy, part: "school" }, headers: { "Retry-After": "10" } }
          : undefined,
      );
      renderReader();
      const first = await screen.findByRole("region", { name: "Page 1 of 3" });
      await within(first).findByText(busy);
      const asked = () => calls.filter((call) => call.startsWith("/api/books/7/pages/1?w=")).length;
      const before = asked();
      back = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(6_000);
      });
      expect(asked()).toBe(before);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(4_500);
      });
      await waitFor(() => expect(first.querySelector("img")).not.toBeNull());
      expect(asked()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("announces the reading limit once and stops asking for pages", async () => {
    const limit = { status: 429, body: { error: "You have read a lot of this book in the last hour. Try again in 20 minutes." } };
    const calls = stubBook((path) => (/pages\/\d+/.test(path) ? limit : undefined));
    renderReader();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Try again in 20 minutes");
    // The Text view asks for the teacher's reading settings, and for no page.
    const pageCalls = () => calls.filter((path) => /pages\/\d+/.test(path)).length;
    const asked = pageCalls();
    await userEvent.click(screen.getByRole("button", { name: "Text view" }));
    await screen.findByText(/Try again in 20 minutes/, { selector: "[data-text-view] *" });
    expect(pageCalls()).toBe(asked);
  });

  it("says every copy is in use, asks again by itself, and reads once a seat is free", async () => {
    const full = "All 2 copies of this book are in use at your school. Try again in a few minutes.";
    let seatFree = false;
    const calls = stubBook((path) =>
      /pages\/\d+/.test(path) && !seatFree ? { status: 409, body: { error: full, status: "no-seat" } } : undefined,
    );
    // The reader's own wait is SEAT_RETRY_MS (30 s); this one asks again after 200 ms.
    renderReader(1, 200);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(full);
    expect(alert.textContent).toContain("asks again by itself");
    const asked = calls.length;
    seatFree = true;
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull(), { timeout: 5000 });
    await waitFor(() => expect(calls.slice(asked).some((path) => /^\/api\/books\/7\/pages\/1(\?w=|\/text)/.test(path))).toBe(true));
    expect(SEAT_RETRY_MS).toBe(30_000);
  });

  it("asks again at once when the teacher presses Try now", async () => {
    const full = "All 1 copies of this book are in use at your school. Try again in a few minutes.";
    let seatFree = false;
    stubBook((path) => (/pages\/\d+/.test(path) && !seatFree ? { status: 409, body: { error: full, status: "no-seat" } } : undefined));
    renderReader(1, 60_000);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("asks again by itself every 60 seconds");
    seatFree = true;
    await userEvent.click(screen.getByRole("button", { name: "Try now" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    await screen.findByRole("region", { name: "Page 1 of 3" });
  });

  it("turns pages with the toolbar and the keys, and blocks saving with a notice", async () => {
    stubBook();
    const { onPageChange } = renderReader(2);
    await screen.findByRole("region", { name: "Page 2 of 3" });
    expect(pageInput().value).toBe("2");
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(pageInput().value).toBe("3");
    fireEvent.keyDown(window, { key: "Home" });
    expect(pageInput().value).toBe("1");
    fireEvent.keyDown(window, { key: "ArrowRight" });
    expect(pageInput().value).toBe("2");
    fireEvent.keyDown(window, { key: "End" });
    expect(pageInput().value).toBe("3");
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    expect(screen.getByRole("status").textContent).toBe("Saving and printing are turned off for this book.");
  });

  it("shows the page's text as paragraphs in the Text view, page by page", async () => {
    stubBook();
    renderReader();
    await screen.findByRole("region", { name: "Page 1 of 3" });
    const toggle = screen.getByRole("button", { name: "Text view" });
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    const view = await screen.findByLabelText("Text of page 1 of 3");
    await within(view).findByText(/^Words of page 1/);
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    await within(screen.getByLabelText("Text of page 2 of 3")).findByText(/^Words of page 2/);
    fireEvent.keyDown(window, { key: "ArrowLeft" });
    await within(screen.getByLabelText("Text of page 1 of 3")).findByText(/^Words of page 1/);
    await userEvent.click(toggle);
    expect(screen.queryByLabelText(/Text of page/)).toBeNull();
  });
});

describe("search and contents", () => {
  it("searches the book after a pause, highlights the matches and opens a result's page", async () => {
    const calls = stubBook((path) => {
      if (path === "/api/books/7/search?q=cell") {
        return { body: { query: "cell", results: [{ n: 3, snippet: "the <cell> wall", highlights: [[5, 9]] }], total: 1 } };
      }
      if (path === "/api/books/7/search?q=zebra") return { body: { query: "zebra", results: [], total: 0 } };
      if (path === "/api/books/7/search?q=boom") return { status: 500, body: { error: "Search is not available right now" } };
      return undefined;
    });
    renderReader();
    await screen.findByRole("region", { name: "Page 1 of 3" });
    await userEvent.click(screen.getByRole("button", { name: "Search in book" }));
    // The search loads when first opened; its box then takes the focus.
    const box = await screen.findByRole("searchbox", { name: "Search in book" });
    await waitFor(() => expect(document.activeElement).toBe(box));
    await userEvent.type(box, "cell");
    const mark = await screen.findByText("cell", { selector: "mark" });
    expect(mark.closest("button")?.textContent).toBe("Page 3the <cell> wall");
    expect(calls.filter((path) => path.includes("search"))).toEqual(["/api/books/7/search?q=cell"]);
    await userEvent.type(box, "{Enter}");
    expect(pageInput().value).toBe("3");

    await userEvent.clear(box);
    await userEvent.type(box, "zebra");
    await screen.findByText("No matches in this book");
    await userEvent.clear(box);
    await userEvent.type(box, "boom");
    expect((await screen.findByText("Search is not available right now")).getAttribute("role")).toBe("alert");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("searchbox")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Search in book" }));
  });

  /** A reader whose every page holds "photosynthesis"; the search finds it on page 2. */
  async function searchPhotosynthesis() {
    stubBook((path) =>
      path === "/api/books/7/search?q=Photosynthesis"
        ? { body: { query: "Photosynthesis", results: [{ n: 2, snippet: "photosynthesis", highlights: [[0, 14]] }], total: 3 } }
        : undefined,
    );
    renderReader();
    const first = await screen.findByRole("region", { name: "Page 1 of 3" });
    await within(first).findByText("photosynthesis");
    await userEvent.click(screen.getByRole("button", { name: "Search in book" }));
    const box = screen.getByRole("searchbox", { name: "Search in book" });
    await userEvent.type(box, "Photosynthesis");
    await screen.findByText("photosynthesis", { selector: "[data-reader-panel] mark" });
    return { first, box };
  }

  const pageMarks = (page: HTMLElement) => [...page.querySelectorAll("[data-search-marks] mark")];

  it("marks the matches on the page image while the search is on, and clears them with the search", async () => {
    const { first, box } = await searchPhotosynthesis();
    const group = within(first).getByRole("group", { name: "1 match for “Photosynthesis” on this page" });
    const [mark] = pageMarks(first) as HTMLElement[];
    expect(mark?.textContent).toBe("photosynthesis");
    // The second run of the page: x 72, 14 characters of 6 points.
    expect([mark?.style.left, mark?.style.width]).toEqual(["72px", "84px"]);
    expect(group.nextElementSibling?.hasAttribute("data-text-layer")).toBe(true);

    await userEvent.clear(box);
    expect(pageMarks(first)).toEqual([]);
    await userEvent.type(box, "Photosynthesis");
    await waitFor(() => expect(pageMarks(first)).toHaveLength(1));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("searchbox")).toBeNull();
    expect(pageMarks(first)).toEqual([]);
  });

  it("keeps the matches marked when a result hides the panel on a narrow screen, and in the Text view", async () => {
    vi.spyOn(window, "matchMedia").mockImplementation((query) => ({ matches: query === "(max-width: 767px)" }) as MediaQueryList);
    const { first } = await searchPhotosynthesis();
    await userEvent.click(screen.getByRole("button", { name: /^Page 2/ }));
    expect(pageInput().value).toBe("2");
    expect(screen.queryByRole("searchbox")).toBeNull();
    expect(pageMarks(first)).toHaveLength(1);

    await userEvent.click(screen.getByRole("button", { name: "Text view" }));
    const view = await screen.findByLabelText("Text of page 2 of 3");
    expect((await within(view).findByText("photosynthesis", { selector: "mark" })).closest("p")?.textContent).toBe(
      "Words of page 2 photosynthesis",
    );
    // Opened again, the panel still holds the search; closing it ends the search.
    await userEvent.click(screen.getByRole("button", { name: "Search in book" }));
    expect((screen.getByRole("searchbox") as HTMLInputElement).value).toBe("Photosynthesis");
    await userEvent.click(screen.getByRole("button", { name: "Close search in book" }));
    expect(within(view).queryByText("photosynthesis", { selector: "mark" })).toBeNull();
  });

  it("offers the contents only for a book with an outline, as nested links to pages", async () => {
    stubBook(
      (path) =>
        path === "/api/books/7/outline"
          ? {
              body: {
                outline: [
                  { title: "Cells", page: 1, items: [{ title: "The cell wall", page: 3, items: [] }] },
                  { title: "Index", page: null, items: [] },
                ],
              },
            }
          : undefined,
      { hasOutline: true },
    );
    renderReader();
    await screen.findByRole("region", { name: "Page 1 of 3" });
    await userEvent.click(screen.getByRole("button", { name: "Contents" }));
    const toc = await screen.findByRole("navigation", { name: "Table of contents" });
    expect(within(toc).getAllByRole("list")).toHaveLength(2);
    expect(within(toc).queryByRole("link", { name: /Index/ })).toBeNull();
    await userEvent.click(within(toc).getByRole("link", { name: /The cell wall/ }));
    expect(pageInput().value).toBe("3");
    act(() => {
      fireEvent.keyDown(toc, { key: "Escape" });
    });
    expect(screen.queryByRole("navigation", { name: "Table of contents" })).toBeNull();
  });

  it("has no Contents button for a book without an outline", async () => {
    stubBook();
    renderReader();
    await screen.findByRole("region", { name: "Page 1 of 3" });
    expect(screen.queryByRole("button", { name: "Contents" })).toBeNull();
  });
});

describe("the teacher reader island", () => {
  const props = {
    bookId: 7,
    title: "Biology",
    page: 2,
    backHref: "/dashboard",
    backLabel: "Back to Dashboard",
    preparing: false,
    list: null,
  };

  it("saves the page the teacher stopped at when they leave, and not the page they opened at", async () => {
    stubBook();
    const { unmount } = render(<TeacherReader {...props} />);
    await screen.findByRole("region", { name: "Page 2 of 3" });
    const saves = () => vi.mocked(fetch).mock.calls.filter(([path]) => String(path).startsWith("/api/reading-progress/"));
    expect(saves()).toEqual([]);
    // End is idempotent: pressed until the reader (whose key handler attaches after layout) has moved.
    await waitFor(() => {
      fireEvent.keyDown(window, { key: "End" });
      expect(pageInput().value).toBe("3");
    });
    unmount();
    expect(saves()).toHaveLength(1);
    const [path, init] = saves()[0]!;
    expect(path).toBe("/api/reading-progress/7");
    expect(init).toMatchObject({ method: "PUT", body: JSON.stringify({ page: 3 }), keepalive: true });
  });

  it("shows 'Almost ready' for a book still being prepared, with a plain link back and no request", () => {
    const calls = stubBook();
    render(<TeacherReader {...props} preparing />);
    expect(screen.getByRole("heading", { name: "Almost ready" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/dashboard");
    expect(calls).toEqual([]);
  });

  /**
   * The island as the browser gets it: the server's HTML, whose page image may already have
   * loaded (or failed) when React hydrates it with the page list from the props.
   */
  async function hydrateIsland(image: { complete: boolean; naturalWidth: number }) {
    const island = <TeacherReader {...props} list={list(3)} />;
    const container = document.createElement("div");
    container.innerHTML = renderToString(island);
    document.body.appendChild(container);
    const img = container.querySelector<HTMLImageElement>('[data-page-number="2"] img')!;
    Object.defineProperty(img, "complete", { value: image.complete });
    Object.defineProperty(img, "naturalWidth", { value: image.naturalWidth });
    const recoverable: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, island, { onRecoverableError: (error) => recoverable.push(error) }));
    return { container, img, recoverable, unmount: () => act(() => root.unmount()) };
  }

  it("renders a preview of the page it opens at on the server as a plain image, which hydration keeps until the sharp one replaces it", async () => {
    const calls = stubBook();
    const html = renderToString(<TeacherReader {...props} list={list(3)} />);
    expect(html).toContain('src="/api/books/7/pages/2?w=640"');
    expect(html).toMatch(/<img[^>]+width="640" height="828"[^>]+fetchPriority="high"/i);
    expect(html).not.toContain("Loading the book");

    const { container, img, recoverable, unmount } = await hydrateIsland({ complete: false, naturalWidth: 0 });
    expect(recoverable).toEqual([]);
    const section = container.querySelector('[data-page-number="2"]')!;
    expect(section.querySelector("img")).toBe(img);
    expect(section.hasAttribute("data-rendered")).toBe(false);
    fireEvent.load(img);
    expect(section.getAttribute("data-rendered")).toBe("true");
    expect(Number(container.querySelector("[data-reader]")?.getAttribute("data-first-paint-ms"))).toBeGreaterThan(0);
    await waitFor(() => expect(within(section as HTMLElement).getByText("Words of page 2")).toBeTruthy());
    // No /pages (the list came with the HTML); the sharp image once, through the store, then shown in the same element.
    await waitFor(() => expect(section.querySelector("img")?.getAttribute("src")).toMatch(/^blob:/));
    expect(section.querySelector("img")).toBe(img);
    expect(calls.filter((path) => path.endsWith("/pages") || path.includes("?w="))).toEqual(["/api/books/7/pages/2?w=1024"]);
    unmount();
  });

  it("counts a server-rendered image that loaded before hydration as painted", async () => {
    stubBook();
    const { container, unmount } = await hydrateIsland({ complete: true, naturalWidth: 1024 });
    expect(container.querySelector('[data-page-number="2"]')?.getAttribute("data-rendered")).toBe("true");
    expect(container.querySelector("[data-reader]")?.hasAttribute("data-first-paint-ms")).toBe(true);
    unmount();
  });

  it("asks once through the API when the server-rendered image failed, to show the server's message", async () => {
    const limit = { status: 429, body: { error: "You have reached the reading limit for this book. Please try again in 20 minutes." } };
    const calls = stubBook((path) => (/pages\/\d+/.test(path) ? limit : undefined));
    const { container, unmount } = await hydrateIsland({ complete: true, naturalWidth: 0 });
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain("try again in 20 minutes"));
    expect(calls.filter((path) => path === "/api/books/7/pages/2?w=1024")).toHaveLength(1);
    expect(container.querySelector('[data-page-number="2"] img')).toBeNull();
    unmount();
  });
});

describe("a teacher signed out while reading", () => {
  const DISABLED = "Your account has been disabled. Please contact your school administrator.";

  it("is told their account was disabled when the server says so", async () => {
    stubBook((path) => (path === "/api/books/7/pages" ? { status: 401, body: { error: DISABLED, disabled: true } } : undefined));
    renderReader();
    expect(await screen.findByRole("heading", { name: "Signed out" })).toBeTruthy();
    expect(screen.getByText(DISABLED)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in again" })).toBeTruthy();
  });

  it("is told only that they are signed out otherwise, whatever the answer's text", async () => {
    stubBook((path) => (path === "/api/books/7/pages" ? { status: 401, body: { error: "Not signed in" } } : undefined));
    renderReader();
    expect(await screen.findByRole("heading", { name: "Signed out" })).toBeTruthy();
    expect(screen.getByText("You have been signed out. Please sign in again.")).toBeTruthy();
    expect(screen.queryByText(DISABLED)).toBeNull();
  });
});

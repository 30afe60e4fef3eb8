import { act, cleanup, render, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_READING_SETTINGS } from "#shared/rules/reading-settings.ts";
import { PageReader } from "../../app/components/reader/page-reader.tsx";
import { TextView } from "../../app/components/reader/text-view.tsx";
import { dataSaverOn, SAVER_WIDTH, savingText, useConnectionHints } from "../../app/lib/reader/data-saver.ts";
import { saverImageWidth } from "../../app/lib/reader/image-width.ts";
import { createPageStore, PREFETCH_AHEAD } from "../../app/lib/reader/page-store.ts";
import { ReaderApiError } from "../../app/lib/reader/reader-api.ts";
import { READING_SETTINGS_PATH } from "../../app/lib/reader/reading-settings.ts";

// The reader's data saver (issue 45, docs/decisions/0048): when it is on, which width is asked for,
// what the page store prefetches within the reading budget, and what the reading settings say.

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "connection");
});

/** A browser's navigator.connection (the Network Information API) that can change. */
function stubConnection(hints: { saveData?: boolean; effectiveType?: string }) {
  const connection = Object.assign(new EventTarget(), hints);
  Object.defineProperty(navigator, "connection", { value: connection, configurable: true });
  return connection;
}

describe("dataSaverOn", () => {
  it("follows the teacher's on or off whatever the connection says", () => {
    expect(dataSaverOn("on", { effectiveType: "4g", saveData: false })).toBe(true);
    expect(dataSaverOn("off", { effectiveType: "slow-2g", saveData: true })).toBe(false);
  });

  it("on automatic, is on for Save-Data or a 3G-or-slower connection, off otherwise or without the API", () => {
    expect(dataSaverOn("auto", { saveData: true, effectiveType: "4g" })).toBe(true);
    for (const effectiveType of ["slow-2g", "2g", "3g"]) expect(dataSaverOn("auto", { effectiveType }), effectiveType).toBe(true);
    expect(dataSaverOn("auto", { saveData: false, effectiveType: "4g" })).toBe(false);
    expect(dataSaverOn("auto", {})).toBe(false);
  });

  it("follows the browser's estimate as the connection changes", () => {
    const connection = stubConnection({ saveData: false, effectiveType: "4g" });
    const { result } = renderHook(() => useConnectionHints());
    expect(result.current).toEqual({ saveData: false, effectiveType: "4g" });
    act(() => {
      connection.effectiveType = "2g";
      connection.dispatchEvent(new Event("change"));
    });
    expect(dataSaverOn("auto", result.current)).toBe(true);
  });
});

describe("saverImageWidth", () => {
  it("asks for the data saver's page unless the teacher zoomed in, then the sharp one", () => {
    expect(saverImageWidth(1024, true, false)).toBe(SAVER_WIDTH);
    expect(saverImageWidth(2048, true, true)).toBe(2048);
    expect(saverImageWidth(1024, false, false)).toBe(1024);
  });
});

describe("the page store with the data saver", () => {
  it("asks the server for the data saver's page (saver=1) below the narrowest width, and adds up what it received", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response(new Uint8Array(url.includes("saver=1") ? 40_000 : 100_000));
      }),
    );
    const store = createPageStore(7, vi.fn(), { createUrl: () => "blob:x", revokeUrl: () => {} });
    await store.loadImage(1, SAVER_WIDTH);
    await store.loadImage(2, SAVER_WIDTH);
    await store.loadImage(2, 1024);
    expect(urls).toEqual(["/api/books/7/pages/1?w=640&saver=1", "/api/books/7/pages/2?w=640&saver=1", "/api/books/7/pages/2?w=1024"]);
    expect(store.received()).toEqual({ saver: { pages: 2, bytes: 80_000 }, sharp: { pages: 1, bytes: 100_000 } });
  });

  it(`prefetches at most ${PREFETCH_AHEAD} pages, one after another, each image then its text`, async () => {
    const asked: string[] = [];
    const store = createPageStore(7, vi.fn(), {
      image: async (n, width) => {
        asked.push(`image ${n}@${width}`);
        return new Blob(["img"]);
      },
      text: async (n) => {
        asked.push(`text ${n}`);
        return { n, width: 612, height: 792, runs: [] };
      },
      createUrl: () => "blob:x",
      revokeUrl: () => {},
    });
    const pages = [3, 4, 5].map((n) => ({ n, width: SAVER_WIDTH }));
    await store.prefetch(pages, () => false);
    expect(asked).toEqual(["image 3@640", "text 3", "image 4@640", "text 4"]);
    expect(store.hasImage(4, SAVER_WIDTH)).toBe(true);
  });

  it("stops prefetching at the reading limit (429), and when cancelled", async () => {
    const image = vi.fn(async (_n: number, _w: number) => new Blob(["img"]));
    image.mockRejectedValueOnce(new ReaderApiError("You have reached the reading limit for this book.", 429));
    const onStop = vi.fn();
    const store = createPageStore(7, onStop, { image, text: vi.fn(), createUrl: () => "blob:x", revokeUrl: () => {} });
    await store.prefetch(
      [
        { n: 2, width: SAVER_WIDTH },
        { n: 3, width: SAVER_WIDTH },
      ],
      () => false,
    );
    expect(image).toHaveBeenCalledTimes(1);
    expect(onStop).toHaveBeenCalledTimes(1);
    await store.prefetch([{ n: 4, width: SAVER_WIDTH }], () => false);
    expect(image).toHaveBeenCalledTimes(1);

    const other = createPageStore(7, vi.fn(), { image, text: vi.fn(), createUrl: () => "blob:x", revokeUrl: () => {} });
    await other.prefetch([{ n: 2, width: SAVER_WIDTH }], () => true);
    expect(image).toHaveBeenCalledTimes(1);
  });
});

describe("the page being read first", () => {
  it("makes the other pages' images, and every text, wait until the focused page's image is in", async () => {
    const started: string[] = [];
    const answers = new Map<number, (blob: Blob) => void>();
    const store = createPageStore(7, vi.fn(), {
      image: (n) => {
        started.push(`image ${n}`);
        return new Promise<Blob>((resolve) => answers.set(n, resolve));
      },
      text: async (n) => {
        started.push(`text ${n}`);
        return { n, width: 612, height: 792, runs: [] };
      },
      createUrl: () => "blob:x",
      revokeUrl: () => {},
    });
    // As the reader's effects do: the pages around it ask first, then the page being read is focused.
    const around = [store.loadImage(19, SAVER_WIDTH), store.loadText(20), store.loadImage(21, SAVER_WIDTH)];
    store.focus({ n: 20, width: SAVER_WIDTH });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["image 20"]);
    answers.get(20)?.(new Blob(["img"]));
    await vi.waitFor(() => expect(started).toEqual(["image 20", "image 19", "text 20", "image 21"]));
    for (const n of [19, 21]) answers.get(n)?.(new Blob(["img"]));
    await Promise.all(around);
  });
});

describe("savingText", () => {
  const none = { pages: 0, bytes: 0 };
  it("says what the data saver saved from the sizes received in this visit", () => {
    const received = { saver: { pages: 4, bytes: 4 * 38_000 }, sharp: { pages: 2, bytes: 2 * 95_000 } };
    expect(savingText("on", true, received)).toBe("Data saver is on. Pages are about 38 kB instead of 95 kB; zoom in for the sharp page.");
    expect(savingText("auto", true, { saver: received.saver, sharp: none })).toBe(
      "Data saver is on: your connection is slow or your browser asks to save data. Pages are about 38 kB; zoom in for the sharp page.",
    );
    expect(savingText("off", false, received)).toBe("Data saver is off. Pages are about 95 kB.");
    expect(savingText("auto", false, { saver: none, sharp: none })).toBe(
      "Data saver is off: your connection is fast and your browser does not ask to save data.",
    );
  });
});

/** A three-page book whose pages the server answers: 38 kB with the data saver, 95 kB without. */
function stubBook(saved: object | null = null) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? "GET"} ${path}`);
      if (path === READING_SETTINGS_PATH)
        return Response.json({ settings: { ...DEFAULT_READING_SETTINGS, ...saved, ...(init.body ? JSON.parse(String(init.body)) : {}) } });
      if (path === "/api/books/7/pages")
        return Response.json({
          pageCount: 3,
          widths: [1024, 2048],
          hasOutline: false,
          pages: [1, 2, 3].map((n) => ({ n, width: 612, height: 792 })),
        });
      if (/\/text$/.test(path)) return Response.json({ n: 1, width: 612, height: 792, runs: [] });
      if (/\?w=/.test(path)) return new Response(new Uint8Array(path.includes("saver=1") ? 38_000 : 95_000));
      throw new Error(`unexpected call to ${path}`);
    }),
  );
  return calls;
}

const renderReader = () =>
  render(<PageReader bookId={7} title="Biology" backHref="/dashboard" backLabel="Back to Dashboard" initialPage={1} />);

describe("the page view with the data saver", () => {
  it("asks for the data saver's pages and prefetches the next ones when the teacher chose it", async () => {
    localStorage.setItem("lectern-reading-settings", JSON.stringify({ ...DEFAULT_READING_SETTINGS, dataSaver: "on" }));
    const calls = stubBook();
    renderReader();
    await waitFor(() => expect(calls).toContain("GET /api/books/7/pages/3?w=640&saver=1"));
    expect(calls.filter((call) => call.includes("?w=")).every((call) => call.endsWith("&saver=1"))).toBe(true);
    expect(calls).toContain("GET /api/books/7/pages/3/text");
  });

  it("asks for the sharp pages, and prefetches nothing, on a fast connection on automatic", async () => {
    stubConnection({ saveData: false, effectiveType: "4g" });
    const calls = stubBook();
    renderReader();
    await waitFor(() => expect(calls).toContain("GET /api/books/7/pages/1?w=1024"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.includes("saver=1"))).toBe(false);
    expect(calls).not.toContain("GET /api/books/7/pages/3?w=1024");
  });

  it("turns on as Save-Data says, on automatic", async () => {
    stubConnection({ saveData: true, effectiveType: "4g" });
    const calls = stubBook();
    renderReader();
    await waitFor(() => expect(calls).toContain("GET /api/books/7/pages/1?w=640&saver=1"));
  });
});

describe("the page view's Data saver button", () => {
  it("turns the data saver on at a press, asks for the smaller pages and saves the choice to the account", async () => {
    stubConnection({ saveData: false, effectiveType: "4g" });
    const calls = stubBook();
    render(<PageReader bookId={7} title="Biology" backHref="/dashboard" backLabel="Back to Dashboard" initialPage={1} desk />);
    const button = await screen.findByRole("button", { name: "Data saver" });
    expect(button.getAttribute("aria-pressed")).toBe("false");
    await userEvent.click(button);
    await waitFor(() => expect(button.getAttribute("aria-pressed")).toBe("true"));
    await waitFor(() => expect(calls).toContain("GET /api/books/7/pages/1?w=640&saver=1"));
    await waitFor(() => expect(calls).toContain(`PUT ${READING_SETTINGS_PATH}`));
    expect(JSON.parse(localStorage.getItem("lectern-reading-settings") ?? "{}").dataSaver).toBe("on");
  });
});

describe("the data saver in the reading settings", () => {
  it("is chosen there, kept with the other settings, and says what it saved in this visit", async () => {
    vi.stubGlobal("speechSynthesis", { speak: vi.fn(), cancel: vi.fn(), getVoices: () => [] });
    vi.stubGlobal("SpeechSynthesisUtterance", class {});
    stubConnection({ saveData: false, effectiveType: "4g" });
    const calls = stubBook();
    const store = createPageStore(7, vi.fn(), { createUrl: () => "blob:x", revokeUrl: () => {} });
    await store.loadImage(1, 1024);
    await store.loadImage(2, SAVER_WIDTH);
    render(<TextView store={store} page={1} pageCount={3} failed={false} onGoTo={vi.fn()} />);
    await userEvent.click(screen.getByRole("button", { name: "Reading settings" }));
    const panel = screen.getByRole("region", { name: "Reading settings" });
    const group = within(panel).getByRole("group", { name: "Data saver" });
    expect(within(group).getByRole("radio", { name: /Data saver automatic/ })).toHaveProperty("checked", true);
    expect(panel.querySelector("[data-saving]")?.textContent).toBe(
      "Data saver is off: your connection is fast and your browser does not ask to save data. Pages are about 95 kB.",
    );
    await userEvent.click(within(group).getByRole("radio", { name: "Data saver on" }));
    expect(panel.querySelector("[data-saving]")?.textContent).toBe(
      "Data saver is on. Pages are about 38 kB instead of 95 kB; zoom in for the sharp page.",
    );
    expect(JSON.parse(localStorage.getItem("lectern-reading-settings") ?? "{}").dataSaver).toBe("on");
    await waitFor(() => expect(calls.some((call) => call.startsWith(`PUT ${READING_SETTINGS_PATH}`))).toBe(true), { timeout: 3000 });
  });
});

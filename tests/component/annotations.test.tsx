import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rangeRects, rangeText, validRange } from "#shared/annotation-geometry.ts";
import { HighlightMarks } from "../../app/components/reader/highlight-marks.tsx";
import { NotesPanel } from "../../app/components/reader/notes-panel.tsx";
import { TextLayer } from "../../app/components/reader/text-layer.tsx";
import { useAnnotations } from "../../app/components/reader/use-annotations.ts";
import { selectedRange } from "../../app/lib/reader/annotation-selection.ts";
import { pageSentences } from "../../app/lib/reader/page-sentences.ts";
import type { Annotation } from "../../app/lib/reader/reader-api.ts";
import type { TextRun } from "../../workers/page-images/page-content.ts";

// Issue 29 item 1: a highlight's place over the text layer, and the Notes panel.

/** A run of `str` at (x, y), 10 points per character, 12 points high. */
const run = (str: string, x: number, y: number): TextRun => ({ str, x, y, w: str.length * 10, h: 12 });
const RUNS = [run("Hello world,", 72, 100), run("again", 200, 100), run("second line", 72, 120)];

describe("highlight geometry", () => {
  it("gives the part of each run the range covers, joined on a line, one rectangle per line", () => {
    // From "world," through "again" (same line, a word gap) to "second".
    const rects = rangeRects(RUNS, { run: 0, offset: 6 }, { run: 2, offset: 6 });
    expect(rects).toEqual([
      { x: 132, y: 100, w: 118, h: 12 },
      { x: 72, y: 120, w: 60, h: 12 },
    ]);
    expect(rangeText(RUNS, { run: 0, offset: 6 }, { run: 2, offset: 6 })).toBe("world, again second");
    expect(rangeText(RUNS, { run: 0, offset: 0 }, { run: 0, offset: 5 })).toBe("Hello");
  });

  it("accepts only a non-empty range of the page's runs, start first", () => {
    expect(validRange(RUNS, { run: 0, offset: 0 }, { run: 0, offset: 12 })).toBe(true);
    expect(validRange(RUNS, { run: 0, offset: 3 }, { run: 0, offset: 3 })).toBe(false);
    expect(validRange(RUNS, { run: 1, offset: 0 }, { run: 0, offset: 3 })).toBe(false);
    expect(validRange(RUNS, { run: 0, offset: 0 }, { run: 0, offset: 13 })).toBe(false);
    expect(validRange(RUNS, { run: 0, offset: 0 }, { run: 3, offset: 0 })).toBe(false);
  });

  it("draws a highlight's rectangles over the page, scaled with it, in its colour", () => {
    const highlight = {
      id: 7,
      kind: "highlight",
      page: 1,
      colour: "green",
      start: { run: 0, offset: 6 },
      end: { run: 0, offset: 11 },
    } as Annotation;
    const { container } = render(<HighlightMarks runs={RUNS} highlights={[highlight]} width={612} height={792} scale={1.5} />);
    const layer = container.querySelector<HTMLElement>("[data-highlights]")!;
    expect(layer.style.transform).toBe("scale(1.5)");
    expect(layer.getAttribute("aria-hidden")).toBe("true");
    const [mark] = container.querySelectorAll<HTMLElement>("[data-highlight='7']");
    expect(mark?.dataset.colour).toBe("green");
    expect(mark?.className).toContain("bg-green-400/40");
    expect([mark?.style.left, mark?.style.width]).toEqual(["132px", "50px"]);
  });

  it("reads a selection over the text layer as a range of runs on its page", () => {
    const { container } = render(
      <section data-page-number={4}>
        <TextLayer runs={RUNS} width={612} height={792} scale={1} selectable />
      </section>,
    );
    const layer = container.querySelector<HTMLElement>("[data-text-layer]")!;
    expect(layer.dataset.selectable).toBe("true");
    expect(layer.className).toContain("select-text");
    const spans = layer.querySelectorAll("[data-run]");
    const range = document.createRange();
    range.setStart(spans[0]!.firstChild!, 6);
    range.setEnd(spans[2]!.firstChild!, 6);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    expect(selectedRange(selection)).toEqual({
      page: 4,
      start: { run: 0, offset: 6 },
      end: { run: 2, offset: 6 },
      text: expect.any(String),
    });
    selection.removeAllRanges();
    expect(selectedRange(selection)).toBeNull();
  });

  it("cuts a page into sentences with the range each covers in its runs (the keyboard's way to a highlight)", () => {
    const runs = [
      run("The leaf drinks light. It makes", 72, 100),
      run("sugar from air.", 72, 120),
      run("Water", 72, 140),
      run("matters too!", 130, 140),
    ];
    const sentences = pageSentences(runs, "en");
    expect(sentences.map((s) => s.text)).toEqual(["The leaf drinks light.", "It makes sugar from air.", "Water matters too!"]);
    expect(sentences.map((s) => [s.start, s.end])).toEqual([
      [
        { run: 0, offset: 0 },
        { run: 0, offset: 22 },
      ],
      [
        { run: 0, offset: 23 },
        { run: 1, offset: 15 },
      ],
      [
        { run: 2, offset: 0 },
        { run: 3, offset: 12 },
      ],
    ]);
    // Each range gives back its sentence, as the server reads it.
    for (const s of sentences) expect(rangeText(runs, s.start, s.end)).toBe(s.text);
    expect(pageSentences([])).toEqual([]);
  });

  it("keeps the text layer unselectable while not highlighting", () => {
    const { container } = render(<TextLayer runs={RUNS} width={612} height={792} scale={1} />);
    expect(container.querySelector("[data-text-layer]")?.className).toContain("select-none");
  });
});

const annotation = (over: Partial<Annotation> & Pick<Annotation, "id" | "kind" | "page">): Annotation =>
  ({ label: null, note: null, colour: null, start: null, end: null, text: null, createdAt: 0, updatedAt: 0, ...over }) as Annotation;

const STORED = [
  annotation({ id: 3, kind: "note", page: 5, note: "Ask about the water cycle" }),
  annotation({
    id: 1,
    kind: "highlight",
    page: 2,
    colour: "pink",
    text: "Photosynthesis makes sugar",
    start: { run: 0, offset: 0 },
    end: { run: 0, offset: 5 },
  }),
  annotation({ id: 2, kind: "bookmark", page: 2, label: "Lesson 4" }),
];

/** A create's client id, its idempotency key (docs/decisions/0051). */
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

const PAGE_TEXT = { n: 3, width: 612, height: 792, runs: [run("First sentence here. Second one", 72, 100), run("ends here.", 72, 120)] };
const loadText = async () => PAGE_TEXT;

function Panel({ page = 2, onGoTo = () => {} }: { page?: number; onGoTo?: (n: number) => void }) {
  const notes = useAnnotations(9, true);
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <NotesPanel
      bookId={9}
      page={page}
      notes={notes}
      editing={editing}
      onEditing={setEditing}
      onGoTo={onGoTo}
      onClose={() => {}}
      loadText={loadText}
    />
  );
}

describe("the Notes panel", () => {
  let nextId = 100;
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_path: string, init?: RequestInit) => {
        const method = init?.method ?? "GET";
        if (method === "GET") return Response.json({ annotations: STORED });
        if (method === "POST")
          return Response.json(
            { annotation: { ...annotation({ id: nextId++, kind: "note", page: 1 }), ...JSON.parse(String(init?.body)) } },
            { status: 201 },
          );
        if (method === "PATCH") {
          // As the server answers a change: without a highlight's words (docs/decisions/0032).
          const stored = STORED.find((a) => _path.endsWith(`/${a.id}`)) ?? STORED[0];
          const { text: _text, ...changed } = { ...stored, ...JSON.parse(String(init?.body)) };
          return Response.json({ annotation: changed });
        }
        return new Response(null, { status: 204 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const calls = (method: string) => vi.mocked(fetch).mock.calls.filter(([, init]) => (init?.method ?? "GET") === method);

  it("lists the teacher's annotations in page order, each opening its page", async () => {
    const onGoTo = vi.fn();
    render(<Panel onGoTo={onGoTo} />);
    const list = await screen.findByRole("list", { name: "Your notes, by page" });
    const headings = within(list)
      .getAllByRole("heading")
      .map((h) => h.textContent);
    expect(headings).toEqual(["Page 2", "Page 5"]);
    fireEvent.click(within(list).getByRole("button", { name: /^Note, page 5\s*:\s*Ask about the water cycle/ }));
    expect(onGoTo).toHaveBeenCalledWith(5);
    expect(within(list).getByRole("button", { name: /^Highlight, page 2\s*:\s*“Photosynthesis makes sugar”/ })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Download my notes (Markdown)" }).getAttribute("href")).toBe("/api/books/9/annotations/export");
  });

  it("searches across the notes", async () => {
    render(<Panel />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    fireEvent.change(screen.getByRole("searchbox", { name: "Search your notes" }), { target: { value: "water" } });
    expect(screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["Page 5"]);
    fireEvent.change(screen.getByRole("searchbox", { name: "Search your notes" }), { target: { value: "xylem" } });
    expect(screen.getByText("Nothing in your notes matches “xylem”.")).toBeTruthy();
  });

  it("deletes with an undo that puts it back", async () => {
    render(<Panel />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    fireEvent.click(screen.getByRole("button", { name: "Delete the note on page 5" }));
    await waitFor(() => expect(calls("DELETE")).toHaveLength(1));
    expect(String(calls("DELETE")[0]?.[0])).toBe("/api/books/9/annotations/3");
    expect(screen.queryByText("Ask about the water cycle")).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Undo" })));
    await waitFor(() => expect(calls("POST")).toHaveLength(1));
    expect(JSON.parse(String(calls("POST")[0]?.[1]?.body))).toEqual({
      kind: "note",
      page: 5,
      note: "Ask about the water cycle",
      clientId: UUID,
    });
    expect(await screen.findByText("Ask about the water cycle")).toBeTruthy();
  });

  it("adds a note to the page being read and edits one in place", async () => {
    render(<Panel page={3} />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    fireEvent.click(screen.getByRole("button", { name: "Add a note to page 3" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Note on page 3" }), { target: { value: "Start the lesson here" } });
    expect(screen.getByText("1,979 characters left")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save note" })));
    expect(JSON.parse(String(calls("POST")[0]?.[1]?.body))).toEqual({
      kind: "note",
      page: 3,
      note: "Start the lesson here",
      clientId: UUID,
    });

    fireEvent.click(screen.getByRole("button", { name: "Edit the note on page 5" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Note on page 5" }), { target: { value: "Ask about rain" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save" })));
    expect(String(calls("PATCH")[0]?.[0])).toBe("/api/books/9/annotations/3");
    expect(JSON.parse(String(calls("PATCH")[0]?.[1]?.body))).toEqual({ note: "Ask about rain" });
  });

  it("keeps a highlight's words shown after its colour and note change (the change's answer leaves them out)", async () => {
    render(<Panel />);
    const list = await screen.findByRole("list", { name: "Your notes, by page" });
    fireEvent.click(screen.getByRole("button", { name: "Edit the highlight on page 2" }));
    fireEvent.click(screen.getByRole("radio", { name: "Green" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Note on the highlight on page 2" }), { target: { value: "Key idea" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save" })));
    expect(JSON.parse(String(calls("PATCH")[0]?.[1]?.body))).toEqual({ colour: "green", note: "Key idea" });
    expect(
      await within(list).findByRole("button", { name: /^Highlight, page 2\s*:\s*“Photosynthesis makes sugar”.*Note: Key idea/ }),
    ).toBeTruthy();
  });

  it("highlights a sentence of the page from a list, with the keyboard's buttons", async () => {
    render(<Panel page={3} />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    fireEvent.click(screen.getByRole("button", { name: "Highlight a sentence on page 3" }));
    const list = await screen.findByRole("list", { name: "Sentences on page 3" });
    fireEvent.click(screen.getByRole("radio", { name: "Blue" }));
    await act(async () => fireEvent.click(within(list).getByRole("button", { name: "Second one ends here." })));
    expect(JSON.parse(String(calls("POST")[0]?.[1]?.body))).toEqual({
      kind: "highlight",
      page: 3,
      colour: "blue",
      start: { run: 0, offset: 21 },
      end: { run: 1, offset: 10 },
      clientId: UUID,
    });
  });

  it("bookmarks the page being read, and says when it is bookmarked", async () => {
    render(<Panel page={2} />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    const toggle = screen.getByRole("button", { name: "Remove bookmark (page 2)" });
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
  });
});

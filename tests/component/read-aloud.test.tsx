import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TextView } from "../../app/components/reader/text-view.tsx";
import { createPageStore, type PageStore } from "../../app/lib/reader/page-store.ts";
import { splitSentences } from "../../app/lib/reader/sentences.ts";

// Read-aloud in the reader's Text view (issue 29, docs/decisions/0031) against a fake
// speechSynthesis: what is spoken, in which voice and speed, the sentence marked, what a screen
// reader is told, and the page turned at the end of one.

/** The browser's utterance, as far as read-aloud uses it. */
class FakeUtterance {
  rate = 1;
  voice: SpeechSynthesisVoice | null = null;
  lang = "";
  onend: ((event: Event) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(readonly text: string) {}
}

const voice = (name: string, lang: string) =>
  ({ name, lang, voiceURI: `urn:voice:${name}`, default: false, localService: true }) as SpeechSynthesisVoice;

/** A speechSynthesis that records what it is asked to say; `finish` ends the utterance being spoken. */
function fakeSpeech(voices: SpeechSynthesisVoice[] = []) {
  const spoken: FakeUtterance[] = [];
  let available = voices;
  const onVoices = new Set<() => void>();
  const synth = {
    speak: vi.fn((utterance: FakeUtterance) => spoken.push(utterance)),
    // Chrome answers a cancel with an "interrupted" error on the utterance it stopped.
    cancel: vi.fn(() => spoken.at(-1)?.onerror?.({ error: "interrupted" })),
    getVoices: () => available,
    addEventListener: (_type: string, listener: () => void) => onVoices.add(listener),
    removeEventListener: (_type: string, listener: () => void) => onVoices.delete(listener),
  };
  vi.stubGlobal("speechSynthesis", synth);
  vi.stubGlobal("SpeechSynthesisUtterance", FakeUtterance);
  return {
    spoken,
    synth,
    texts: () => spoken.map((utterance) => utterance.text.trim()),
    finish: () => act(() => spoken.at(-1)?.onend?.(new Event("end"))),
    addVoices(more: SpeechSynthesisVoice[]) {
      available = [...available, ...more];
      act(() => {
        for (const listener of onVoices) listener();
      });
    },
  };
}

/** A page's text as the server sends it: each paragraph's lines close together, paragraphs apart. */
function pageText(n: number, paragraphs: string[][]) {
  const runs: { str: string; x: number; y: number; w: number; h: number }[] = [];
  let y = 72;
  for (const lines of paragraphs) {
    for (const line of lines) {
      runs.push({ str: line, x: 72, y, w: line.length * 6, h: 12 });
      y += 16;
    }
    y += 40;
  }
  return { n, width: 612, height: 792, runs };
}

const BOOK: Record<number, string[][]> = {
  1: [
    ["Cells are small.", "They are alive."],
    ["Plants make food. Animals", "eat it.", "Fungi rot wood."],
  ],
  2: [["Page two begins here."]],
  3: [["The end of the book."]],
};

/** The Text view of a three-page book at `first`, turning pages as the reader would and noting each turn. */
function Reader({ store, first, turns }: { store: PageStore; first: number; turns: number[] }) {
  const [page, setPage] = useState(first);
  return (
    <TextView
      store={store}
      page={page}
      pageCount={3}
      failed={false}
      onGoTo={(n) => {
        turns.push(n);
        setPage(n);
      }}
    />
  );
}

function renderTextView(first = 1) {
  const store = createPageStore(7, vi.fn(), { text: async (n) => pageText(n, BOOK[n] ?? []) });
  const turns: number[] = [];
  render(<Reader store={store} first={first} turns={turns} />);
  return { turns };
}

const announced = () => screen.getByText((_, element) => element?.matches("p[role=status].sr-only") ?? false).textContent;
const marked = () => document.querySelector("[data-reading-sentence]")?.textContent?.trim() ?? null;
const view = (page: number) => screen.getByRole("region", { name: `Text of page ${page} of 3` });

/** Page 1 in the Text view, read aloud with no paragraph chosen: from its top. */
async function readFromTheTop() {
  const speech = fakeSpeech();
  renderTextView();
  await within(view(1)).findByText(/^Cells are small/);
  await userEvent.click(screen.getByRole("button", { name: "Read aloud" }));
  return speech;
}

beforeEach(() => {
  // No account to keep settings on: they stay on the device.
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ error: "Not signed in" }, { status: 401 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("read aloud in the Text view", () => {
  it("reads from the paragraph the teacher clicked, marking each sentence as it is spoken", async () => {
    const speech = fakeSpeech();
    renderTextView();
    const second = await within(view(1)).findByText(/^Plants make food/);
    await userEvent.click(second);
    expect(announced()).toBe("Read aloud will start at paragraph 2");
    await userEvent.click(screen.getByRole("button", { name: "Read aloud" }));

    expect(speech.texts()).toEqual(["Plants make food."]);
    expect(marked()).toBe("Plants make food.");
    expect(announced()).toBe("Reading page 1, paragraph 2");
    expect(screen.getByRole("button", { name: "Pause" })).toBeTruthy();

    speech.finish();
    expect(speech.texts()).toEqual(["Plants make food.", "Animals eat it."]);
    expect(marked()).toBe("Animals eat it.");
    speech.finish();
    // The paragraph's second line is the same paragraph: its sentence comes next.
    expect(marked()).toBe("Fungi rot wood.");
  });

  it("starts at the first paragraph when none was chosen", async () => {
    const speech = await readFromTheTop();
    expect(speech.texts()).toEqual(["Cells are small."]);
    expect(announced()).toBe("Reading page 1, paragraph 1");
  });

  it("pauses and resumes at the sentence it was reading, and stops", async () => {
    const speech = await readFromTheTop();
    speech.finish();
    expect(marked()).toBe("They are alive.");

    await userEvent.click(screen.getByRole("button", { name: "Pause" }));
    expect(speech.synth.cancel).toHaveBeenCalledTimes(1);
    expect(announced()).toBe("Paused");
    expect(marked()).toBe("They are alive.");
    // The cancelled utterance's events change nothing.
    speech.finish();
    expect(speech.texts()).toHaveLength(2);

    await userEvent.click(screen.getByRole("button", { name: "Resume" }));
    expect(speech.texts()).toEqual(["Cells are small.", "They are alive.", "They are alive."]);
    expect(announced()).toBe("Reading page 1, paragraph 1");

    const play = screen.getByRole("button", { name: "Pause" });
    await userEvent.click(screen.getByRole("button", { name: "Stop reading aloud" }));
    expect(announced()).toBe("Stopped reading aloud");
    expect(marked()).toBeNull();
    expect(document.activeElement).toBe(play);
    expect(play.textContent).toBe("Read aloud");
    expect((screen.getByRole("button", { name: "Stop reading aloud" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("speaks at the chosen speed in the chosen voice, from the next sentence", async () => {
    const speech = fakeSpeech([voice("Samantha", "en-US")]);
    renderTextView();
    await within(view(1)).findByText(/^Cells are small/);
    const voices = screen.getByRole("combobox", { name: "Voice" });
    // Voices a browser lists late (Chrome) join the list when it says so.
    speech.addVoices([voice("Daniel", "en-GB")]);
    expect([...voices.querySelectorAll("option")].map((option) => option.textContent)).toEqual([
      "Browser's default",
      "Daniel (en-GB)",
      "Samantha (en-US)",
    ]);

    await userEvent.click(screen.getByRole("button", { name: "Read aloud" }));
    expect(speech.spoken[0]).toMatchObject({ rate: 1, voice: null });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Speed" }), "1.5");
    await userEvent.selectOptions(voices, "urn:voice:Daniel");
    speech.finish();
    expect(speech.spoken[1]).toMatchObject({ text: "They are alive.", rate: 1.5, lang: "en-GB" });
    expect(speech.spoken[1]?.voice?.name).toBe("Daniel");
  });

  it("goes on to the next page once its text is in, and ends with the book", async () => {
    const speech = fakeSpeech();
    const { turns } = renderTextView(2);
    await within(view(2)).findByText("Page two begins here.");
    await userEvent.click(screen.getByRole("button", { name: "Read aloud" }));
    speech.finish();

    expect(turns).toEqual([3]);
    await within(view(3)).findByText("The end of the book.");
    await waitFor(() => expect(speech.texts()).toEqual(["Page two begins here.", "The end of the book."]));
    expect(announced()).toBe("Reading page 3");
    expect(marked()).toBe("The end of the book.");

    speech.finish();
    expect(announced()).toBe("Finished reading aloud: this is the end of the book.");
    expect(screen.getByRole("button", { name: "Read aloud" })).toBeTruthy();
    expect(turns).toEqual([3]);
  });

  it("reads a page the teacher turned to while reading from its top", async () => {
    const speech = await readFromTheTop();
    await userEvent.click(screen.getByRole("button", { name: /Page 2/ }));
    await waitFor(() => expect(speech.texts().at(-1)).toBe("Page two begins here."));
    expect(speech.synth.cancel).toHaveBeenCalled();
  });

  it("plays and pauses with K while focus is in the Text view, but not while choosing in a list", async () => {
    const speech = fakeSpeech();
    renderTextView();
    await within(view(1)).findByText(/^Cells are small/);
    view(1).focus();
    await userEvent.keyboard("k");
    expect(speech.texts()).toEqual(["Cells are small."]);
    await userEvent.keyboard("k");
    expect(announced()).toBe("Paused");
    fireEvent.keyDown(screen.getByRole("combobox", { name: "Speed" }), { key: "k" });
    expect(announced()).toBe("Paused");
    expect(screen.getByRole("button", { name: "Resume" }).getAttribute("aria-keyshortcuts")).toBe("k");
  });

  it("says when the browser stops speaking on its own", async () => {
    const speech = await readFromTheTop();
    act(() => speech.spoken[0]?.onerror?.({ error: "network" }));
    expect(announced()).toBe("Reading aloud stopped: the voice needs a network connection.");
    expect(screen.getByRole("button", { name: "Read aloud" })).toBeTruthy();
  });

  it("says so, and offers no controls, where the browser cannot speak", async () => {
    vi.stubGlobal("speechSynthesis", undefined);
    renderTextView();
    await within(view(1)).findByText(/^Cells are small/);
    expect(screen.getByText("Reading aloud is not available in this browser.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Read aloud" })).toBeNull();
    expect(screen.queryByRole("combobox", { name: "Voice" })).toBeNull();
    expect(screen.getByRole("button", { name: "Reading settings" })).toBeTruthy();
  });
});

describe("splitSentences", () => {
  it("splits a paragraph into sentences that join back into it", () => {
    const text = "Cells divide. Do they? Yes! “Quoted,” she said… and so on.";
    const sentences = splitSentences(text, "en");
    expect(sentences.map((s) => s.trim())).toEqual(["Cells divide.", "Do they?", "Yes!", "“Quoted,” she said… and so on."]);
    expect(sentences.join("")).toBe(text);
    expect(splitSentences("   ")).toEqual([]);
  });

  it("splits after . ! ? and … where the browser has no Intl.Segmenter", () => {
    vi.stubGlobal("Intl", { ...Intl, Segmenter: undefined });
    const text = "Cells divide. Do they? Yes! Then… more.";
    expect(splitSentences(text).map((s) => s.trim())).toEqual(["Cells divide.", "Do they?", "Yes!", "Then…", "more."]);
    expect(splitSentences(text).join("")).toBe(text);
  });
});

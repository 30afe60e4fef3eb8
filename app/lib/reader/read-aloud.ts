import { useEffect, useRef, useState, useSyncExternalStore } from "react";

/**
 * Read-aloud for the reader's Text view (docs/decisions/0031) on the browser's speech synthesis.
 * It speaks one sentence per utterance: the sentence being read is then known on every browser
 * from `onend` alone (boundary events are missing for many voices, Chrome's network voices among
 * them), a change of speed or voice applies from the next sentence, and no utterance runs long
 * enough to meet Chrome's habit of falling silent after about 15 seconds. Pausing cancels and
 * resuming speaks the sentence again from its start, because `speechSynthesis.pause()` cancels
 * on Android and does not resume on some desktop voices.
 */

export type ReadAloudStatus = "idle" | "playing" | "paused" | "waiting";
export type ReadingPosition = { page: number; paragraph: number; sentence: number };

/** The page's text as read-aloud sees it: its paragraphs' sentences once loaded. */
export type ReadAloudText = { page: number; status: "loading" | "failed" } | { page: number; status: "ready"; sentences: string[][] };

export type ReadAloudSnapshot = {
  status: ReadAloudStatus;
  /** The sentence being read (or to be read on resume). */
  at: ReadingPosition | null;
  voices: readonly SpeechSynthesisVoice[];
  /** What the polite live region says: starts, pauses, pages, the end and failures. */
  announcement: string;
};

/** What read-aloud needs of the browser: its speech synthesis, and the utterance constructor. */
export type SpeechEngine = {
  synth: Pick<SpeechSynthesis, "speak" | "cancel" | "getVoices"> &
    Partial<Pick<SpeechSynthesis, "addEventListener" | "removeEventListener">>;
  Utterance: new (text: string) => SpeechSynthesisUtterance;
};

export type ReadAloudOptions = { rate: number; voice: string | null; onNextPage: (page: number) => void };

/** The browser's speech synthesis, or null where there is none (some browsers, the server, tests). */
export function browserSpeech(): SpeechEngine | null {
  if (typeof window === "undefined") return null;
  const synth = window.speechSynthesis;
  const Utterance = window.SpeechSynthesisUtterance;
  return synth && typeof Utterance === "function" ? { synth, Utterance } : null;
}

const IDLE: ReadAloudSnapshot = { status: "idle", at: null, voices: [], announcement: "" };

/** The first sentence at or after paragraph `from` (empty paragraphs have none). */
function firstFrom(sentences: string[][], page: number, from: number): ReadingPosition | null {
  for (let paragraph = Math.max(0, from); paragraph < sentences.length; paragraph++) {
    if (sentences[paragraph]?.length) return { page, paragraph, sentence: 0 };
  }
  return null;
}

function after(sentences: string[][], at: ReadingPosition): ReadingPosition | null {
  if (at.sentence + 1 < (sentences[at.paragraph]?.length ?? 0)) return { ...at, sentence: at.sentence + 1 };
  return firstFrom(sentences, at.page, at.paragraph + 1);
}

/** Why the browser stopped speaking, in words a teacher can act on. */
function describeError(error: string): string {
  if (error === "interrupted" || error === "canceled") return "something else on this device used the speech.";
  if (error === "not-allowed") return "the browser did not allow it. Press Read aloud again.";
  if (error === "network") return "the voice needs a network connection.";
  if (error === "voice-unavailable" || error === "language-unavailable") return "this voice is not available. Choose another voice.";
  if (error === "audio-busy" || error === "audio-hardware") return "the device's audio is busy or missing.";
  return "the browser's speech failed.";
}

const where = (at: ReadingPosition) => `Reading page ${at.page}, paragraph ${at.paragraph + 1}`;

/**
 * The read-aloud state machine, outside React so it keeps no stale closures: the Text view tells
 * it the page's text as it loads (`setText`) and its options, and the controls call play, pause,
 * resume and stop. At the end of a page it asks for the next (`onNextPage`) and waits for that
 * page's text; a page turned by the teacher while it reads is read from its top.
 */
export function createReadAloud(engine: SpeechEngine) {
  let snapshot: ReadAloudSnapshot = { ...IDLE, voices: engine.synth.getVoices() };
  const listeners = new Set<() => void>();
  let text: ReadAloudText = { page: 0, status: "loading" };
  let pageCount = 0;
  let options: ReadAloudOptions = { rate: 1, voice: null, onNextPage: () => {} };
  // The utterance being spoken: events of any other (cancelled) one are ignored.
  let current: SpeechSynthesisUtterance | null = null;

  const update = (patch: Partial<ReadAloudSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener();
  };

  const silence = () => {
    if (!current) return;
    current = null;
    engine.synth.cancel();
  };

  const speak = (at: ReadingPosition) => {
    const sentence = text.status === "ready" && text.page === at.page ? text.sentences[at.paragraph]?.[at.sentence] : undefined;
    if (sentence === undefined) return;
    silence();
    const utterance = new engine.Utterance(sentence);
    utterance.rate = options.rate;
    const voice = options.voice ? engine.synth.getVoices().find((v) => v.voiceURI === options.voice) : undefined;
    if (voice) {
      utterance.voice = voice;
      utterance.lang = voice.lang;
    }
    utterance.onend = () => {
      if (current !== utterance) return;
      current = null;
      const next = text.status === "ready" ? after(text.sentences, at) : null;
      if (next) speak(next);
      else endOfPage(at.page);
    };
    utterance.onerror = (event) => {
      if (current !== utterance) return;
      current = null;
      update({ status: "idle", announcement: `Reading aloud stopped: ${describeError(event.error)}` });
    };
    current = utterance;
    update({ status: "playing", at });
    engine.synth.speak(utterance);
  };

  const endOfPage = (page: number) => {
    if (page < pageCount) {
      update({ status: "waiting", at: null });
      options.onNextPage(page + 1);
    } else update({ status: "idle", at: null, announcement: "Finished reading aloud: this is the end of the book." });
  };

  /** Reads the loaded page from its first sentence; a page with no text is passed over. */
  const readPage = () => {
    if (text.status !== "ready") return;
    const first = firstFrom(text.sentences, text.page, 0);
    if (!first) return endOfPage(text.page);
    speak(first);
    update({ announcement: `Reading page ${text.page}` });
  };

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,

    setOptions(next: ReadAloudOptions) {
      options = next;
    },

    setText(next: ReadAloudText, count: number) {
      const turned = next.page !== text.page;
      text = next;
      pageCount = count;
      if (turned && snapshot.status === "playing") {
        silence();
        update({ status: "waiting", at: null });
      } else if (turned && snapshot.status === "paused") update({ status: "idle", at: null });
      if (snapshot.status !== "waiting") return;
      if (text.status === "ready") readPage();
      else if (text.status === "failed")
        update({ status: "idle", announcement: `Reading aloud stopped: the text of page ${text.page} could not be loaded.` });
    },

    /** Reads from paragraph `paragraph` of the page shown (or the first after it with words). */
    play(paragraph: number) {
      if (text.status !== "ready") return update({ status: "waiting", at: null });
      const from = firstFrom(text.sentences, text.page, paragraph);
      if (!from) return update({ announcement: "There is nothing to read aloud on this page." });
      speak(from);
      update({ announcement: where(from) });
    },

    pause() {
      if (snapshot.status !== "playing" && snapshot.status !== "waiting") return;
      silence();
      update({ status: "paused", announcement: "Paused" });
    },

    resume() {
      if (snapshot.status !== "paused") return;
      const { at } = snapshot;
      if (at && text.status === "ready" && text.page === at.page) {
        speak(at);
        update({ announcement: where(at) });
      } else if (text.status === "ready") readPage();
      else update({ status: "waiting" });
    },

    stop() {
      silence();
      update({ status: "idle", at: null, announcement: "Stopped reading aloud" });
    },

    /** Says something through the live region (where reading will start). */
    announce(announcement: string) {
      update({ announcement });
    },

    /** Listens for the browser's voices and for the page going away (Chrome speaks on after a reload otherwise). */
    connect() {
      const onVoices = () => update({ voices: engine.synth.getVoices() });
      const onHide = () => silence();
      engine.synth.addEventListener?.("voiceschanged", onVoices);
      window.addEventListener("pagehide", onHide);
      onVoices();
      return () => {
        engine.synth.removeEventListener?.("voiceschanged", onVoices);
        window.removeEventListener("pagehide", onHide);
        silence();
        if (snapshot.status !== "idle") update({ status: "idle", at: null });
      };
    },
  };
}

export type ReadAloud = ReturnType<typeof createReadAloud>;

const noSubscription = () => () => {};
const idleSnapshot = () => IDLE;

/**
 * Read-aloud for one Text view: null controls where the browser has no speech synthesis. `text`
 * is the page shown and its sentences once loaded; `onNextPage` turns the page at the end of one.
 */
export function useReadAloud({
  text,
  pageCount,
  rate,
  voice,
  onNextPage,
  engine = browserSpeech,
}: {
  text: ReadAloudText;
  pageCount: number;
  rate: number;
  voice: string | null;
  onNextPage: (page: number) => void;
  /** Where the speech comes from (the browser's, unless a test says otherwise). */
  engine?: () => SpeechEngine | null;
}): { controls: ReadAloud | null; state: ReadAloudSnapshot } {
  const [controls] = useState(() => {
    const found = engine();
    return found ? createReadAloud(found) : null;
  });
  const state = useSyncExternalStore(controls?.subscribe ?? noSubscription, controls?.getSnapshot ?? idleSnapshot, idleSnapshot);
  const turnPage = useRef(onNextPage);
  turnPage.current = onNextPage;

  useEffect(() => controls?.connect(), [controls]);
  useEffect(() => controls?.setOptions({ rate, voice, onNextPage: (page) => turnPage.current(page) }), [controls, rate, voice]);
  useEffect(() => controls?.setText(text, pageCount), [controls, text, pageCount]);
  return { controls, state };
}

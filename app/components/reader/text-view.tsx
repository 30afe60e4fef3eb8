import { type KeyboardEvent, type MouseEvent, useEffect, useMemo, useRef, useState } from "react";
import type { PageStore } from "../../lib/reader/page-store.ts";
import { type ReadAloudText, useReadAloud } from "../../lib/reader/read-aloud.ts";
import type { PageText } from "../../lib/reader/reader-api.ts";
import { useReadingSettings } from "../../lib/reader/reading-settings.ts";
import { splitSentences } from "../../lib/reader/sentences.ts";
import { reflowPageText } from "../../lib/reader/text-lines.ts";
import { Spinner } from "../ui/spinner.tsx";
import { loadDyslexicFont } from "./dyslexic-font.client.ts";
import { ReadAloudBar } from "./read-aloud-bar.tsx";
import { ReadingSettingsPanel, ReadingSettingsToggle } from "./reading-settings-panel.tsx";
import { THEME_CLASSES, textClasses } from "./reading-styles.ts";
import { Sentences } from "./text-sentences.tsx";

const pageButton = "rounded-lg px-3 py-2 font-medium";
const SETTINGS_ID = "reading-settings";

type State =
  | { status: "loading"; page: number }
  | { status: "ready"; page: number; text: PageText }
  | { status: "error"; page: number; message: string };

/**
 * The current page's text as plain paragraphs that reflow to any width: readable zoomed to 400 %
 * on a phone without scrolling sideways, in the teacher's reading settings, and read aloud by the
 * browser's speech from the paragraph in view (or the one clicked), page after page.
 */
export function TextView({
  store,
  page,
  pageCount,
  failed,
  highlight = "",
  onGoTo,
}: {
  store: PageStore;
  page: number;
  pageCount: number;
  failed: boolean;
  /** The search's query while a search is on: its matches are marked in the text. */
  highlight?: string;
  onGoTo: (page: number) => void;
}) {
  const [state, setState] = useState<State>({ status: "loading", page });
  const scroller = useRef<HTMLElement>(null);
  const playButton = useRef<HTMLButtonElement>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const { settings, change, home, saveState } = useReadingSettings();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The paragraph the teacher clicked for read-aloud to start at (else the first in view).
  const [startAt, setStartAt] = useState<number | null>(null);

  useEffect(() => {
    setStartAt(null);
    if (failed) return;
    let cancelled = false;
    setState({ status: "loading", page });
    store.loadText(page).then(
      (text) => !cancelled && setState({ status: "ready", page, text }),
      (error: Error) => !cancelled && setState({ status: "error", page, message: error.message }),
    );
    scroller.current?.scrollTo({ top: 0 });
    return () => {
      cancelled = true;
    };
  }, [store, page, failed]);

  // Until this page's answer is in, the last page's is not this one's.
  const shown: State = state.page === page ? state : { status: "loading", page };
  const ready = shown.status === "ready" ? shown.text : null;
  const paragraphs = useMemo(() => (ready ? reflowPageText(ready.runs) : []), [ready]);
  const sentences = useMemo(() => paragraphs.map((paragraph) => splitSentences(paragraph.text)), [paragraphs]);
  const unreadable = failed || shown.status === "error";
  const speechText = useMemo<ReadAloudText>(
    () => (unreadable ? { page, status: "failed" } : ready ? { page, status: "ready", sentences } : { page, status: "loading" }),
    [page, unreadable, ready, sentences],
  );
  const { controls, state: aloud } = useReadAloud({
    text: speechText,
    pageCount,
    rate: settings.rate,
    voice: settings.voice,
    onNextPage: onGoTo,
  });
  const at = aloud.at?.page === page ? aloud.at : null;

  useEffect(() => {
    if (settings.font === "dyslexic") void loadDyslexicFont();
  }, [settings.font]);
  useEffect(() => {
    if (at) scroller.current?.querySelector("[data-reading-sentence]")?.scrollIntoView?.({ block: "nearest" });
  }, [at]);

  /** The first paragraph whose bottom is below the top of the view: where the teacher is reading. */
  const firstInView = () => {
    const view = scroller.current;
    if (!view) return 0;
    const top = view.getBoundingClientRect().top;
    for (const paragraph of view.querySelectorAll<HTMLElement>("[data-paragraph]")) {
      if (paragraph.getBoundingClientRect().bottom > top + 1) return Number(paragraph.dataset.paragraph);
    }
    return 0;
  };
  const play = () => controls?.play(startAt ?? firstInView());
  const toggle = () => {
    if (aloud.status === "playing" || aloud.status === "waiting") controls?.pause();
    else if (aloud.status === "paused") controls?.resume();
    else play();
  };
  const stop = () => {
    controls?.stop();
    playButton.current?.focus();
  };
  const choose = (event: MouseEvent) => {
    const paragraph = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-paragraph]") : null;
    if (!controls || !paragraph) return;
    const n = Number(paragraph.dataset.paragraph);
    if (aloud.status === "playing") return controls.play(n);
    setStartAt(n);
    controls.announce(`Read aloud will start at paragraph ${n + 1}`);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && settingsOpen) {
      setSettingsOpen(false);
      settingsButton.current?.focus();
      return;
    }
    if (event.key.toLowerCase() !== "k" || event.altKey || event.ctrlKey || event.metaKey || !controls) return;
    if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
    event.preventDefault();
    toggle();
  };

  const theme = THEME_CLASSES[settings.theme];
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: K (read aloud) and Escape (close the settings) while focus is in the Text view; each has a button too
    <div
      data-text-view-frame
      data-reading-theme={settings.theme}
      onKeyDown={onKeyDown}
      style={theme.colorScheme ? { colorScheme: theme.colorScheme } : undefined}
      className={`flex min-h-0 flex-1 flex-col ${theme.surface}`}
    >
      <ReadAloudBar
        supported={controls !== null}
        state={aloud}
        rate={settings.rate}
        voice={settings.voice}
        playRef={playButton}
        onPlay={play}
        onPause={() => controls?.pause()}
        onResume={() => controls?.resume()}
        onStop={stop}
        onRate={(rate) => change({ rate })}
        onVoice={(voice) => change({ voice })}
        className={theme.bar}
        settings={
          <ReadingSettingsToggle
            ref={settingsButton}
            controls={SETTINGS_ID}
            open={settingsOpen}
            onToggle={() => setSettingsOpen((open) => !open)}
          />
        }
      />
      <ReadingSettingsPanel
        id={SETTINGS_ID}
        hidden={!settingsOpen}
        settings={settings}
        home={home}
        saveState={saveState}
        received={store.received()}
        onChange={change}
        className={theme.bar}
      />
      <p role="status" className="sr-only">
        {aloud.announcement}
      </p>
      <section
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        aria-label={`Text of page ${page} of ${pageCount}`}
        data-text-view
        className="min-h-0 flex-1 overflow-y-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-400"
      >
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click picks where read-aloud starts; by keyboard it starts at the paragraph scrolled to */}
        <article onClick={choose} className={`mx-auto max-w-prose px-4 py-6 break-words sm:px-6 ${textClasses(settings)}`}>
          <h2 className={`mb-4 text-sm font-semibold tracking-wide uppercase ${theme.muted}`}>
            Page {page} of {pageCount}
          </h2>
          {failed ? (
            <p>This page could not be displayed.</p>
          ) : shown.status === "loading" ? (
            <p className={`flex items-center gap-2 ${theme.muted}`}>
              <Spinner label="Loading the page's text" /> <span aria-hidden="true">Loading the page's text...</span>
            </p>
          ) : shown.status === "error" ? (
            <p role="alert" className="text-red-700 dark:text-red-300">
              {shown.message}
            </p>
          ) : paragraphs.length === 0 ? (
            <p className={theme.muted}>There is no text on this page.</p>
          ) : (
            paragraphs.map((paragraph, i) => {
              const Tag = paragraph.heading ? "h3" : "p";
              const starts = startAt === i && !at;
              return (
                <Tag
                  // biome-ignore lint/suspicious/noArrayIndexKey: a page's paragraphs never move
                  key={i}
                  data-paragraph={i}
                  className={`${paragraph.heading ? "mt-[1.2em] mb-[0.6em] text-[1.35em] leading-snug font-bold" : "mb-[1em]"} ${starts ? `-ml-3 border-l-4 pl-2 ${theme.start}` : ""}`}
                >
                  <Sentences
                    sentences={sentences[i] ?? []}
                    text={paragraph.text}
                    reading={at?.paragraph === i ? at.sentence : null}
                    query={highlight}
                    readingClass={theme.reading}
                    matchClass={theme.match}
                  />
                </Tag>
              );
            })
          )}
          <nav aria-label="Pages" className={`mt-8 flex flex-wrap justify-between gap-3 border-t pt-4 ${theme.rule}`}>
            {page > 1 ? (
              <button type="button" onClick={() => onGoTo(page - 1)} className={`${pageButton} ${theme.link}`}>
                <span aria-hidden="true">←</span> Page {page - 1}
              </button>
            ) : (
              <span />
            )}
            {page < pageCount && (
              <button type="button" onClick={() => onGoTo(page + 1)} className={`${pageButton} ${theme.link}`}>
                Page {page + 1} <span aria-hidden="true">→</span>
              </button>
            )}
          </nav>
        </article>
      </section>
    </div>
  );
}

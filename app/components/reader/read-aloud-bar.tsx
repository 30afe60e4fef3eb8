import { type ReactNode, type Ref, useMemo } from "react";
import { SPEECH_RATES } from "#shared/rules/reading-settings.ts";
import type { ReadAloudSnapshot } from "../../lib/reader/read-aloud.ts";

const control =
  "inline-flex min-h-10 items-center gap-1.5 rounded-lg border border-current/20 px-3 py-1.5 text-sm font-medium hover:bg-current/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50";
const select =
  "min-h-10 rounded-lg border border-current/20 bg-transparent px-2 py-1.5 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4 shrink-0" fill="currentColor" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

const PLAY = "M8 5v14l11-7z";
const PAUSE = "M6 5h4v14H6zM14 5h4v14h-4z";
const STOP = "M6 6h12v12H6z";

/** The browser's voices, those in the reader's own language first, each group by name. */
function sortVoices(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice[] {
  const language = (typeof navigator === "undefined" ? "" : navigator.language).split("-")[0]?.toLowerCase() ?? "";
  const own = (voice: SpeechSynthesisVoice) => (voice.lang.toLowerCase().split(/[-_]/)[0] === language ? 0 : 1);
  return [...voices].sort((a, b) => own(a) - own(b) || a.name.localeCompare(b.name));
}

/**
 * Read aloud's controls (play/pause, stop, speed, voice) where the browser can speak, else a line
 * saying it cannot; and the button that opens the reading settings (`settings`).
 */
export function ReadAloudBar({
  supported,
  state,
  rate,
  voice,
  playRef,
  onPlay,
  onPause,
  onResume,
  onStop,
  onRate,
  onVoice,
  className,
  settings,
}: {
  supported: boolean;
  state: ReadAloudSnapshot;
  rate: number;
  voice: string | null;
  /** The play/pause button, for focus to return to when Stop turns itself off. */
  playRef: Ref<HTMLButtonElement>;
  onPlay: () => void;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  onRate: (rate: number) => void;
  onVoice: (voice: string | null) => void;
  className: string;
  settings: ReactNode;
}) {
  const voices = useMemo(() => sortVoices(state.voices), [state.voices]);
  const chosenVoice = voice && voices.some((v) => v.voiceURI === voice) ? voice : "";
  const reading = state.status === "playing" || state.status === "waiting";
  const [label, icon, action] = reading
    ? ["Pause", PAUSE, onPause]
    : state.status === "paused"
      ? ["Resume", PLAY, onResume]
      : ["Read aloud", PLAY, onPlay];

  return (
    <section
      aria-label="Read aloud and reading settings"
      className={`flex shrink-0 flex-wrap items-center gap-2 border-b px-3 py-2 ${className}`}
    >
      {supported ? (
        <>
          <button ref={playRef} type="button" className={control} onClick={action} aria-keyshortcuts="k" title={`${label} (K)`}>
            <Icon d={icon} />
            {label}
          </button>
          <button type="button" className={control} onClick={onStop} disabled={state.status === "idle"} aria-label="Stop reading aloud">
            <Icon d={STOP} />
            <span className="hidden sm:inline">Stop</span>
          </button>
          <label className="flex items-center gap-1.5 text-sm">
            <span>Speed</span>
            <select id="read-aloud-rate" className={select} value={rate} onChange={(event) => onRate(Number(event.target.value))}>
              {SPEECH_RATES.map((option) => (
                <option key={option} value={option}>
                  {option}×
                </option>
              ))}
            </select>
          </label>
          <label className="flex min-w-0 items-center gap-1.5 text-sm">
            <span>Voice</span>
            <select
              id="read-aloud-voice"
              className={`${select} w-40 max-w-full min-w-0 sm:w-56`}
              value={chosenVoice}
              onChange={(event) => onVoice(event.target.value || null)}
            >
              <option value="">Browser's default</option>
              {voices.map((v) => (
                <option key={v.voiceURI} value={v.voiceURI}>
                  {v.name} ({v.lang})
                </option>
              ))}
            </select>
          </label>
        </>
      ) : (
        <p className="text-sm">Reading aloud is not available in this browser.</p>
      )}
      <div className="ml-auto">{settings}</div>
    </section>
  );
}

/**
 * A teacher's reading settings for the reader's Text view (docs/decisions/0031): shared by the
 * Worker, which keeps them per teacher, and the reader, which applies them, so nothing here may
 * import Worker or browser modules, nor zod: the reader's island would carry 23 kB (gzipped) of it
 * for these few lists. The API's strict schema is the Worker's (workers/teachers/reading-settings.ts).
 * Each choice is a name, not a CSS value: the reader maps names to its own classes, and a stored
 * name stays valid when the styles behind it change.
 */

export const TEXT_SIZES = ["small", "medium", "large", "x-large", "xx-large"] as const;
export const LINE_SPACINGS = ["normal", "wide", "wider"] as const;
export const READING_FONTS = ["standard", "dyslexic"] as const;
/** "auto" follows the app's light or dark theme, as the Text view did before it had settings. */
export const READING_THEMES = ["auto", "light", "dark", "sepia"] as const;
export const SPEECH_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
/**
 * The data saver (docs/decisions/0048): smaller page images on a slow or metered connection.
 * "auto" turns it on when the browser says Save-Data or a 3G-or-slower connection.
 */
export const DATA_SAVER_CHOICES = ["off", "auto", "on"] as const;
/** A voice is named by the browser's voiceURI: long on some systems, never this long. */
export const MAX_VOICE_LENGTH = 200;

export type TextSize = (typeof TEXT_SIZES)[number];
export type LineSpacing = (typeof LINE_SPACINGS)[number];
export type ReadingFont = (typeof READING_FONTS)[number];
export type ReadingTheme = (typeof READING_THEMES)[number];
export type DataSaverChoice = (typeof DATA_SAVER_CHOICES)[number];

export type ReadingSettings = {
  textSize: TextSize;
  lineSpacing: LineSpacing;
  font: ReadingFont;
  theme: ReadingTheme;
  /** One of SPEECH_RATES. */
  rate: number;
  /** The chosen speech voice's voiceURI, or null for the browser's default. Devices have different voices: an unknown one means the default. */
  voice: string | null;
  /** The page images' data saver (the page view's, kept here with the rest). */
  dataSaver: DataSaverChoice;
};

export const DEFAULT_READING_SETTINGS: Readonly<ReadingSettings> = {
  textSize: "medium",
  lineSpacing: "normal",
  font: "standard",
  theme: "auto",
  rate: 1,
  voice: null,
  dataSaver: "auto",
};

function pick<T>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/**
 * Settings as they were stored (the teacher's row, the browser's localStorage, the API's answer):
 * whatever does not fit today's lists, a field at a time, is its default, so an old or damaged
 * value never stops the reader from opening.
 */
export function readStoredSettings(stored: unknown): ReadingSettings {
  const value: Record<string, unknown> = typeof stored === "object" && stored !== null && !Array.isArray(stored) ? { ...stored } : {};
  const voice = typeof value.voice === "string" ? value.voice.trim() : "";
  const d = DEFAULT_READING_SETTINGS;
  return {
    textSize: pick(TEXT_SIZES, value.textSize, d.textSize),
    lineSpacing: pick(LINE_SPACINGS, value.lineSpacing, d.lineSpacing),
    font: pick(READING_FONTS, value.font, d.font),
    theme: pick(READING_THEMES, value.theme, d.theme),
    rate: pick<number>(SPEECH_RATES, value.rate, d.rate),
    voice: voice && voice.length <= MAX_VOICE_LENGTH ? voice : null,
    dataSaver: pick(DATA_SAVER_CHOICES, value.dataSaver, d.dataSaver),
  };
}

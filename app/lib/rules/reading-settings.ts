import { z } from "zod";

/**
 * A teacher's reading settings for the reader's Text view (docs/decisions/0031): shared by the
 * Worker, which keeps them per teacher, and the reader, which applies them, so nothing here may
 * import Worker or browser modules. Each choice is a name, not a CSS value: the reader maps names
 * to its own classes, and a stored name stays valid when the styles behind it change.
 */

export const TEXT_SIZES = ["small", "medium", "large", "x-large", "xx-large"] as const;
export const LINE_SPACINGS = ["normal", "wide", "wider"] as const;
export const READING_FONTS = ["standard", "dyslexic"] as const;
/** "auto" follows the app's light or dark theme, as the Text view did before it had settings. */
export const READING_THEMES = ["auto", "light", "dark", "sepia"] as const;
export const SPEECH_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

export type TextSize = (typeof TEXT_SIZES)[number];
export type LineSpacing = (typeof LINE_SPACINGS)[number];
export type ReadingFont = (typeof READING_FONTS)[number];
export type ReadingTheme = (typeof READING_THEMES)[number];

export const DEFAULT_READING_SETTINGS = {
  textSize: "medium",
  lineSpacing: "normal",
  font: "standard",
  theme: "auto",
  rate: 1,
  voice: null,
} as const satisfies Record<string, unknown>;

const oneOf = (name: string, values: readonly (string | number)[]) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `Send ${name} (one of ${values.join(", ")})` : `${name} must be one of ${values.join(", ")}`;

/**
 * The settings as PUT /api/teacher/reading-settings takes them: all of them (a PUT replaces what
 * was stored), nothing else. `voice` is the browser's voiceURI of the chosen speech voice, or null
 * for the browser's default; devices have different voices, so an unknown one means the default.
 */
export const ReadingSettingsSchema = z.strictObject(
  {
    textSize: z.enum(TEXT_SIZES, { error: oneOf("textSize", TEXT_SIZES) }),
    lineSpacing: z.enum(LINE_SPACINGS, { error: oneOf("lineSpacing", LINE_SPACINGS) }),
    font: z.enum(READING_FONTS, { error: oneOf("font", READING_FONTS) }),
    theme: z.enum(READING_THEMES, { error: oneOf("theme", READING_THEMES) }),
    rate: z
      .number({ error: oneOf("rate", SPEECH_RATES) })
      .refine((rate) => (SPEECH_RATES as readonly number[]).includes(rate), "rate must be one of 0.75, 1, 1.25, 1.5, 1.75, 2"),
    voice: z
      .string({ error: "voice must be a voice's name, or null for the browser's default" })
      .trim()
      .min(1, "voice must be a voice's name, or null for the browser's default")
      .max(200, "voice must be at most 200 characters")
      .nullable(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown reading setting: ${issue.keys.join(", ")}` : undefined) },
);

export type ReadingSettings = z.infer<typeof ReadingSettingsSchema>;

/**
 * Settings as they were stored (the teacher's row, the browser's localStorage): whatever does not
 * fit today's schema, a field at a time, is its default, so an old or damaged value never stops
 * the reader from opening.
 */
export const StoredReadingSettingsSchema = z
  .object({
    textSize: ReadingSettingsSchema.shape.textSize.catch(DEFAULT_READING_SETTINGS.textSize),
    lineSpacing: ReadingSettingsSchema.shape.lineSpacing.catch(DEFAULT_READING_SETTINGS.lineSpacing),
    font: ReadingSettingsSchema.shape.font.catch(DEFAULT_READING_SETTINGS.font),
    theme: ReadingSettingsSchema.shape.theme.catch(DEFAULT_READING_SETTINGS.theme),
    rate: ReadingSettingsSchema.shape.rate.catch(DEFAULT_READING_SETTINGS.rate),
    voice: ReadingSettingsSchema.shape.voice.catch(DEFAULT_READING_SETTINGS.voice),
  })
  .catch({ ...DEFAULT_READING_SETTINGS });

export function readStoredSettings(stored: unknown): ReadingSettings {
  return StoredReadingSettingsSchema.parse(stored ?? {});
}

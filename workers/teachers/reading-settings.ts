import { and, eq } from "drizzle-orm";
import { z } from "zod";
import {
  DATA_SAVER_CHOICES,
  LINE_SPACINGS,
  MAX_VOICE_LENGTH,
  READING_FONTS,
  READING_THEMES,
  type ReadingSettings,
  readStoredSettings,
  SPEECH_RATES,
  TEXT_SIZES,
} from "#shared/rules/reading-settings.ts";
import type { Db } from "../db/client.ts";
import { teachers } from "../db/schema.ts";
import { teacherCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import type { TeacherRef } from "./own-account.ts";

/**
 * A teacher's reading settings for the Text view (docs/decisions/0031), kept on their row so they
 * follow the teacher to every device. Always the signed-in teacher's own: the id and the school come
 * from the checked session, never from the client.
 */

const TEACHER_GONE = "Your account could not be found.";

const oneOf = (name: string, values: readonly (string | number)[]) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `Send ${name} (one of ${values.join(", ")})` : `${name} must be one of ${values.join(", ")}`;
const NOT_A_VOICE = "voice must be a voice's name, or null for the browser's default";

/**
 * The settings as PUT /api/teacher/reading-settings takes them: all of them (a PUT replaces what
 * was stored), nothing else, each refusal a sentence naming the setting and what it may be.
 */
export const ReadingSettingsSchema = z.strictObject(
  {
    textSize: z.enum(TEXT_SIZES, { error: oneOf("textSize", TEXT_SIZES) }),
    lineSpacing: z.enum(LINE_SPACINGS, { error: oneOf("lineSpacing", LINE_SPACINGS) }),
    font: z.enum(READING_FONTS, { error: oneOf("font", READING_FONTS) }),
    theme: z.enum(READING_THEMES, { error: oneOf("theme", READING_THEMES) }),
    rate: z
      .number({ error: oneOf("rate", SPEECH_RATES) })
      .refine((rate) => (SPEECH_RATES as readonly number[]).includes(rate), `rate must be one of ${SPEECH_RATES.join(", ")}`),
    voice: z
      .string({ error: NOT_A_VOICE })
      .trim()
      .min(1, NOT_A_VOICE)
      .max(MAX_VOICE_LENGTH, `voice must be at most ${MAX_VOICE_LENGTH} characters`)
      .nullable(),
    // A reader from before the data saver sends no choice: it is "auto", the default.
    dataSaver: z.enum(DATA_SAVER_CHOICES, { error: oneOf("dataSaver", DATA_SAVER_CHOICES) }).default("auto"),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown reading setting: ${issue.keys.join(", ")}` : undefined) },
) satisfies z.ZodType<ReadingSettings>;

/** The teacher's settings, each one they never chose (or that no longer fits) at its default; null when the teacher is gone. */
export async function getReadingSettings(db: Db, who: TeacherRef): Promise<ReadingSettings | null> {
  const [row] = await db
    .select({ settings: teachers.readingSettings })
    .from(teachers)
    .where(and(eq(teachers.id, who.teacherId), eq(teachers.schoolId, who.schoolId)));
  return row ? readStoredSettings(row.settings) : null;
}

/** Replaces the teacher's settings with `input` (already the whole, checked set). */
export const saveReadingSettingsCommand = teacherCommand(ReadingSettingsSchema, async ({ db, who }, input) => {
  const [row] = await db
    .update(teachers)
    .set({ readingSettings: input })
    .where(and(eq(teachers.id, who.teacherId), eq(teachers.schoolId, who.schoolId)))
    .returning({ settings: teachers.readingSettings });
  if (!row) return failed({ kind: "not-found", error: TEACHER_GONE });
  return done({ settings: readStoredSettings(row.settings), message: "Your reading settings have been saved." });
});

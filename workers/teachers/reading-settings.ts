import { and, eq } from "drizzle-orm";
import { type ReadingSettings, ReadingSettingsSchema, readStoredSettings } from "../../app/lib/rules/reading-settings.ts";
import type { Db } from "../db/client.ts";
import { teachers } from "../db/schema.ts";
import { done, failed, teacherCommand } from "../http/command.ts";
import type { TeacherRef } from "./account.ts";

/**
 * A teacher's reading settings for the Text view (docs/decisions/0031), kept on their row so they
 * follow the teacher to every device. Always the signed-in teacher's own: the id and the school come
 * from the checked session, never from the client.
 */

const TEACHER_GONE = "Your account could not be found.";

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

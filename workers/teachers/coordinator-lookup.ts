/**
 * Whether the signed-in teacher is a coordinator of their school (docs/decisions/0030): one D1
 * read, kept apart from the coordinator's commands so a page's layout can ask without importing
 * the mail sending they reach.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { teachers } from "../db/schema.ts";

/** The signed-in teacher as a coordinator of their school, or null: not one, disabled, or gone. */
export async function findCoordinator(db: Db, who: { schoolId: number; teacherId: number }) {
  const [row] = await db
    .select({ id: teachers.id, name: teachers.name, email: teachers.email })
    .from(teachers)
    .where(
      and(
        eq(teachers.id, who.teacherId),
        eq(teachers.schoolId, who.schoolId),
        eq(teachers.coordinator, true),
        eq(teachers.disabled, false),
      ),
    );
  return row ?? null;
}

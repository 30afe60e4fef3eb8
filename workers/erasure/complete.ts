/**
 * An erasure's second step, should it have failed at the time (erase.ts): the hourly job erases
 * from each school's object the teachers erased in D1 in the last day. Erasing in an object what it
 * no longer holds is harmless, so repeating it is too (as purge.ts does for deleted schools).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";

const LOOK_BACK_MS = 26 * 3600_000;

/** How many schools' objects were reached. */
export async function completeErasures(db: Db, hot: HotState, now = Date.now()): Promise<number> {
  // On teachers_erased_idx: the erasures of the last day only.
  const schools = await db.all<{ schoolId: number; ids: string }>(sql`
    SELECT school_id AS schoolId, json_group_array(id) AS ids FROM teachers
    WHERE erased_at > ${now - LOOK_BACK_MS} GROUP BY school_id`);
  let reached = 0;
  for (const { schoolId, ids } of schools) {
    try {
      await schoolObject(hot, schoolId).eraseTeachers(schoolId, JSON.parse(ids) as number[]);
      reached++;
    } catch (error) {
      log.error("Erased teachers not yet erased from their school's object", { schoolId, error });
    }
  }
  return reached;
}

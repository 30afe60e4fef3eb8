/**
 * Deleting a school empties its object right after the D1 delete (workers/schools/editing.ts);
 * should that call fail, the hourly job empties the objects of every school deleted in the last
 * day, found in the audit log. Emptying an empty object is harmless, so repeating it is too.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { log } from "../kernel/log.ts";
import { type HotState, schoolObject } from "./objects.ts";

const LOOK_BACK_MS = 26 * 3600_000;

export async function purgeDeletedSchools(db: Db, hot: HotState, now = Date.now()): Promise<number> {
  const deleted = await db.all<{ id: number }>(sql`
    SELECT DISTINCT CAST(entity_id AS INTEGER) AS id FROM audit_log
    WHERE action = 'school.delete' AND at > ${now - LOOK_BACK_MS}
      AND CAST(entity_id AS INTEGER) NOT IN (SELECT id FROM schools)`);
  let purged = 0;
  for (const { id } of deleted) {
    try {
      await schoolObject(hot, id).purge();
      purged++;
    } catch (error) {
      log.error("School object not emptied", { schoolId: id, error });
    }
  }
  return purged;
}

/**
 * Schools by id, in isolate memory for a minute (docs/decisions/0024): a page view needs its
 * school's name (the watermark) and slug (the tenant check) and reads no school row from D1 for
 * them. An admin's edit in this isolate forgets the school at once; other isolates see it within
 * SCHOOL_TTL_MS. A deleted school's sessions end with its object, so a stale row signs no one in.
 */
import { findSchoolById } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import type { School } from "../db/schema.ts";
import { TtlCache } from "../db/ttl-cache.ts";

export const SCHOOL_TTL_MS = 60_000;
const schools = new TtlCache<number, School>(SCHOOL_TTL_MS, 2_000);

export async function cachedSchool(db: Db, id: number): Promise<School | null> {
  return (await schools.read(id, async () => (await findSchoolById(db, id)) ?? undefined)) ?? null;
}

/** A school changed or went: this isolate reads it again. */
export function forgetSchool(id: number): void {
  schools.forget(id);
}

import { eq } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import { type School, schools } from "./db/schema.ts";

export async function findSchoolBySlug(db: Db, slug: string): Promise<School | null> {
  const [school] = await db.select().from(schools).where(eq(schools.slug, slug)).limit(1);
  return school ?? null;
}

export { joinAddress, type PublicSchool, toPublicSchool } from "./public-school.ts";

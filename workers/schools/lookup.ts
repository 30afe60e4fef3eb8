import { eq, sql } from "drizzle-orm";
import { type Db, preparedQuery } from "../db/client.ts";
import { type School, schools } from "../db/schema.ts";

// Every school page starts here (the tenant), so it is prepared once.
const schoolBySlug = preparedQuery((db) =>
  db
    .select()
    .from(schools)
    .where(eq(schools.slug, sql.placeholder("slug")))
    .limit(1)
    .prepare(),
);

export async function findSchoolBySlug(db: Db, slug: string): Promise<School | null> {
  const [school] = await schoolBySlug(db).all({ slug });
  return school ?? null;
}

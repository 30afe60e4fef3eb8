import { eq, sql } from "drizzle-orm";
import { isValidSlug } from "#shared/rules/slug.ts";
import { slugFromName } from "#shared/rules/slug-from-name.ts";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";

/** The admin form's suggestion, kept short enough for a "-N" suffix. */
export function slugBase(name: string): string {
  return slugFromName(name, 56) || "school";
}

/**
 * Free slugs for these names, in order: the name's own slug, else the first free `-2`, `-3`...
 * One query finds every taken slug that could collide (each base and its `base-*` range, on the
 * unique index); `taken` holds slugs already claimed elsewhere (other rows of the same file).
 */
export async function generateUniqueSlugs(db: Db, names: string[], taken = new Set<string>()): Promise<string[]> {
  const bases = names.map(slugBase);
  const distinct = JSON.stringify([...new Set(bases)]);
  const rows = await db.all<{ slug: string }>(sql`
    SELECT slug FROM schools WHERE slug IN (SELECT value FROM json_each(${distinct}))
    UNION ALL
    SELECT s.slug FROM json_each(${distinct}) AS b JOIN schools AS s ON s.slug > b.value || '-' AND s.slug < b.value || '.'`);
  const used = new Set([...taken, ...rows.map((row) => row.slug)]);
  return bases.map((base) => {
    let slug = base;
    for (let n = 2; !isValidSlug(slug) || used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  });
}

export async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: schools.id }).from(schools).where(eq(schools.slug, slug)).limit(1);
  return row !== undefined && row.id !== exceptId;
}

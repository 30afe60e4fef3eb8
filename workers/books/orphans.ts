/**
 * R2 objects no row names any more, swept by the hourly job (issue 25: a Worker stopped between an
 * upload's `complete` and the book's update leaves its PDF behind). Each run walks up to
 * SWEEP_PAGES listing pages of each area, from where its previous run stopped (a cursor per area,
 * kept in the bucket), and deletes what is unnamed and older than a day (so an upload still in
 * flight is never swept):
 *   books/{id}/{random}.pdf     named by books.pdf_key, page_sets.pdf_key or uploads.object_key
 *   covers/{id}/{random}[.*]    named by books.cover_key (its renditions are `{cover_key}.{width}.webp`)
 *   pages/{id}/{setId}/...      named by a page_sets row with that id
 * Anything else in the bucket is left alone.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

export const ORPHAN_MIN_AGE_MS = 24 * 3600_000;
/** The areas the hourly job sweeps: uploads' PDFs and covers (page sets go by prefix with their set). */
export const SWEPT_AREAS = ["books/", "covers/"] as const;
/** Listing pages (1,000 keys each) per area per run: 240,000 keys a day. */
const SWEEP_PAGES = 10;

/** The row-naming rule a key falls under, and the value a row must hold; null for keys not swept. */
function ruleOf(key: string): { kind: "pdf" | "cover" | "set"; name: string } | null {
  const parts = key.split("/");
  if (parts[0] === "books" && parts.length === 3) return { kind: "pdf", name: key };
  // A rendition's key is its cover's key, a dot and more.
  if (parts[0] === "covers" && parts.length === 3) return { kind: "cover", name: `${parts[0]}/${parts[1]}/${parts[2]!.split(".")[0]}` };
  if (parts[0] === "pages" && parts.length >= 4) return { kind: "set", name: parts[2]! };
  return null;
}

/** Which of these names rows still hold, in one statement per kind. */
async function namedByRows(db: Db, kind: "pdf" | "cover" | "set", names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const list = JSON.stringify([...new Set(names)]);
  const rows = await db.all<{ name: string }>(
    kind === "pdf"
      ? sql`SELECT value AS name FROM json_each(${list}) WHERE value IN (SELECT pdf_key FROM books WHERE pdf_key IS NOT NULL)
          OR value IN (SELECT pdf_key FROM page_sets) OR value IN (SELECT object_key FROM uploads)`
      : kind === "cover"
        ? sql`SELECT value AS name FROM json_each(${list}) WHERE value IN (SELECT cover_key FROM books WHERE cover_key IS NOT NULL)`
        : sql`SELECT value AS name FROM json_each(${list}) WHERE value IN (SELECT id FROM page_sets)`,
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * One listing page under `prefix`, from `cursor`: deletes what no row names and is older than a
 * day. Returns how many it deleted and where the next page starts (null after the last).
 */
export async function sweepOrphanObjects(
  db: Db,
  bucket: R2Bucket,
  now: number,
  prefix: string,
  cursor?: string,
): Promise<{ deleted: number; cursor: string | null }> {
  const listing = await bucket.list({ cursor, prefix, limit: 1000 });
  const candidates = listing.objects
    .map((object) => ({ key: object.key, rule: ruleOf(object.key), uploaded: object.uploaded.getTime() }))
    .filter((object) => object.rule !== null && object.uploaded <= now - ORPHAN_MIN_AGE_MS);
  const named = {
    pdf: await namedByRows(
      db,
      "pdf",
      candidates.filter((c) => c.rule!.kind === "pdf").map((c) => c.rule!.name),
    ),
    cover: await namedByRows(
      db,
      "cover",
      candidates.filter((c) => c.rule!.kind === "cover").map((c) => c.rule!.name),
    ),
    set: await namedByRows(
      db,
      "set",
      candidates.filter((c) => c.rule!.kind === "set").map((c) => c.rule!.name),
    ),
  };
  const orphans = candidates.filter((c) => !named[c.rule!.kind].has(c.rule!.name)).map((c) => c.key);
  if (orphans.length) await bucket.delete(orphans);
  return { deleted: orphans.length, cursor: listing.truncated ? listing.cursor : null };
}

/** The hourly job's part: SWEEP_PAGES pages of each area from its saved cursor; how many objects went. */
export async function sweepOrphans(db: Db, bucket: R2Bucket, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (const area of SWEPT_AREAS) {
    const cursorKey = `sweep/orphans-cursor-${area.slice(0, -1)}`;
    const saved = await bucket.get(cursorKey);
    let cursor: string | null = saved ? (await saved.text()) || null : null;
    for (let page = 0; page < SWEEP_PAGES; page++) {
      const swept = await sweepOrphanObjects(db, bucket, now, area, cursor ?? undefined);
      deleted += swept.deleted;
      cursor = swept.cursor;
      if (cursor === null) break;
    }
    // After the last page the next run starts the area over.
    if (cursor) await bucket.put(cursorKey, cursor);
    else if (saved) await bucket.delete(cursorKey);
  }
  return deleted;
}

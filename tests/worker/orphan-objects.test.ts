// Issue #25 item 5: a Worker stopped right after an upload's `complete` left an R2 object no row
// names. The hourly job sweeps such objects once they are a day old (books/ and covers/, a few
// listing pages a run); named ones stay. Page sets' objects follow the same rule when swept.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ORPHAN_MIN_AGE_MS, sweepOrphanObjects } from "../../workers/books/orphans.ts";
import { books } from "../../workers/db/schema.ts";
import { createSchool, db } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

describe("the orphaned objects sweep", () => {
  it("deletes a day-old object no row names, under books/, covers/ and pages/, and keeps every named one", async () => {
    const school = await createSchool();
    const { book, setId } = await preparedBook("Swept Book", [school.id], ["One."]);
    const id = book.id;
    const named = [`books/${id}/kept.pdf`, `covers/${id}/kept`, `covers/${id}/kept.256.webp`, `pages/${id}/${setId}/1.json`];
    const orphans = [`books/${id}/cut-off.pdf`, `covers/${id}/gone.512.webp`, `pages/${id}/no-such-set/1-1024.webp`];
    for (const key of [...named, ...orphans]) await env.BOOKS.put(key, new Uint8Array([1, 2, 3]));
    await db().update(books).set({ pdfKey: named[0], coverKey: named[1] }).where(eq(books.id, id));
    const sweep = (now: number) =>
      Promise.all(
        ["books/", "covers/", "pages/"].map(async (area) => (await sweepOrphanObjects(db(), env.BOOKS, now, `${area}${id}/`)).deleted),
      );
    const exists = async (key: string) => (await env.BOOKS.head(key)) !== null;

    // Fresh objects are left alone: an upload may still be on its way to its row.
    expect(await sweep(Date.now())).toEqual([0, 0, 0]);
    for (const key of orphans) expect(await exists(key), key).toBe(true);

    expect(await sweep(Date.now() + ORPHAN_MIN_AGE_MS + 60_000)).toEqual([1, 1, 1]);
    for (const key of orphans) expect(await exists(key), key).toBe(false);
    for (const key of named) expect(await exists(key), key).toBe(true);
  });

  it("the hourly job walks books/ and covers/ from where it stopped, and leaves fresh objects alone", async () => {
    const { sweepOrphans } = await import("../../workers/books/orphans.ts");
    const key = `books/${987_000 + Math.floor(Math.random() * 1000)}/fresh.pdf`;
    await env.BOOKS.put(key, new Uint8Array([1]));
    await sweepOrphans(db(), env.BOOKS);
    expect(await env.BOOKS.head(key)).not.toBeNull();
  });
});
